package crisis

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/lull-dev/lull/internal/lexis"
)

// normalizeIntention rewrites an intention the way the crisis screen reads
// it: lower case; no apostrophes, straight or curly ("don’t" → "dont");
// letters hidden behind symbols restored ("s*icide", "k1ll"); runs of a
// letter cut to one ("diiie"); chat spellings written out ("wanna", "rn");
// two-word forms joined ("do not" → "dont"); a number of ten or more read
// as "dozens" ("took 30 tylenol"); typos of the screen's words mended
// against its vocabulary ("wnat", "dei"); punctuation as clause breaks ",";
// single spaces.
func normalizeIntention(s string) string {
	return strings.Join(crisisLexicon().normalize(s), " ")
}

// normalize is the intention as normalizeIntention writes it, word by word.
func (lx *lexicon) normalize(s string) []string {
	s = strings.ToLower(s)
	s = unhide(s)
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case lexis.IsApostrophe(r) && i+2 < len(rs) && rs[i+1] == 'r' && rs[i+2] == 'e' && (i+3 == len(rs) || !unicode.IsLetter(rs[i+3])):
			// "we're" is "we are", not "were".
			b.WriteString(" a")
		case lexis.IsApostrophe(r):
			// dropped: "i'm" and "im" read the same
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case r == '-' || r == '_' || r == '/' || r == '‐' || r == '‑' || unicode.IsSpace(r):
			b.WriteByte(' ') // "self-harm" is "self harm"
		default:
			b.WriteString(" , ")
		}
	}
	var out []string
	for _, w := range strings.Fields(squeezeRuns(b.String())) {
		if w == "," && (len(out) == 0 || out[len(out)-1] == ",") {
			continue
		}
		if to, ok := spellings[w]; ok {
			out = append(out, strings.Fields(to)...)
			continue
		}
		if n, err := strconv.Atoi(w); err == nil && n >= 10 {
			w = "dozens"
		}
		if len(out) > 0 {
			if joined, ok := twoWords[out[len(out)-1]+" "+w]; ok {
				out[len(out)-1] = joined
				continue
			}
		}
		out = append(out, w)
	}
	for len(out) > 0 && out[len(out)-1] == "," {
		out = out[:len(out)-1]
	}
	mended := map[string]string{} // a long intention repeats its words
	for i, w := range out {
		m, ok := mended[w]
		if !ok {
			m = lx.mend(w)
			mended[w] = m
		}
		out[i] = m
	}
	return out
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

// spellings are chat spellings, written out. Only words that cannot be read
// another way are here ("dye" is not "die": people dye their hair). Typos
// are not listed: they are mended against the vocabulary (lexicon.mend).
var spellings = map[string]string{
	"wanna": "want to", "wana": "want to", "wnt": "want",
	"gonna": "going to", "gunna": "going to", "finna": "going to", "imma": "im going to", "ima": "im going to",
	"gotta": "got to", "kinda": "kind of", "abt": "about", "idk": "i dont know",
	"dnt": "dont", "cnt": "cant", "carnt": "cant",
	"kil": "kill", "ded": "dead", "lyf": "life", "nemore": "anymore",
	"u": "you", "ur": "your", "bc": "because", "cuz": "because", "coz": "because", "cos": "because",
	"rn": "right now", "tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "2moro": "tomorrow",
	"tonite": "tonight", "2nite": "tonight", "yrs": "years", "pls": "please", "plz": "please",
	"cannot": "cant", "noone": "nobody", "2": "to",
}

// twoWords are two words that mean what one does.
var twoWords = map[string]string{
	"do not": "dont", "does not": "doesnt", "did not": "didnt", "can not": "cant",
	"will not": "wont", "is not": "isnt", "are not": "arent", "was not": "wasnt", "would not": "wouldnt",
	"i am": "im", "i would": "id", "i had": "id", "i have": "ive", "i will": "ill",
	"my self": "myself", "any more": "anymore", "no one": "nobody", "want ta": "want to",
}
