package llm

import (
	"strings"
	"unicode"

	"github.com/lull-dev/lull/internal/engine"
)

// linePass is the pre-pass every model's text goes through before the
// sentence splitter: each line ends a sentence (the model was asked for
// one a line), a line broken in the middle of a sentence is joined again,
// and in breathing each line's tag is taken off and handed on with the
// line's text. It hands on text only, tag-free, so any splitter may follow
// it.
type linePass struct {
	tagged bool // breathing: lines begin with a breath tag

	head    []rune // the current line's start, until its tag is known
	inHead  bool
	bracket []rune // a bracket opened mid-line, until it is known
	stage   engine.BreathStage
	hasTag  bool // the current line has a tag
	empty   bool // nothing of the current line handed on yet
	last    rune // the last rune handed on that was not a space
	broken  bool // a line break waits: is the next line a new sentence?
	line    int  // the current line's number, counting from 0
}

func newLinePass(tagged bool) *linePass {
	return &linePass{tagged: tagged, inHead: tagged, empty: true}
}

// piece is text handed on, with the tag of the line it belongs to and
// that line's number.
type piece struct {
	text   string
	stage  engine.BreathStage
	tagged bool
	line   int
}

// feed takes a piece of the model's output and hands on what it can.
func (l *linePass) feed(delta string, out func(piece)) {
	var buf strings.Builder
	emit := l.emitter(&buf, out)
	for _, r := range delta {
		l.put(r, &buf, emit)
	}
	emit()
}

// flush hands on whatever is held back, at the end of the output.
func (l *linePass) flush(out func(piece)) {
	var buf strings.Builder
	emit := l.emitter(&buf, out)
	l.settle(&buf, emit)
	emit()
}

// current is the line being read, as a piece without text: its tag.
func (l *linePass) current() piece { return piece{stage: l.stage, tagged: l.hasTag, line: l.line} }

// emitter hands buf on, tagged as the current line.
func (l *linePass) emitter(buf *strings.Builder, out func(piece)) func() {
	return func() {
		if buf.Len() > 0 {
			p := l.current()
			p.text = buf.String()
			out(p)
			buf.Reset()
		}
	}
}

func (l *linePass) put(r rune, buf *strings.Builder, emit func()) {
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
func (l *linePass) newLine() {
	l.line++
	l.hasTag, l.stage = false, engine.StageInhale
	l.inHead = l.tagged
	l.empty = true
}

// settle hands on what a line held back: its head, a bracket.
func (l *linePass) settle(buf *strings.Builder, emit func()) {
	if l.inHead {
		l.readHead(buf, emit)
	}
	if l.bracket != nil {
		l.readBracket(buf, emit)
	}
}

// readHead takes the tag off the start of the line, if it has one.
func (l *linePass) readHead(buf *strings.Builder, emit func()) {
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
func (l *linePass) readBracket(buf *strings.Builder, emit func()) {
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
func (l *linePass) write(buf *strings.Builder, s string) {
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
