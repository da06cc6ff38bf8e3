package guide

import (
	"slices"
	"strings"
	"unicode"
)

// A listener hears a stock phrase long before a sentence said again: a
// reader of one week named "that is what minds do" and "whatever is under
// you" although no sentence had repeated. A phrase is four words in a
// row, two of them or more words that carry meaning; the counts a taught
// breath states ("out for six") are its rhythm, not a phrase. The guide
// keeps any phrase to phraseDays sessions of any phraseWindow in a row.
const (
	phraseWindow = 7
	phraseDays   = 2
)

// lightWords carry little meaning alone: a phrase needs two words outside
// them.
var lightWords = strings.Fields("a an and are as at be but by can do for from here if in into is it its just let may more now of on or so that the them then there this to up with you your")

// countWords are the counts a taught breath states.
var countWords = strings.Fields("one two three four five six seven eight nine ten")

// phrasesOf are the phrases of a sentence, each once.
func phrasesOf(s string) []string {
	w := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	var out []string
	for i := 0; i+4 <= len(w); i++ {
		g := w[i : i+4]
		heavy := 0
		for _, x := range g {
			if !slices.Contains(lightWords, x) {
				heavy++
			}
		}
		p := strings.Join(g, " ")
		if heavy >= 2 && !slices.ContainsFunc(g, func(x string) bool { return slices.Contains(countWords, x) }) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// phraseCounts is in how many of the last sessions each phrase was heard.
type phraseCounts map[string]int

// recentPhrases counts the phrases of the sessions a phrase said today
// would share a window with.
func (m Memory) recentPhrases() phraseCounts {
	c := phraseCounts{}
	for _, said := range m.Heard[:min(len(m.Heard), phraseWindow-1)] {
		for p := range sessionPhrases(said) {
			c[p]++
		}
	}
	return c
}

// sessionPhrases are the phrases a session said, each once.
func sessionPhrases(said []string) map[string]bool {
	out := map[string]bool{}
	for _, s := range said {
		for _, p := range phrasesOf(s) {
			out[p] = true
		}
	}
	return out
}

// stale reports whether saying s would make one of its phrases a stock
// phrase: heard in more than phraseDays sessions of phraseWindow.
func (c phraseCounts) stale(s string) bool {
	return slices.ContainsFunc(phrasesOf(s), func(p string) bool { return c[p] >= phraseDays })
}
