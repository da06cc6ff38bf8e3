package engine

import (
	"strings"
	"unicode"
)

// A model stutters: it says a sentence again, word for word or nearly, in
// the same reply or ten minutes later, and the listener hears a fault, not
// guidance. A remote guide's sentence that repeats one already said in the
// session, or one on its way, is not said again. The built-in guide is
// composed never to repeat itself, and repeats its breath cues on purpose.

// repeatWords is the fewest words a sentence needs to count as a repeat:
// "Breathe in." may well come twice.
const repeatWords = 4

// nearRepeat is the share of their telling words (longer than three
// letters, and numbers) two sentences must share to be heard as the same:
// "Let your shoulders soften." and "Let your shoulders soften now." are;
// "moment seven" and "moment eight" are not.
const nearRepeat = 0.95

// repeats reports whether text says again what the session has said, or
// what is among pending (on its way to be said).
func (e *Engine) repeats(text string, pending []string) bool {
	words := sayingWords(text)
	if len(words) < repeatWords {
		return false
	}
	same := func(other string) bool { return nearlySame(words, sayingWords(other)) }
	for _, p := range pending {
		if same(p) {
			return true
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, h := range e.st.History {
		if h.Role == RoleGuide && same(h.Text) {
			return true
		}
	}
	return false
}

// sayingWords are a sentence's words as heard: lower case, no marks.
func sayingWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

// nearlySame reports whether a and b share at least nearRepeat of the
// telling words of the longer, counting each word as often as it comes.
func nearlySame(a, b []string) bool {
	if len(b) < repeatWords {
		return false
	}
	a, b = telling(a), telling(b)
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	longer := max(len(a), len(b))
	if float64(min(len(a), len(b))) < nearRepeat*float64(longer) {
		return false
	}
	count := map[string]int{}
	for _, w := range a {
		count[w]++
	}
	shared := 0
	for _, w := range b {
		if count[w] > 0 {
			count[w]--
			shared++
		}
	}
	return float64(shared) >= nearRepeat*float64(longer)
}

// telling are the words of a sentence that say something: longer than
// three letters, or a number.
func telling(words []string) []string {
	var out []string
	for _, w := range words {
		if len([]rune(w)) > 3 || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			out = append(out, w)
		}
	}
	return out
}
