package llm

import (
	"strconv"
	"strings"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/prompts"
)

// turn is one message of a call's input.
type turn struct {
	role string // "user" or "assistant"
	text string
}

// instructions are one call's system prompt, resent with every call (they
// do not carry over a chain). They hold only lull's own words and stay the
// same from call to call within a phase: safety, persona, the output
// format, "you are NOW in this phase", the phase's guidance, the journey's
// steps, the breath tags in breathing, what never to say before
// resolution and, near the phase's budget, the hint that leads onward.
// The listener's intention is never here: it is a datum in the input
// (message).
func (g *Guide) instructions(req engine.Request) string {
	p := g.prompts
	name := req.Phase.String()
	ph, _ := p.PhaseFor(name, req.Sleep)
	var b strings.Builder
	section := func(title, text string) {
		text = strings.TrimSpace(text)
		if text == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if title != "" {
			b.WriteString(title)
			b.WriteString(":\n")
		}
		b.WriteString(text)
	}
	section("", p.Safety)
	section("", p.Persona)
	section("FORMAT", prompts.Fill(p.Format, map[string]string{"language": p.Language}))
	section("", "CURRENT PHASE: "+strings.ToUpper(name)+"\nYou are NOW in the "+name+" phase. Your only focus: "+strings.TrimSpace(ph.Focus))
	section("TONE", ph.Tone)
	section("PACING", ph.Pacing+"\n"+prompts.Fill(p.Pause, map[string]string{"pause": spokenSeconds(req.Budget.Rest)}))
	section("GUIDANCE", ph.Guidance)
	section("AVOID", ph.Avoid)
	if req.Phase == engine.Breathing {
		br := breathOf(req)
		section("BREATH", prompts.Fill(p.Breath, map[string]string{"rhythm": rhythm(br), "tags": tagList(br)}))
	}
	if o := req.Outline; len(o.Steps) > 0 {
		journey := strings.TrimSpace(strings.TrimSpace(o.Journey+". ") + " " + o.About)
		if o.Journey == "" {
			journey = strings.TrimSpace(o.About)
		}
		section("JOURNEY", prompts.Fill(p.Journey, map[string]string{"journey": journey, "steps": stepList(o.Steps)}))
	}
	switch {
	case req.Phase < engine.Resolution:
		section("NEVER SAY", p.Ending)
	case req.Sleep:
		section("NEVER WAKE", p.Waking)
	}
	if req.Intention != "" {
		section("INTENTION", p.IntentionRules)
	}
	if req.WindDown {
		section("TRANSITION", ph.WindDown)
	}
	return b.String()
}

// message is the user input that asks for this call's words: which call
// it is, the listener's intention as a delimited datum, a note on an
// unusable previous reply, where the journey stands, what was already
// said, and how many sentences to write.
func (g *Guide) message(req engine.Request) string {
	p := g.prompts
	vars := map[string]string{"phase": req.Phase.String()}
	var lines []string
	switch {
	case !saidAnything(req) && req.Chain == "" && req.Phase == engine.Atmosphere:
		lines = append(lines, p.Begin)
	case req.Spoken == 0:
		lines = append(lines, prompts.Fill(p.Enter, vars))
	default:
		lines = append(lines, prompts.Fill(p.Continue, vars))
	}
	if datum := intentionDatum(req.Intention); datum != "" {
		lines = append(lines, prompts.Fill(p.Intention, map[string]string{"intention": datum}))
	}
	if note := human.Line(req.Note); note != "" {
		lines = append(lines, prompts.Fill(p.Note, map[string]string{"note": strings.TrimRight(note, ".")}))
	}
	n := req.Asked()
	if w := where(req, n); w != "" {
		lines = append(lines, prompts.Fill(p.Step, map[string]string{"where": w}))
	}
	if used := used(g.vocabulary, req); len(used) > 0 {
		lines = append(lines, prompts.Fill(p.Used, map[string]string{"used": strings.Join(used, ", ")}))
	}
	vars["sentences"] = strconv.Itoa(n)
	vars["remaining"] = strconv.Itoa(max(req.Budget.Sentences-req.Spoken, n))
	lines = append(lines, prompts.Fill(p.Length, vars))
	return strings.Join(lines, "\n")
}

// opening is the first line of a call's input, the one the history of a
// stateless call repeats for each phase.
func (g *Guide) opening(ph engine.Phase, first bool) string {
	if first {
		return g.prompts.Begin
	}
	return prompts.Fill(g.prompts.Enter, map[string]string{"phase": ph.String()})
}

func saidAnything(req engine.Request) bool {
	if len(req.Pending) > 0 {
		return true
	}
	for _, e := range req.History {
		if e.Role == engine.RoleGuide {
			return true
		}
	}
	return false
}

// chainedTurns continue a stored response: what was said that it does not
// hold, then the request. The first chained call of a run — a resumed
// session, or a retry after a failure — also says what the listener last
// heard: the stored response may hold words that were never spoken.
func (g *Guide) chainedTurns(req engine.Request) []turn {
	var out []turn
	if len(req.Unchained) > 0 {
		out = append(out, turn{role: "assistant", text: strings.Join(req.Unchained, "\n")})
	}
	msg := g.message(req)
	if heard := lastHeard(req, 2); heard != "" && g.recapNext.Swap(false) {
		msg += "\n\n" + prompts.Fill(g.prompts.Recap, map[string]string{"recap": heard})
	}
	return append(out, turn{role: "user", text: msg})
}

// lastHeard is the last n sentences said, pending ones included.
func lastHeard(req engine.Request, n int) string {
	said := append([]string(nil), req.Pending...)
	for i := len(req.History) - 1; i >= 0 && len(said) < n; i-- {
		if e := req.History[i]; e.Role == engine.RoleGuide {
			said = append([]string{e.Text}, said...)
		}
	}
	return strings.Join(said[max(0, len(said)-n):], " ")
}
