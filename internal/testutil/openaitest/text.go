package openaitest

import (
	"fmt"
	"regexp"
	"strings"
)

// phaseLine is how lull's instructions name the phase being guided.
var phaseLine = regexp.MustCompile(`(?i)CURRENT PHASE:\s*(atmosphere|breathing|sensory|relaxation|resolution)\b`)

// phaseSentences and calmSentences are the default guide's material; each
// takes a "moment" number that never repeats on one server, so no two
// sentences of a whole session are the same (lull may drop repeats).
var phaseSentences = [...]string{
	"Let the %s phase settle around you, moment %d.",
	"Nothing needs doing in this %s phase, moment %d.",
	"Your breath moves slowly through the %s phase, moment %d.",
	"Soften your shoulders as the %s phase settles, moment %d.",
	"Each quiet second of the %s phase is enough, moment %d.",
	"Rest here in the %s phase a little longer, moment %d.",
}

var calmSentences = [...]string{
	"Let your body settle a little more, moment %d.",
	"Nothing needs doing right now, moment %d.",
	"Your breath moves slowly and easily, moment %d.",
	"Soften your shoulders and your jaw, moment %d.",
	"Each quiet second is enough, moment %d.",
	"Rest here a little longer, moment %d.",
}

// defaultText is the assistant text when no SetText function is set: six
// sentences, each ending in ". ".
func (s *Server) defaultText(c Call) string {
	s.mu.Lock()
	first := s.moment + 1
	s.moment += len(phaseSentences)
	s.mu.Unlock()

	var b strings.Builder
	m := phaseLine.FindStringSubmatch(c.Instructions)
	for i := range phaseSentences {
		if m != nil {
			fmt.Fprintf(&b, phaseSentences[i], strings.ToLower(m[1]), first+i)
		} else {
			fmt.Fprintf(&b, calmSentences[i], first+i)
		}
		b.WriteString(" ")
	}
	return b.String()
}

// deltas splits text into the pieces the stream sends: one to three
// words each (cycling 1, 2, 3), a word carrying the space before it as the
// API's tokens do (" capital"). Joined they give text back exactly.
func deltas(text string) []string {
	var words []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' && text[i-1] != ' ' && i+1 < len(text) && text[i+1] != ' ' {
			words = append(words, text[start:i])
			start = i
		}
	}
	if start < len(text) {
		words = append(words, text[start:])
	}
	var out []string
	for i, size := 0, 1; i < len(words); size = size%3 + 1 {
		end := min(i+size, len(words))
		out = append(out, strings.Join(words[i:end], ""))
		i = end
	}
	return out
}

// midSentence returns how many of ds an answer cut short by
// max_output_tokens keeps: about half, never ending on a sentence's end,
// so the cut shows.
func midSentence(ds []string) int {
	n := max(1, len(ds)/2)
	for n > 1 && strings.HasSuffix(strings.TrimRight(ds[n-1], " "), ".") {
		n--
	}
	return n
}

// estimateTokens is the usage figure for a prompt: about four characters a
// token, as OpenAI's rule of thumb says.
func estimateTokens(texts ...string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return max(1, n/4)
}

// usage is what an answer's usage reports, chat's and responses' alike in
// other words: the prompt's tokens (cached of them from the prompt cache,
// at most all), the output's (the deltas sent, and a reasoning model's
// reasoning, billed as output) and the reasoning's own.
type usage struct{ in, cached, out, reasoned int }

func usageOf(call Call, sent int, r *Reasoning, cache int) usage {
	u := usage{in: estimateTokens(call.prompt()...), out: sent}
	u.cached = min(cache, u.in)
	if r != nil {
		u.reasoned = reasoningTokens
		u.out += u.reasoned
	}
	return u
}

// obfuscation pads a delta the way the API's "obfuscation" field does
// (random characters so every event has about the same length); here they
// are fixed, so runs repeat.
func obfuscation(delta string) string {
	const letters = "f54SLWtfn3GFgvACE8GbicF2eojEhSKN"
	return letters[:max(3, 16-len(delta)%16)]
}

// HangText and FailText, returned by SetJudge's function, make the server hang until the client gives up,
// or answer HTTP 500: a guard model that never answers, or fails.
const (
	HangText = "\x00hang"
	FailText = "\x00fail"
)

// numberedLine is a line of a guard request: "3. Rest here."
var numberedLine = regexp.MustCompile(`(?m)^(\d+)\. `)

// judgeAllSafe is the default answer to a structured request: lull's guard
// shape, judging every numbered line of the last message safe.
func judgeAllSafe(c Call) string {
	var last string
	if len(c.Input) > 0 {
		last = c.Input[len(c.Input)-1].Text
	}
	var verdicts []string
	for _, m := range numberedLine.FindAllStringSubmatch(last, -1) {
		verdicts = append(verdicts, fmt.Sprintf(`{"line":%s,"safe":true,"category":"none"}`, m[1]))
	}
	return `{"verdicts":[` + strings.Join(verdicts, ",") + `]}`
}
