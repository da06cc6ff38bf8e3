package engine

import (
	"regexp"
	"strings"
	"unicode"
)

// normalizeIntention rewrites an intention the way the crisis signs read it:
// lower case; no apostrophes, straight or curly ("don’t" → "dont"); letters
// hidden behind symbols restored ("s*icide", "k1ll"); runs of a letter cut
// to one ("diiie"); common typos and chat spellings mended ("wanna",
// "kil", "wnat"); punctuation as clause breaks " , "; single spaces.
func normalizeIntention(s string) string {
	s = strings.ToLower(s)
	s = unhide(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case isApostrophe(r):
			// dropped: "i'm" and "im" read the same
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case r == '-' || r == '_' || r == '/' || r == '‐' || r == '‑' || unicode.IsSpace(r):
			b.WriteByte(' ') // "self-harm" is "self harm"
		default:
			b.WriteString(" , ")
		}
	}
	words := strings.Fields(squeezeRuns(b.String()))
	out := make([]string, 0, len(words))
	for _, w := range words {
		if w == "," && (len(out) == 0 || out[len(out)-1] == ",") {
			continue
		}
		out = append(out, mendWord(w))
	}
	for len(out) > 0 && out[len(out)-1] == "," {
		out = out[:len(out)-1]
	}
	text := strings.Join(out, " ")
	for _, p := range phrasings {
		text = p.apply(text)
	}
	return text
}

func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', 'ʼ', '`', '´', '′':
		return true
	}
	return false
}

// hidden are symbols people put in place of a letter, inside a word, to get
// past filters: "su1cide", "k!ll", "s*icide" (the star hides a letter that
// mendWord's fuzzy match then restores).
var hidden = map[rune]string{
	'*': "", '1': "i", '!': "i", '|': "i", '3': "e", '0': "o", '4': "a", '@': "a", '5': "s", '$': "s", '7': "t",
}

// unhide restores a hidden letter only between two letters, so "4am" and
// "1 hour" keep their numbers.
func unhide(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if to, ok := hidden[r]; ok && i > 0 && i < len(rs)-1 && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			b.WriteString(to)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// squeezeRuns cuts three or more of the same letter to one: "diiie",
// "dieeee". Two stay two, so "kill" and "sleep" are untouched.
func squeezeRuns(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i := 0; i < len(rs); {
		j := i
		for j < len(rs) && rs[j] == rs[i] {
			j++
		}
		if j-i >= 3 && unicode.IsLetter(rs[i]) {
			b.WriteRune(rs[i])
		} else {
			b.WriteString(string(rs[i:j]))
		}
		i = j
	}
	return b.String()
}

// spellings mends one word: chat spellings and typos of the words the signs
// rely on. Only words that cannot be read another way are here ("dye" is
// not "die": people dye their hair).
var spellings = map[string]string{
	"wanna": "want to", "wana": "want to", "wnt": "want",
	"gonna": "going to", "gunna": "going to", "finna": "going to", "imma": "im going to", "ima": "im going to",
	"gotta": "got to", "kinda": "kind of",
	"dnt": "dont", "cnt": "cant", "carnt": "cant",
	"kil": "kill", "kll": "kill", "klll": "kill", "killl": "kill",
	"ded": "dead", "deaad": "dead",
	"beter": "better", "bettr": "better",
	"mysef": "myself", "myslf": "myself", "meself": "myself", "mself": "myself",
	"lyf": "life", "lif": "life", "lfe": "life",
	"anymor": "anymore", "nemore": "anymore", "anymoe": "anymore",
	"u": "you", "ur": "your", "bc": "because", "cuz": "because", "coz": "because", "cos": "because",
	"rn": "right now", "tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "2moro": "tomorrow",
	"tonite": "tonight", "2nite": "tonight",
	"suicde": "suicide", "sucide": "suicide", "suiside": "suicide", "suicidle": "suicidal",
}

// misspelt are the words a typo must still reach. A word one swap of
// neighbouring letters away from one of them is read as it ("wnat", "lfie").
// Those marked true are also reached by one letter added, dropped or changed
// ("sucidal"); the others have a common word that close ("hopeless" and
// "homeless", "overdose" and "overdone", "living" and "giving").
var misspelt = []struct {
	word    string
	anyEdit bool
}{
	{"want", false}, {"life", false}, {"live", false}, {"living", false}, {"alive", false}, {"kill", false},
	{"dead", false}, {"wake", false}, {"exist", false}, {"better", false}, {"hopeless", false}, {"overdose", false},
	{"anymore", true}, {"myself", true}, {"suicide", true}, {"suicidal", true}, {"unalive", true},
}

func mendWord(w string) string {
	if to, ok := spellings[w]; ok {
		return to
	}
	for _, m := range misspelt {
		if w == m.word {
			return w
		}
	}
	for _, m := range misspelt {
		if swapped(w, m.word) || (m.anyEdit && editedOnce(w, m.word)) {
			return m.word
		}
	}
	return w
}

// swapped reports whether a and b differ by one swap of neighbours.
func swapped(a, b string) bool {
	if len(a) != len(b) || a == b {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// editedOnce reports whether a is b with one letter added, dropped or changed.
func editedOnce(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	switch len(a) - len(b) {
	case 0:
		diff := 0
		for i := range a {
			if a[i] != b[i] {
				diff++
			}
		}
		return diff == 1
	case 1:
		i := 0
		for i < len(b) && a[i] == b[i] {
			i++
		}
		return a[i+1:] == b[i:]
	}
	return false
}

// phrasings make the many ways of writing a phrase one.
var phrasings = []rewrite{
	newRewrite(regexp.MustCompile(`\bdo not\b`), "dont"),
	newRewrite(regexp.MustCompile(`\bdoes not\b`), "doesnt"),
	newRewrite(regexp.MustCompile(`\bdid not\b`), "didnt"),
	newRewrite(regexp.MustCompile(`\b(?:can not|cannot)\b`), "cant"),
	newRewrite(regexp.MustCompile(`\bwill not\b`), "wont"),
	newRewrite(regexp.MustCompile(`\bis not\b`), "isnt"),
	newRewrite(regexp.MustCompile(`\bi am\b`), "im"),
	newRewrite(regexp.MustCompile(`\bi (?:would|had)\b`), "id"),
	newRewrite(regexp.MustCompile(`\bi have\b`), "ive"),
	newRewrite(regexp.MustCompile(`\bmy self\b`), "myself"),
	newRewrite(regexp.MustCompile(`\bany more\b`), "anymore"),
	newRewrite(regexp.MustCompile(`\bno one\b`), "nobody"),
	newRewrite(regexp.MustCompile(`\bwant ta\b`), "want to"),
}
