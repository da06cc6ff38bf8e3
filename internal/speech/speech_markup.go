package speech

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/human"
)

// The speech cleaner's stream stages, run on text as it arrives and
// before it is split into sentences: tags and thinking (which span
// sentences), then asides and emphasis inside a line, then what the start
// and end of a line say (headings, list markers, labels). Each holds back
// a construct it cannot yet judge — a tag, a bracket, a line start whose
// end has not arrived — and judges it at the stream's end if it must.

// asideLimit bounds how far a bracket, parenthesis or star looks for its
// close; beyond it the mark is a stray and goes alone.
const asideLimit = 300

// tagLimit bounds a tag's length in the same way.
const tagLimit = 256

// thinkTags open and close a model's thinking.
var thinkTags = map[string]bool{"think": true, "thinking": true, "reasoning": true, "thought": true}

// inlineTags wrap words without breaking them: they go without a trace.
// Other tags stand for a break: a space, or a paragraph for block tags.
var inlineTags = map[string]bool{
	"emphasis": true, "prosody": true, "say-as": true, "sub": true, "lang": true, "voice": true,
	"phoneme": true, "mark": true, "b": true, "i": true, "em": true, "strong": true, "span": true,
	"u": true, "a": true, "font": true, "small": true, "code": true, "w": true,
}

var blockTags = map[string]bool{
	"speak": true, "p": true, "s": true, "br": true, "div": true, "li": true, "ul": true, "ol": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "paragraph": true,
	"sentence": true, "blockquote": true, "hr": true, "tr": true, "table": true, "section": true,
}

// tagStage removes tags (SSML, HTML, a model's special tokens) and
// thinking blocks.
type tagStage struct {
	raw      string // text whose escape sequences may not be whole yet
	buf      []rune
	thinking bool
	thought  []rune // the thinking's first words, for the record
}

// feed returns the text with tags and thinking removed. reset reports a
// closing think tag with no opening one: everything before it in the
// stream was thinking (as R1-style chat templates emit), so the caller
// drops what it still holds of the stream.
func (t *tagStage) feed(s string, final bool, removed func(Reason, string)) (out string, reset bool) {
	if t.raw == "" && len(t.buf) == 0 && !t.thinking && plainText(s, "<") {
		return s, false // most of a stream: nothing here for this stage
	}
	// Escape sequences and controls go first, whole: "\x1b[2J" is no
	// bracket. One that may still be arriving waits.
	t.raw += s
	ready := len(t.raw)
	if k := strings.LastIndexFunc(t.raw, escapeStart); k >= 0 && !final && utf8.RuneCountInString(t.raw[k:]) < escapeLimit {
		ready = k
	}
	if !final {
		// A rune cut between two pieces of the stream waits for its rest.
		k := ready
		for k > 0 && ready-k < utf8.UTFMax && !utf8.RuneStart(t.raw[k-1]) {
			k--
		}
		if k > 0 && !utf8.FullRuneInString(t.raw[k-1:ready]) {
			ready = k - 1
		}
	}
	t.buf = append(t.buf, []rune(human.Printable(t.raw[:ready]))...)
	t.raw = t.raw[ready:]
	var b []rune
	i := 0
	for i < len(t.buf) {
		r := t.buf[i]
		if r != '<' {
			if t.thinking {
				if len(t.thought) < 80 {
					t.thought = append(t.thought, r)
				}
			} else {
				b = append(b, r)
			}
			i++
			continue
		}
		tag, decided := readTag(t.buf[i:], final)
		if !decided {
			break
		}
		if tag.n == 0 { // not a tag: the '<' alone goes
			i++
			continue
		}
		i += tag.n
		switch {
		case thinkTags[tag.name] && tag.self:
		case thinkTags[tag.name] && !tag.closing:
			t.thinking = true
		case thinkTags[tag.name] && t.thinking:
			t.thinking = false
			removed(RemovedThinking, string(t.thought))
			t.thought = t.thought[:0]
			b = append(b, '\n', '\n')
		case thinkTags[tag.name]:
			b, reset = b[:0], true // the caller records it
		case t.thinking:
		case blockTags[tag.name]:
			b = append(b, '\n', '\n')
		case inlineTags[tag.name] || tag.name == "":
		default:
			b = append(b, ' ')
		}
	}
	t.buf = append(t.buf[:0], t.buf[i:]...)
	if final && t.thinking {
		// A think block never closed: all of it was thinking.
		removed(RemovedThinking, string(t.thought))
		t.thinking, t.thought = false, t.thought[:0]
	}
	return string(b), reset
}

// plainText reports whether s is whole runes with no control but line
// breaks and none of marks: a stage that looks for marks can pass it on.
func plainText(s, marks string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r != '\n' && human.Control(r) != "" || strings.ContainsRune(marks, r) {
			return false
		}
	}
	return true
}

// escapeLimit is how long an escape sequence may wait to be whole.
const escapeLimit = 64

// escapeStart reports whether r begins an escape sequence: ESC, or a C1
// control that opens one.
func escapeStart(r rune) bool { return r == 0x1b || r >= 0x80 && r <= 0x9f }

// tag is what readTag found: its length in runes (0: not a tag), its
// name in lower case ("" for a comment or a special token).
type tag struct {
	n             int
	name          string
	closing, self bool
}

// readTag reads a tag at the start of b ('<'). decided is false while the
// text so far cannot tell.
func readTag(b []rune, final bool) (tag, bool) {
	end := -1
	for k := 1; k < len(b) && k < tagLimit; k++ {
		if b[k] == '>' {
			end = k
			break
		}
		if b[k] == '<' {
			return tag{}, true
		}
	}
	if end < 0 {
		if !final && len(b) < tagLimit {
			return tag{}, false
		}
		return tag{}, true
	}
	inner := b[1:end]
	t := tag{n: end + 1}
	if len(inner) > 0 {
		switch inner[0] {
		case '!', '?', '|', '｜':
			return t, true // a comment, a declaration, a model's special token
		}
	}
	if len(inner) > 0 && inner[0] == '/' {
		t.closing = true
		inner = inner[1:]
	}
	if len(inner) > 0 && inner[len(inner)-1] == '/' {
		t.self = true
	}
	k := 0
	for k < len(inner) && (unicode.IsLetter(inner[k]) || k > 0 && (unicode.IsDigit(inner[k]) || strings.ContainsRune(":_-", inner[k]))) {
		k++
	}
	if k == 0 || !unicode.IsLetter(inner[0]) {
		return tag{}, true // "<3", "< 5 >": not a tag
	}
	if k < len(inner) && !unicode.IsSpace(inner[k]) && inner[k] != '/' {
		return tag{}, true
	}
	t.name = strings.ToLower(string(inner[:k]))
	return t, true
}

// inlineStage removes asides and emphasis marks inside a line: brackets
// always ("[pause]"; a link keeps its text), parentheses and star or
// underscore spans when they are stage directions; other emphasis keeps
// its words, another parenthesis is said between commas.
type inlineStage struct {
	buf  []rune
	last rune // the last rune given out that was not a space
}

func (c *inlineStage) feed(s string, final bool, words *speechLists) string {
	if len(c.buf) == 0 && plainText(s, "[(*_!") {
		if k := strings.LastIndexFunc(s, func(r rune) bool { return r != ' ' }); k >= 0 {
			c.last, _ = utf8.DecodeRuneInString(s[k:])
		}
		return s
	}
	c.buf = append(c.buf, []rune(s)...)
	out, used := inline(c.buf, c.last, final, words)
	c.buf = append(c.buf[:0], c.buf[used:]...)
	if k := strings.LastIndexFunc(string(out), func(r rune) bool { return r != ' ' }); k >= 0 {
		c.last, _ = utf8.DecodeRuneInString(string(out)[k:])
	}
	return string(out)
}

// inline processes b, which follows the rune prev, as far as it can
// decide and says how far that was.
func inline(b []rune, prev rune, final bool, words *speechLists) (out []rune, used int) {
	before := func() rune { // the last rune before b[i] that is not a space
		for k := len(out) - 1; k >= 0; k-- {
			if out[k] != ' ' {
				return out[k]
			}
		}
		return prev
	}
	i := 0
	for i < len(b) {
		r := b[i]
		switch {
		case r == '!' && i+1 >= len(b) && !final:
			return out, i // an image's "![" may follow
		case r == '[' || r == '!' && i+1 < len(b) && b[i+1] == '[':
			image := r == '!'
			open := i
			if image {
				open++
			}
			n, text, decided := readBracket(b[open:], final)
			if !decided {
				return out, i
			}
			if n == 0 {
				i = open + 1 // a stray bracket
				continue
			}
			if text != nil && !image && !words.isDirection(string(text), false) {
				more, _ := inline(text, 0, true, words)
				out = append(out, more...)
			} else {
				out = append(out, ' ')
			}
			i = open + n
		case r == '(':
			j, decided := closing(b, i, '(', ')', final)
			if !decided {
				return out, i
			}
			if j < 0 {
				i++ // a stray parenthesis
				continue
			}
			aside := b[i+1 : j]
			if words.isDirection(string(aside), true) {
				out = append(out, ' ')
			} else {
				// Said between commas; the sentence's tidying mends the
				// punctuation around them.
				more, _ := inline(aside, 0, true, words)
				out = append(out, ',', ' ')
				out = append(out, more...)
				out = append(out, ',', ' ')
			}
			i = j + 1
		case r == '*' || r == '_':
			n := 1
			for i+n < len(b) && b[i+n] == r && n < 4 {
				n++
			}
			if r == '_' && i > 0 && isWordRune(b[i-1]) || n > 3 {
				out = append(out, b[i:i+n]...) // inside a word, or a rule: for the line stage
				i += n
				continue
			}
			if i+n >= len(b) && !final {
				return out, i
			}
			if i+n >= len(b) || unicode.IsSpace(b[i+n]) {
				out = append(out, b[i:i+n]...) // "* item": a list marker, for the line stage
				i += n
				continue
			}
			j, decided := emphasisEnd(b, i+n, r, n, final)
			if !decided {
				return out, i
			}
			if j < 0 {
				i += n // an unmatched mark goes alone
				continue
			}
			alone, decided := standsAlone(before(), b[j+n:], final)
			if !decided {
				return out, i
			}
			span := b[i+n : j]
			// "*pauses*" between sentences is a direction; "let the breath
			// *pause* here" is emphasis.
			if alone && words.isDirection(string(span), false) {
				out = append(out, ' ')
			} else {
				more, _ := inline(span, 0, true, words)
				out = append(out, more...)
			}
			i = j + n
		default:
			out = append(out, r)
			i++
		}
	}
	return out, i
}

// standsAlone reports whether a span between stars stands apart from the
// sentence around it: after the start, a line break or a sentence's end,
// and before the end, a line break, a capital or a sentence's end.
func standsAlone(prev rune, after []rune, final bool) (alone, decided bool) {
	if prev != 0 && !strings.ContainsRune("\n.!?…:)]*", prev) {
		return false, true
	}
	for _, r := range after {
		switch {
		case r == ' ' || r == '\t':
			continue
		case r == '\n' || unicode.IsUpper(r) || strings.ContainsRune(".!?…([*", r):
			return true, true
		}
		return false, true
	}
	return final, final
}

// readBracket reads "[text]" or "[text](url)" at the start of b. n is its
// length (0: a stray '['); text is the link's text, nil for a bracket.
func readBracket(b []rune, final bool) (n int, text []rune, decided bool) {
	j, decided := closing(b, 0, '[', ']', final)
	if !decided || j < 0 {
		return 0, nil, decided
	}
	if j+1 >= len(b) {
		if !final {
			return 0, nil, false // a link's "(" may follow
		}
		return j + 1, nil, true
	}
	if b[j+1] != '(' {
		return j + 1, nil, true
	}
	k, decided := closing(b, j+1, '(', ')', final)
	if !decided {
		return 0, nil, false
	}
	if k < 0 {
		return j + 1, nil, true
	}
	return k + 1, b[1:j], true
}

// closing finds the close of the bracket opened at b[i], nested ones
// counted, within one line and asideLimit. It returns -1 when there is
// none, and decided=false while the text so far cannot tell.
func closing(b []rune, i int, open, close rune, final bool) (int, bool) {
	depth := 0
	for k := i; k < len(b); k++ {
		if k-i > asideLimit || b[k] == '\n' {
			return -1, true
		}
		switch b[k] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return k, true
			}
		}
	}
	if final || len(b)-i > asideLimit {
		return -1, true
	}
	return -1, false
}

// emphasisEnd finds the run of n marks closing an emphasis whose text
// starts at b[from], within one line and asideLimit.
func emphasisEnd(b []rune, from int, mark rune, n int, final bool) (int, bool) {
	for k := from; k < len(b); k++ {
		if k-from > asideLimit || b[k] == '\n' {
			return -1, true
		}
		if b[k] != mark {
			continue
		}
		run := 1
		for k+run < len(b) && b[k+run] == mark {
			run++
		}
		if k+run >= len(b) && !final {
			return -1, false // the run may go on
		}
		after := k + run
		if run == n && !unicode.IsSpace(b[k-1]) && (mark != '_' || after >= len(b) || !isWordRune(b[after])) {
			return k, true
		}
		k += run - 1
	}
	if final || len(b)-from > asideLimit {
		return -1, true
	}
	return -1, false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// lineStage reads what the start and the end of each line say: a heading
// is dropped whole; a list marker goes and its item becomes a sentence of
// its own; a rule or a code fence goes; a label line ("Settling In", "The
// breathing phase:") is kept apart from the next line so that the
// sentence check can drop it.
type lineStage struct {
	buf     []rune
	mid     bool // the line's start has been read
	drop    bool // none of the line is said
	heading bool // the dropped line is a heading: counted
	item    bool // the line is a list item
	line    []rune
}

// lineKind is what a line's start says.
type lineKind int

const (
	lineUndecided lineKind = iota
	linePlain
	lineHeading
	lineRule  // a rule or a code fence: dropped, not counted
	lineItem  // a list item: its marker goes
	lineQuote // a block quote's '>': it goes, the line is read on
)

func (l *lineStage) feed(s string, final bool, removed func(Reason, string)) string {
	if l.mid && len(l.buf) == 0 && !final && !strings.ContainsRune(s, '\n') {
		// Inside a line: its runes pass, and the start of it is kept for
		// the judgement at its end.
		for _, r := range s {
			if len(l.line) >= 120 {
				break
			}
			l.line = append(l.line, r)
		}
		if l.drop {
			return ""
		}
		return s
	}
	l.buf = append(l.buf, []rune(s)...)
	var out []rune
	i := 0
	for i < len(l.buf) {
		if l.mid {
			r := l.buf[i]
			i++
			if r == '\n' {
				out = l.end(out, removed)
				out = append(out, '\n')
				continue
			}
			if !l.drop {
				out = append(out, r)
			}
			if len(l.line) < 120 {
				l.line = append(l.line, r)
			}
			continue
		}
		switch l.buf[i] {
		case ' ', '\t', '\r':
			i++
			continue
		case '\n':
			out = append(out, '\n')
			i++
			continue
		}
		n, kind := lineStart(l.buf[i:], final)
		if kind == lineUndecided {
			break
		}
		i += n
		switch kind {
		case lineQuote:
			continue
		case lineHeading:
			l.drop, l.heading = true, true
			out = append(out, '\n', '\n')
		case lineRule:
			l.drop = true
		case lineItem:
			l.item = true
			out = append(out, '\n', '\n')
		}
		l.mid = true
	}
	l.buf = append(l.buf[:0], l.buf[i:]...)
	if final {
		if l.mid {
			out = l.end(out, removed)
		}
		l.buf = l.buf[:0]
	}
	return string(out)
}

// end closes a line: a paragraph break after a list item, a label or a
// title, so none runs into the next line.
func (l *lineStage) end(out []rune, removed func(Reason, string)) []rune {
	text := strings.TrimSpace(string(l.line))
	switch {
	case l.heading:
		removed(RemovedHeading, text)
	case l.drop:
	case l.item || strings.HasSuffix(text, ":") || titleLike(text):
		out = append(out, '\n', '\n')
	}
	l.mid, l.drop, l.heading, l.item, l.line = false, false, false, false, l.line[:0]
	return out
}

// lineStart reads the start of a line (b begins at its first non-blank
// rune) and says how many runes of markup it has.
func lineStart(b []rune, final bool) (int, lineKind) {
	more := func(k int) bool { return k >= len(b) && !final } // need rune k
	switch r := b[0]; {
	case r == '#':
		k := 0
		for k < len(b) && b[k] == '#' {
			k++
		}
		if more(k) {
			return 0, lineUndecided
		}
		if k >= len(b) || b[k] == ' ' || b[k] == '\t' || b[k] == '\n' {
			return k, lineHeading
		}
	case r == '>':
		return 1, lineQuote
	case r == '`' || r == '~':
		if more(2) {
			return 0, lineUndecided
		}
		if len(b) >= 3 && b[1] == r && b[2] == r {
			return 3, lineRule
		}
	case strings.ContainsRune("-+*•◦‣·–—", r):
		if more(1) {
			return 0, lineUndecided
		}
		if len(b) > 1 && b[1] != ' ' && b[1] != '\t' && b[1] != r {
			break
		}
		// A rule ("---", "* * *") or an item ("- Relax")?
		k := 1
		for k < len(b) && (b[k] == r || b[k] == ' ' || b[k] == '\t') {
			k++
		}
		if more(k) {
			return 0, lineUndecided
		}
		if k >= len(b) || b[k] == '\n' {
			return k, lineRule
		}
		if b[1] == r {
			break // "--x", "**x": not a marker
		}
		k = 1
		for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
			k++
		}
		return k, lineItem
	case r >= '0' && r <= '9':
		k := 0
		for k < len(b) && k < 4 && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if more(k + 1) {
			return 0, lineUndecided
		}
		if k < 4 && k < len(b) && (b[k] == '.' || b[k] == ')') && (k+1 >= len(b) || b[k+1] == ' ' || b[k+1] == '\t' || b[k+1] == '\n') {
			k++
			for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
				k++
			}
			return k, lineItem
		}
	}
	return 0, linePlain
}

// titleLike reports whether a line without a sentence's end reads as a
// title: two to six words, the ones after the first capitalised but for
// small words ("Settling In", "A Place of Rest").
func titleLike(s string) bool {
	words := strings.Fields(s)
	if len(words) < 2 || len(words) > 6 {
		return false
	}
	if r, ok := lastRune(s); !ok || strings.ContainsRune(".!?…\"”’'", r) {
		return false
	}
	caps := 0
	for _, w := range words[1:] {
		first := []rune(w)[0]
		switch {
		case unicode.IsUpper(first):
			caps++
		case unicode.IsLower(first) && !titleSmall[strings.ToLower(strings.Trim(w, ",:;"))]:
			return false
		}
	}
	return caps > 0
}

// titleSmall are the words a title leaves in lower case.
var titleSmall = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "in": true,
	"to": true, "for": true, "with": true, "on": true, "at": true, "by": true, "into": true,
	"from": true, "your": true,
}
