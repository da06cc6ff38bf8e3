package speech

import (
	"html"
	"log/slog"
	"regexp"
	"strings"
	"unicode"

	"github.com/lull-dev/lull/internal/human"
)

// Speech turns one call's streamed text into sentences fit to be spoken,
// whatever model wrote it. Stream stages remove what spans sentences or
// lines: thinking (<think>…</think>, or all before a lone </think>),
// tags (SSML, HTML), headings, list markers, stage directions in brackets
// or parentheses, emphasis marks (speech_markup.go). The Splitter then
// finds the sentences, and each is scrubbed of marks and emoji and judged:
// meta lines, refusals, an AI speaking of itself, chatter, questions that
// want an answer, labels and other languages are dropped whole
// (speech_words.go, prompts/speech/); a run-on is split at natural points
// (runon.go). Clean text fed again comes out the same.
//
// The zero value is ready; use one Speech per call.
type Speech struct {
	tags    tagStage
	inline  inlineStage
	lines   lineStage
	split   Splitter
	removed []Removal

	// released: a sentence of this stream has been handed out. Until one
	// is, a sentence that reads as a model's reasoning makes the rest wait
	// (held) for a </think> that would show it all to be thinking.
	released bool
	holding  bool
	held     []string
	pending  []Removal // removals while holding: thinking, if </think> comes
}

// Reason is why the speech cleaner removed something.
type Reason string

const (
	RemovedThinking Reason = "thinking" // a model's reasoning, in think tags or before a lone </think>
	RemovedHeading  Reason = "heading"  // a heading or a label
	RemovedMeta     Reason = "meta"     // about the writing: "Here is the atmosphere phase:"
	RemovedRefusal  Reason = "refusal"  // "I'm sorry, but I can't help with that."
	RemovedAI       Reason = "ai"       // "As an AI language model…"
	RemovedChatter  Reason = "chatter"  // "Sure!", "Thank you for using this app!"
	RemovedQuestion Reason = "question" // wants an answer: "Was this helpful?"
	RemovedLanguage Reason = "language" // not in the session's language
	RemovedRepeat   Reason = "repeat"   // said before in the session (the engine's, for a remote guide)
)

// Removal is one thing the cleaner took out: a sentence, a heading, a
// block of thinking. Marks, tags and stage directions inside a sentence
// are not counted: the sentence is still said.
type Removal struct {
	Reason Reason
	Text   string // what was removed (for the log at Debug, as a prefix)
}

// Feed adds a piece of the stream and returns the sentences it completed.
func (s *Speech) Feed(chunk string) []string { return s.run(chunk, false, false) }

// Flush ends the stream and returns its last sentences.
func (s *Speech) Flush() []string { return s.run("", true, false) }

// Cut ends a stream that stopped short (a reply cut by its token limit):
// the sentence it was in the middle of is not said.
func (s *Speech) Cut() []string { return s.run("", true, true) }

// Removals returns what was removed since it was last asked.
func (s *Speech) Removals() []Removal {
	r := s.removed
	s.removed = nil
	return r
}

func (s *Speech) run(chunk string, final, cut bool) []string {
	words := speechWords()
	text, reset := s.tags.feed(chunk, final, s.remove)
	if reset {
		// Everything so far was thinking: what is still held goes with it,
		// and the sentences judged while holding count as that one block.
		s.inline, s.lines, s.split = inlineStage{}, lineStage{}, Splitter{}
		s.held, s.pending, s.holding = nil, nil, false
		s.remove(RemovedThinking, "before </think>")
	}
	text = s.inline.feed(text, final, words)
	text = s.lines.feed(text, final, s.remove)
	sentences := s.split.Feed(text)
	if final {
		if cut {
			sentences = append(sentences, s.split.Cut()...)
		} else {
			sentences = append(sentences, s.split.Flush()...)
		}
	}
	var out []string
	for _, text := range settle(sentences) {
		if !hasLetter(text) {
			continue // only marks or numbers: "1.", "—", "..."
		}
		why := judge(text, words)
		if proper := properSentence(text); why == "" && proper != text {
			why = judge(proper, words) // as it would be heard ("Title:" is "Title.")
		}
		if why != "" {
			if why == RemovedThinking && !s.released {
				s.holding = true
			}
			s.remove(why, text)
			continue
		}
		// A run-on is heard in pieces, each judged as it will be heard: on
		// its own. It is one thought, kept whole or dropped whole.
		var pieces []string
		for _, piece := range splitRunOn(text) {
			if piece = properSentence(scrub(piece)); hasLetter(piece) {
				pieces = append(pieces, piece)
			}
		}
		if len(pieces) > 1 {
			for _, piece := range pieces {
				if why := judge(piece, words); why != "" {
					s.remove(why, text)
					pieces = nil
					break
				}
			}
		}
		for _, piece := range pieces {
			if s.holding {
				s.held = append(s.held, piece)
				continue
			}
			out = append(out, piece)
			s.released = true
		}
	}
	if final && s.holding {
		// No </think> came: what was held was the reply after all.
		out = append(out, s.held...)
		s.removed = append(s.removed, s.pending...)
		s.held, s.pending, s.holding = nil, nil, false
	}
	return out
}

// settle scrubs sentences until they stay as they are: what scrubbing
// removes may leave a sentence's end where there was none ("rest.★ now"),
// and the sentence is heard as two.
func settle(sentences []string) []string { return settleFrom(sentences, 0) }

func settleFrom(sentences []string, depth int) []string {
	var out []string
	for _, raw := range sentences {
		text := scrub(raw)
		if !innerStop(text) {
			out = append(out, text) // no stop inside: one sentence
			continue
		}
		var sp Splitter
		parts := append(sp.Feed(text), sp.Flush()...)
		if len(parts) == 1 && parts[0] == text || len(parts) == 0 || depth >= 4 {
			if text != "" {
				out = append(out, text)
			}
			continue
		}
		out = append(out, settleFrom(parts, depth+1)...)
	}
	return out
}

// innerStop reports whether a sentence's end mark stands inside s, before
// the marks and quotes that end it: only then may s be heard as two.
func innerStop(s string) bool {
	end := strings.TrimRightFunc(s, func(r rune) bool { return isTerminal(r) || isCloser(r) })
	return strings.IndexFunc(end, isTerminal) >= 0
}

// remove records a removal; while holding, it waits with what is held.
func (s *Speech) remove(why Reason, text string) {
	r := Removal{Reason: why, Text: text}
	if s.holding {
		s.pending = append(s.pending, r)
		return
	}
	s.removed = append(s.removed, r)
}

// judge says why a scrubbed sentence is not said, or "".
func judge(text string, words *speechLists) Reason {
	if why := words.dropReason(text); why != "" {
		return why
	}
	if r, _ := lastRune(text); !strings.ContainsRune(".!?…", r) && titleLike(text) {
		return RemovedHeading // "Settling In"
	}
	if strings.HasSuffix(text, ":") && len(strings.Fields(text)) <= 5 {
		return RemovedHeading // "Phase two, the breath:"
	}
	if words.languages.foreign(text) {
		return RemovedLanguage
	}
	return ""
}

var (
	webAddress = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*://\S*|\bwww\.[\pL\pN]\S*`) // "www." before a quote is no address
	emoticon   = regexp.MustCompile(`(^|\s)[:;]-?[)(DPp]+(\s|$)`)
	// labelPrefix is a label before a sentence's words: "Step 1:", "Note -".
	labelPrefix = regexp.MustCompile(`(?i)^(?:(?:phase|part|step|section|stage)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|[ivx]+)|tip|reminder)\s*[:.\-–—]\s+`)
	spaceBefore = regexp.MustCompile(`\s+([,.;:!?…])`)
	commaRun    = regexp.MustCompile(`,(?:\s*,)+`)
	commaStop   = regexp.MustCompile(`[,;:]+\s*([.!?…])`)
)

// scrub takes from a sentence what a voice would read out as symbols:
// leftover marks of markup, emoji and other pictographs, web addresses,
// emoticons, a label before it; and mends the punctuation around what was
// removed.
func scrub(s string) string {
	// Each step may give another its due ("www&#46;x" decoded is an
	// address): they run until nothing changes. Each looks before it
	// works: most sentences need none of them.
	for range 10 {
		before := s
		if strings.ContainsRune(s, '&') {
			s = html.UnescapeString(s)
		}
		if strings.Contains(s, "://") || strings.Contains(s, "ww.") || strings.Contains(s, "WW.") {
			s = webAddress.ReplaceAllString(s, " ")
		}
		if strings.ContainsAny(s, ":;") {
			s = emoticon.ReplaceAllString(s, "$1$2")
		}
		if strings.IndexFunc(s, unspoken) >= 0 {
			s = strings.Map(func(r rune) rune {
				if unspoken(r) {
					return ' '
				}
				return r
			}, s)
		}
		if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
			s = strings.Join(strings.Fields(s), " ")
		}
		if s != "" && strings.ContainsRune("pPsStTrR", rune(s[0])) {
			s = labelPrefix.ReplaceAllString(s, "")
		}
		if untidy(s) {
			s = spaceBefore.ReplaceAllString(s, "$1")
			s = commaRun.ReplaceAllString(s, ",")
			s = commaStop.ReplaceAllString(s, "$1")
		}
		s = strings.TrimLeft(s, ",;:.!?…—–- ")
		s = strings.TrimRight(s, ",;—–- ")
		if s == before {
			break
		}
	}
	return s
}

// untidy reports whether punctuation in s needs mending: a space before
// a mark, or a comma, semicolon or colon before another mark.
func untidy(s string) bool {
	prev := rune(0)
	after := false // a ",;:" and spaces since
	for _, r := range s {
		stop := strings.ContainsRune(",.;:!?…", r)
		if stop && (prev == ' ' || after) {
			return true
		}
		switch {
		case r == ',' || r == ';' || r == ':':
			after = true
		case r != ' ':
			after = false
		}
		prev = r
	}
	return false
}

// unspoken reports whether a voice should not see r: markup's marks,
// emoji and symbols, invisible joiners and selectors.
func unspoken(r rune) bool {
	switch {
	case r < 0x80:
		// Markup's marks, and the ASCII symbols a voice reads by name.
		return strings.ContainsRune("*_#<>[]{}|~^=`\\()+", r)
	case r == '’' || r == '—' || r == '…':
		return false // the marks most text has
	case strings.ContainsRune("•·¶§†‡", r):
		return true
	case r == '\u200d' || r >= '\ufe00' && r <= '\ufe0f' || r >= 0xe0000 && r <= 0xe007f:
		return true
	case unicode.In(r, unicode.So, unicode.Sk, unicode.Sm, unicode.Me, unicode.Co):
		return true
	}
	return false
}

func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// properSentence gives a piece of speech its capital and its end: a
// comma, colon or dash at the end becomes a full stop, and a piece
// without an end gets one.
func properSentence(s string) string {
	s = strings.TrimSpace(s)
	// The first letter gets its capital unless marks stand before it that
	// a capital would turn into a sentence of their own ("1.!k").
	if i := strings.IndexFunc(s, unicode.IsLetter); i >= 0 && strings.Trim(s[:i], "\"'“‘«") == "" {
		r := []rune(s[i:])
		if unicode.IsLower(r[0]) {
			r[0] = unicode.ToUpper(r[0])
			s = s[:i] + string(r)
		}
	}
	trimmed := strings.TrimRight(s, ",;:—–- ")
	end := strings.TrimRightFunc(trimmed, func(r rune) bool { return strings.ContainsRune("\"'”’»", r) })
	if r, _ := lastRune(end); !strings.ContainsRune(".!?…", r) {
		// The full stop goes inside closing quotes: 'say "rest".' is heard
		// the same, and a quote alone is left as it was.
		return strings.TrimRight(end, ",;:—–- ") + "." + trimmed[len(end):]
	}
	return trimmed
}

// LogRemovals logs what the speech cleaner removed from one piece of a
// phase's text: how many and why at Info; the words themselves, which a
// shared log should not show, only as a short prefix at Debug.
func LogRemovals(log *slog.Logger, phase string, rs []Removal) {
	if len(rs) == 0 {
		return
	}
	why := make([]string, len(rs))
	for i, r := range rs {
		why[i] = string(r.Reason)
		log.Debug("removed by the speech cleaner", slog.String("phase", phase), slog.String("reason", why[i]), slog.String("prefix", prefix(r.Text, 24)))
	}
	log.Info("speech cleaner removed what is not guidance", slog.String("phase", phase), slog.Int("count", len(rs)), slog.String("reasons", strings.Join(why, ",")))
}

// prefix is the first n runes of s, marked as cut when it was.
func prefix(s string, n int) string {
	r := []rune(human.Line(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n]) + "…"
}
