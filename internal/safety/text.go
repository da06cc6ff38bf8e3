package safety

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/lull-dev/lull/internal/lexis"
)

// word is one word of a sentence as the safety screen reads it, or a break
// between two parts of it.
type word struct {
	text string // lower case, without apostrophes: "dont", "lovers"
	keys []key  // what the lexicon may read it as: "holding" is "hold"
	gap  bool   // a [GAP] word, which a phrase may step over
	num  int    // its value when it is a number, else -1
	brk  bool   // a break: punctuation inside the sentence, or "but"
	part int    // which part of the sentence it is in
}

// scanWords reads text as the screen reads words: letters and digits, in
// lower case; apostrophes dropped ("don't" is "dont", "lover's" is
// "lovers"); any other rune ends a word. word is called with each word,
// between with each rune that is not part of one, after the word it ends.
func scanWords(text string, word func(string), between func(rune)) {
	var b strings.Builder
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case lexis.IsApostrophe(r):
			// dropped: "don't" and "dont" read the same
		default:
			if b.Len() > 0 {
				word(b.String())
				b.Reset()
			}
			between(r)
		}
	}
	if b.Len() > 0 {
		word(b.String())
	}
}

// readSentence splits a sentence into words and breaks: lower case;
// apostrophes dropped ("don't" is "dont", "lover's" is "lovers"); a hyphen
// or slash splits words ("light-headed" is "light headed"); other
// punctuation, and "but", break the sentence into parts, so that a
// negation in one part does not reach into the next.
func (lx *safetyLexicon) readSentence(text string, out []word) []word {
	out = out[:0]
	part := 0
	brk := func() {
		if len(out) > 0 && !out[len(out)-1].brk {
			out = append(out, word{brk: true, num: -1, part: part})
			part++
		}
	}
	add := func(w string) {
		if w == "but" {
			brk()
			return
		}
		out = append(out, word{text: w, keys: lx.formsOf(w), gap: lx.gap[w], num: numberValue(w), part: part})
	}
	scanWords(text, add, func(r rune) {
		if r != '-' && r != '/' && r != '‐' && r != '‑' && !unicode.IsSpace(r) {
			brk()
		}
	})
	if n := len(out); n > 0 && out[n-1].brk {
		out = out[:n-1]
	}
	return out
}

var numberWords = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
	"fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
	"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
	"hundred": 100, "dozen": 12,
}

// numberValue is a word's value as a number, or -1.
func numberValue(w string) int {
	if n, ok := numberWords[w]; ok {
		return n
	}
	if w != "" && w[0] >= '0' && w[0] <= '9' {
		if n, err := strconv.Atoi(w); err == nil {
			return n
		}
	}
	return -1
}

// readNumber reads a number that starts at words[i]: "thirty", "30",
// "twenty five", "a hundred". It returns its value and where it ends, or
// ok false.
func readNumber(words []word, i int) (n, end int, ok bool) {
	if i >= len(words) || words[i].brk {
		return 0, i, false
	}
	if (words[i].text == "a" || words[i].text == "one") && i+1 < len(words) && words[i+1].text == "hundred" {
		return 100, i + 2, true
	}
	n = words[i].num
	if n < 0 {
		return 0, i, false
	}
	if n >= 20 && n < 100 && n%10 == 0 && i+1 < len(words) {
		if u := words[i+1].num; u >= 1 && u <= 9 {
			return n + u, i + 2, true
		}
	}
	return n, i + 1, true
}
