package llm

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"lull/engine"
)

// The breathing phase asks for one sentence per line, each beginning with
// the part of the breath it is spoken on in square brackets: "[in] Breathe
// in slowly." The tag is taken off before the line goes any further, and
// remembered, so the engine times the line by it (engine.Cuer) instead of
// guessing from its first words. Models write the tag in other ways too —
// "In:", "(in)", "IN -", "**Exhale:**" — and those are read as well; a
// line without one falls back to the guess.

// tagWords are the words a tag may hold, and the part of the breath each
// names.
var tagWords = map[string]engine.BreathStage{
	"in": engine.StageInhale, "inhale": engine.StageInhale, "in-breath": engine.StageInhale, "inbreath": engine.StageInhale,
	"breathe in": engine.StageInhale, "breathing in": engine.StageInhale, "breath in": engine.StageInhale,
	"out": engine.StageExhale, "exhale": engine.StageExhale, "out-breath": engine.StageExhale, "outbreath": engine.StageExhale,
	"breathe out": engine.StageExhale, "breathing out": engine.StageExhale, "breath out": engine.StageExhale,
	"hold": engine.StageHold, "pause": engine.StageHold, "top": engine.StageHold,
	"rest": engine.StageHoldOut, "bottom": engine.StageHoldOut,
}

// tagOf is the tag lull asks for, for a part of the breath.
func tagOf(s engine.BreathStage) string {
	switch s {
	case engine.StageHold:
		return "[hold]"
	case engine.StageExhale:
		return "[out]"
	case engine.StageHoldOut:
		return "[rest]"
	}
	return "[in]"
}

const tagWord = `(in|inhale|in-?breath|breathe in|breathing in|breath in|out|exhale|out-?breath|breathe out|breathing out|breath out|hold|pause|top|rest|bottom)`

var (
	// headTag is a tag at the start of a line: bracketed, or a word and a
	// colon, or a short word and a dash; markdown emphasis and a list
	// marker around it are taken with it.
	headTag = regexp.MustCompile(`(?i)^\s*(?:[-*•]\s+)?(?:\*\*|__|\*|_)?\s*(?:` +
		`[\[({<]\s*` + tagWord + `\s*[\])}>]` +
		`|` + tagWord + `\s*(?:\*\*|__|\*|_)?\s*:` +
		`|((?i:in|out)|(?-i:HOLD|REST|INHALE|EXHALE))\s+[-–—]` +
		`)(?:\s*[:\-–—])?(?:\*\*|__|\*|_)?\s*`)
	// inlineTag is a bracketed tag in the middle of a line: a new line
	// that the model did not break.
	inlineTag = regexp.MustCompile(`(?i)^[\[({<]\s*` + tagWord + `\s*[\])}>]$`)
)

// maxHead is how much of a line is held back until its tag is known:
// enough for "**Breathe out:** ".
const maxHead = 24

// maxBracket is how much of a bracket is held back mid-line until it is
// known to be a tag or not.
const maxBracket = 16

// stageOf reads a tag's word.
func stageOf(word string) engine.BreathStage {
	w := strings.ToLower(strings.Join(strings.Fields(word), " "))
	w = strings.Replace(w, "inbreath", "in-breath", 1)
	w = strings.Replace(w, "outbreath", "out-breath", 1)
	return tagWords[w]
}

// lines is the pre-pass every model's text goes through before the
// sentence splitter: each line ends a sentence (the model was asked for
// one a line), a line broken in the middle of a sentence is joined again,
// and in breathing each line's tag is taken off and handed on with the
// line's text. It hands on text only, tag-free, so any splitter may follow
// it.
type lines struct {
	tagged bool // breathing: lines begin with a breath tag

	head    []rune // the current line's start, until its tag is known
	inHead  bool
	bracket []rune // a bracket opened mid-line, until it is known
	stage   engine.BreathStage
	hasTag  bool // the current line has a tag
	empty   bool // nothing of the current line handed on yet
	last    rune // the last rune handed on that was not a space
	broken  bool // a line break waits: is the next line a new sentence?
}

func newLines(tagged bool) *lines { return &lines{tagged: tagged, inHead: tagged, empty: true} }

// piece is text handed on, with the tag of the line it belongs to.
type piece struct {
	text   string
	stage  engine.BreathStage
	tagged bool
}

// feed takes a piece of the model's output and hands on what it can.
func (l *lines) feed(delta string, out func(piece)) {
	var buf strings.Builder
	emit := l.emitter(&buf, out)
	for _, r := range delta {
		l.put(r, &buf, emit)
	}
	emit()
}

// flush hands on whatever is held back, at the end of the output.
func (l *lines) flush(out func(piece)) {
	var buf strings.Builder
	emit := l.emitter(&buf, out)
	l.settle(&buf, emit)
	emit()
}

// current is the line being read, as a piece without text: its tag.
func (l *lines) current() piece { return piece{stage: l.stage, tagged: l.hasTag} }

// emitter hands buf on, tagged as the current line.
func (l *lines) emitter(buf *strings.Builder, out func(piece)) func() {
	return func() {
		if buf.Len() > 0 {
			p := l.current()
			p.text = buf.String()
			out(p)
			buf.Reset()
		}
	}
}

func (l *lines) put(r rune, buf *strings.Builder, emit func()) {
	if r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' {
		l.settle(buf, emit)
		if !l.empty {
			l.broken = true
		}
		return
	}
	if l.broken {
		if unicode.IsSpace(r) {
			return
		}
		l.broken = false
		if !l.tagged && !endsSentenceRune(l.last) && unicode.IsLower(r) {
			buf.WriteRune(' ') // a sentence wrapped onto the next line
		} else {
			buf.WriteString("\n\n") // the splitter ends the sentence here
			emit()
			l.newLine()
		}
	}
	switch {
	case l.inHead:
		l.head = append(l.head, r)
		if len(l.head) >= maxHead {
			l.readHead(buf, emit)
		}
	case l.bracket != nil:
		l.bracket = append(l.bracket, r)
		if isCloser(r) || len(l.bracket) >= maxBracket {
			l.readBracket(buf, emit)
		}
	case l.tagged && isOpener(r):
		l.bracket = []rune{r}
	default:
		l.write(buf, string(r))
	}
}

// newLine begins a line: no tag known yet.
func (l *lines) newLine() {
	l.hasTag, l.stage = false, engine.StageInhale
	l.inHead = l.tagged
	l.empty = true
}

// settle hands on what a line held back: its head, a bracket.
func (l *lines) settle(buf *strings.Builder, emit func()) {
	if l.inHead {
		l.readHead(buf, emit)
	}
	if l.bracket != nil {
		l.readBracket(buf, emit)
	}
}

// readHead takes the tag off the start of the line, if it has one.
func (l *lines) readHead(buf *strings.Builder, emit func()) {
	head := string(l.head)
	l.head, l.inHead = nil, false
	if m := headTag.FindStringSubmatchIndex(head); m != nil {
		for g := 1; g < len(m)/2; g++ {
			if m[2*g] >= 0 {
				l.stage, l.hasTag = stageOf(head[m[2*g]:m[2*g+1]]), true
				break
			}
		}
		head = head[m[1]:]
	}
	for _, r := range head { // the rest of the head may open a bracket
		if l.bracket != nil {
			l.bracket = append(l.bracket, r)
			if isCloser(r) || len(l.bracket) >= maxBracket {
				l.readBracket(buf, emit)
			}
			continue
		}
		if l.tagged && isOpener(r) {
			l.bracket = []rune{r}
			continue
		}
		l.write(buf, string(r))
	}
}

// readBracket decides a bracket met mid-line: a breath tag starts a new
// line with that tag; anything else is text.
func (l *lines) readBracket(buf *strings.Builder, emit func()) {
	b := string(l.bracket)
	l.bracket = nil
	if m := inlineTag.FindStringSubmatch(b); m != nil {
		if !l.empty {
			buf.WriteString("\n\n")
			emit()
		}
		l.newLine()
		l.inHead = false
		l.stage, l.hasTag = stageOf(m[1]), true
		return
	}
	l.write(buf, b)
}

// write hands text of the current line on.
func (l *lines) write(buf *strings.Builder, s string) {
	if l.empty {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			return
		}
		l.empty = false
	}
	buf.WriteString(s)
	if t := strings.TrimRightFunc(s, unicode.IsSpace); t != "" {
		r := []rune(t)
		l.last = r[len(r)-1]
	}
}

func endsSentenceRune(r rune) bool {
	return strings.ContainsRune(".!?…\"'”’)]»:;", r)
}

func isOpener(r rune) bool { return r == '[' || r == '(' || r == '{' || r == '<' }
func isCloser(r rune) bool { return r == ']' || r == ')' || r == '}' || r == '>' }

// cues remembers the part of the breath each tagged sentence of a session
// was written for, so the engine can ask (Guide.Cue). It keeps the newest
// maxCues: the engine asks as a line is about to be spoken, a few lines
// after it was written.
type cues struct {
	mu     sync.Mutex
	order  []string
	stages map[string]engine.BreathStage
}

const maxCues = 64

// cueKey is a sentence reduced to its words, so what the engine's own
// cleaning changes (spaces, quotes, markup) still finds it.
func cueKey(text string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

func (c *cues) remember(text string, s engine.BreathStage) {
	k := cueKey(text)
	if k == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stages == nil {
		c.stages = map[string]engine.BreathStage{}
	}
	if _, ok := c.stages[k]; !ok {
		c.order = append(c.order, k)
	}
	c.stages[k] = s
	for len(c.order) > maxCues {
		delete(c.stages, c.order[0])
		c.order = c.order[1:]
	}
}

// minCuePart is the shortest piece of a remembered sentence that still
// finds it: a sentence the engine split in two.
const minCuePart = 12

func (c *cues) stage(text string) (engine.BreathStage, bool) {
	k := cueKey(text)
	if k == "" {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.stages[k]; ok {
		return s, true
	}
	if len(k) < minCuePart {
		return 0, false
	}
	for i := len(c.order) - 1; i >= 0; i-- {
		if strings.Contains(c.order[i], k) {
			return c.stages[c.order[i]], true
		}
	}
	return 0, false
}

// Cue is the part of the breath a breathing line was tagged with by the
// model (engine.Cuer); ok is false for a line that came without a tag, which
// the engine then times by its first words.
func (g *Guide) Cue(text string) (engine.BreathStage, bool) { return g.cues.stage(text) }

var _ engine.Cuer = (*Guide)(nil)

// breathOf is the rhythm a call's breathing follows.
func breathOf(req engine.Request) engine.BreathPattern {
	if req.Breath.Period() <= 0 {
		return engine.DefaultBreath
	}
	return req.Breath
}

// seconds says a duration as whole seconds, or halves.
func seconds(d time.Duration) string {
	s := strconv.FormatFloat(float64(d.Round(500*time.Millisecond))/float64(time.Second), 'f', -1, 64)
	if s == "1" {
		return "1 second"
	}
	return s + " seconds"
}

// spokenSeconds is a pause as the model is told it.
func spokenSeconds(d time.Duration) string {
	if d < time.Second {
		return "a moment"
	}
	return seconds(d)
}

// rhythm is the pacer's rhythm in words, for the breath section.
func rhythm(b engine.BreathPattern) string {
	parts := []string{"breathe in for " + seconds(b.Inhale)}
	if b.Hold > 0 {
		parts = append(parts, "a soft pause of "+seconds(b.Hold)+" at the top")
	}
	parts = append(parts, "breathe out for "+seconds(b.Exhale))
	if b.HoldOut > 0 {
		parts = append(parts, "a rest of "+seconds(b.HoldOut)+" before the next in-breath")
	}
	return strings.Join(parts, ", ")
}

// tagList is the tags a rhythm has, each with what it means: [hold] and
// [rest] only when the rhythm pauses there.
func tagList(b engine.BreathPattern) string {
	tags := []string{"[in] for a line spoken as the in-breath begins"}
	if b.Hold > 0 {
		tags = append(tags, "[hold] for a short line spoken in the pause at the top")
	}
	tags = append(tags, "[out] for a line spoken as the out-breath begins")
	if b.HoldOut > 0 {
		tags = append(tags, "[rest] for a short line spoken in the rest after the out-breath")
	}
	return strings.Join(tags, ", ")
}
