package speech

import (
	"strings"
	"unicode"

	"github.com/lull-dev/lull/internal/human"
)

// Splitter turns streamed text into whole sentences. It holds back the tail
// until it knows whether a full stop really ends a sentence: "Dr. Lee",
// "4.5 seconds" and "in... and out" do not; "Rest... Now" does.
type Splitter struct {
	buf []rune
}

var abbreviations = map[string]bool{
	"dr": true, "mr": true, "mrs": true, "ms": true, "st": true, "prof": true,
	"jr": true, "sr": true, "vs": true, "etc": true, "e.g": true, "i.e": true,
	"a.m": true, "p.m": true, "approx": true,
}

// Feed adds text and returns the sentences it completed.
func (s *Splitter) Feed(text string) []string {
	s.buf = append(s.buf, []rune(text)...)
	return s.take(false)
}

// Flush ends the stream and returns what is left as the last sentences.
func (s *Splitter) Flush() []string {
	out := s.take(true)
	if rest := clean(string(s.buf)); rest != "" {
		out = append(out, rest)
	}
	s.buf = s.buf[:0]
	return out
}

func (s *Splitter) take(final bool) []string {
	var out []string
	start := 0
	for i := 0; i < len(s.buf); i++ {
		end, decided := s.boundary(i, final)
		if !decided {
			break // need more text to know
		}
		if end < 0 {
			// Skip the rest of a punctuation run judged as a whole.
			for isTerminal(s.buf[i]) && i+1 < len(s.buf) && isTerminal(s.buf[i+1]) {
				i++
			}
			continue
		}
		if sentence := clean(string(s.buf[start:end])); sentence != "" {
			out = append(out, sentence)
		}
		start = end
		i = end - 1
	}
	if start > 0 {
		s.buf = append(s.buf[:0], s.buf[start:]...)
	}
	// A run that never ends a sentence is cut once it holds twice what a
	// spoken sentence may, at a natural point (runon.go), never inside a
	// word: text keeps flowing and the buffer stays small.
	// n words take at least 2n-1 runes: a shorter buffer needs no count.
	for len(s.buf) > 4*MaxSpokenWords {
		spans := wordSpans(s.buf)
		if len(spans) <= 2*MaxSpokenWords {
			break
		}
		words := make([]string, len(spans))
		for k, sp := range spans {
			words[k] = string(s.buf[sp[0]:sp[1]])
		}
		cut := spans[naturalCut(words, minPiece, MaxSpokenWords, MaxSpokenWords)][0]
		out = append(out, clean(string(s.buf[:cut])))
		s.buf = append(s.buf[:0], s.buf[cut:]...)
	}
	return out
}

// Cut ends a stream that stopped short, as a reply cut by its token
// limit: the sentence it was in the middle of is not said.
func (s *Splitter) Cut() []string {
	out := s.take(true)
	s.buf = s.buf[:0]
	return out
}

// boundary decides whether a sentence ends at rune i. It returns the index
// just past the sentence (after closing quotes), -1 for "no", and
// decided=false when the text so far cannot tell.
func (s *Splitter) boundary(i int, final bool) (end int, decided bool) {
	b := s.buf
	r := b[i]
	if r == '\n' {
		// A blank line ends a paragraph, and with it a sentence.
		if i+1 < len(b) && b[i+1] == '\n' {
			return i + 2, true
		}
		if i+1 >= len(b) && !final {
			return 0, false
		}
		return -1, true
	}
	if !isTerminal(r) {
		return -1, true
	}
	// Take the whole run of punctuation and closing quotes.
	j := i + 1
	for j < len(b) && isTerminal(b[j]) {
		j++
	}
	for j < len(b) && isCloser(b[j]) {
		j++
	}
	if j >= len(b) {
		if final {
			return j, true
		}
		return 0, false
	}
	if !unicode.IsSpace(b[j]) {
		// "4.5", "e.g.x", "end.Next" glued: not a break we trust.
		if r == '.' && j == i+1 {
			return -1, true
		}
		if isOpener(b[j]) || unicode.IsUpper(b[j]) {
			return j, true
		}
		return -1, true
	}
	ellipsis := r == '…' || b[j-1] == '…' || (r == '.' && j-i >= 3)
	if !ellipsis && r == '.' && j == i+1 {
		if s.abbreviationBefore(i) || s.initialBefore(i) {
			return -1, true
		}
		return j, true
	}
	if !ellipsis {
		return j, true
	}
	// An ellipsis: the next word decides.
	k := j
	for k < len(b) && (unicode.IsSpace(b[k]) || isOpener(b[k])) {
		k++
	}
	if k >= len(b) {
		if final {
			return j, true
		}
		return 0, false
	}
	// "breathe in... and out" flows on; "in... Now" starts anew.
	if unicode.IsLower(b[k]) {
		return -1, true
	}
	return j, true
}

// abbreviationBefore reports whether the word ending at the full stop i is
// a known abbreviation.
func (s *Splitter) abbreviationBefore(i int) bool {
	return abbreviations[strings.ToLower(s.wordBefore(i))]
}

// initialBefore reports whether a single capital stands before the full
// stop i, as in "J. Smith".
func (s *Splitter) initialBefore(i int) bool {
	w := []rune(s.wordBefore(i))
	return len(w) == 1 && unicode.IsUpper(w[0])
}

func (s *Splitter) wordBefore(i int) string {
	k := i
	for k > 0 && !unicode.IsSpace(s.buf[k-1]) && !isOpener(s.buf[k-1]) {
		k--
	}
	return string(s.buf[k:i])
}

func isTerminal(r rune) bool {
	switch r {
	case '.', '!', '?', '…', '。', '！', '？':
		return true
	}
	return false
}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', '”', '’', ')', ']', '»':
		return true
	}
	return false
}

func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '“', '‘', '(', '[', '«':
		return true
	}
	return false
}

// markdownMarks are the marks clean strips (built once: a Replacer is
// costly to make).
var markdownMarks = strings.NewReplacer("**", "", "__", "", "#", "")

// clean collapses whitespace and strips markup a model may add.
func clean(s string) string {
	s = markdownMarks.Replace(s)
	// A model's escape sequences and control characters are never shown,
	// spoken or written to the transcript; nor is a key it echoes.
	return strings.Join(strings.Fields(human.Line(s)), " ")
}
