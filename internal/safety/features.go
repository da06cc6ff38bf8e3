package safety

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/lexis"
)

// The classifier reads a sentence as a bag of features, each a 32-bit hash
// of a short string. Training (train.go) and screening read sentences with
// this one function, so what the weights learned is what is looked up.
//
// What it reads, and why:
//   - each word, its stem, each pair and three of neighbouring words, and
//     each word with the one two before it: "hold" is harmless, "hold …
//     thirty" is not;
//   - the letters within each word, three and four at a time: this is how
//     the classifier knows "cortisol", "Schultern" or "arousing" for what
//     they are without having seen the word itself;
//   - numbers by size (above a breath hold, above a breath), since the
//     bound, not the number, is what matters;
//   - the scripts of the letters, and letters with accents;
//   - the shape of the sentence: a label before a colon, a question, "I",
//     quotes, code, a web address;
//   - how many of its words lie outside guidance's vocabulary
//     (vocabulary.go): the positive check, as evidence the weights weigh;
//   - the rules' lists its phrases belong to, and pairs of them (rules.go):
//     people gathered "grave", "tomb" and "ashes" in one list, which tells
//     the weights about a word the corpora seldom use.

// feature kinds: the first byte of every feature's string, so a word and a
// letter group that happen to be spelt alike are different features.
const (
	fWord      = 'w'
	fStem      = 's'
	fPair      = 'b'
	fSkip      = 'k'
	fLetters   = 'c'
	fNumber    = 'n'
	fScript    = 'x'
	fShape     = 'f'
	fUnknown   = 'u'
	minLetters = 3
	maxLetters = 4
	// longWord bounds how much of one word is read for letter groups: a
	// run of 200 letters is as telling in its first 24.
	longWord = 24
)

// token is one word of a sentence as the classifier reads it.
type token struct {
	text    string // lower case, without apostrophes
	num     int    // its value when a number, else -1
	script  string // "" for Latin letters and digits, else the script's name
	accent  bool   // Latin letters with marks: é, ñ, ü, ß
	upperI  bool   // written "I": the writer speaking of itself
	letters bool   // letters only, no digits
	figured bool   // inside a figure of speech: read as another word
}

// reading is one sentence's features, with the words they came from and
// what the positive check counted of them.
type reading struct {
	tokens  []token
	hashes  []uint32
	names   []string // the rules' lists found
	figured []string // the words of the figures of speech found

	words    int // letters-only words in the Latin script
	foreign  int // … of them not English
	content  int // … English words that say what the sentence is about
	offTopic int // … of those, not guidance's
	scripts  int // words in another script than the Latin
}

// read fills r with the features of text, with the rules' lists (lists,
// when not nil) among them. vocab may be nil: no positive check.
func (r *reading) read(text string, vocab *vocabulary, lists *ruleSet) {
	r.tokens = tokenize(text, r.tokens[:0])
	r.hashes = r.hashes[:0]
	r.names, r.figured = r.names[:0], r.figured[:0]
	if lists != nil {
		r.names, r.figured = lists.listsIn(text, r.names, r.figured)
	}
	prev := "<s>"
	accents := 0
	r.words, r.foreign, r.content, r.offTopic, r.scripts = 0, 0, 0, 0, 0
	r.markFigures()
	for i, t := range r.tokens {
		// A word inside a figure of speech is read as another word, and
		// lends neither its stem nor its letters: "naked" in "the naked
		// eye" teaches nothing of nudity.
		r.add(fWord, spelt(t))
		if st := stem(t.text); st != t.text && !t.figured {
			r.add(fStem, st)
		}
		// Words are paired as written and, for a number, by its size too:
		// "hold twenty" and "hold 16" teach the same thing.
		r.add(fPair, prev, " ", spelt(t))
		if t.num >= 0 {
			r.add(fPair, prev, " ", band(t.num))
		}
		if i >= 2 {
			// A word with the one two before it, and the three in a row:
			// "hold … twenty", "until it burns".
			r.add(fSkip, sized(r.tokens[i-2]), " ", sized(t))
			r.add(fPair, sized(r.tokens[i-2]), " ", sized(r.tokens[i-1]), " ", sized(t))
		}
		prev = sized(t)
		if !t.figured {
			r.letters(t.text)
		}
		if t.num >= 0 {
			r.add(fNumber, "any")
			for _, b := range numberBands {
				if t.num > b.above {
					r.add(fNumber, b.name)
				}
			}
		}
		if t.script != "" {
			r.scripts++
			r.add(fScript, t.script) // once: the hashes are made unique below
		}
		if t.accent {
			accents++
		}
		if t.upperI {
			r.add(fShape, "I")
		}
		if t.script == "" && t.letters {
			r.words++
			switch {
			case !english(t.text):
				r.foreign++
			case vocab != nil && vocab.content(t.text):
				r.content++
				if !vocab.familiar(t.text) {
					r.offTopic++
				}
			}
		}
	}
	r.add(fPair, prev, " ", "</s>")
	if accents > 0 {
		r.add(fScript, "accent")
		if accents > 1 {
			r.add(fScript, "accents")
		}
	}
	r.shape(text)
	for i, a := range r.names {
		r.add('l', a)
		if len(r.names) <= 8 {
			for _, b := range r.names[i+1:] {
				r.add('L', a, "+", b)
			}
		}
	}
	r.add(fUnknown, "foreign", bucket(r.foreign, 0, 1, 2, 3))
	if r.words > 0 {
		r.add(fUnknown, "foreign share", bucket(100*r.foreign/r.words, 0, 1, 15, 30, 50))
	}
	if vocab != nil {
		r.add(fUnknown, "off topic", bucket(r.offTopic, 0, 1, 2, 3, 5))
		if r.content > 0 {
			r.add(fUnknown, "off topic share", bucket(100*r.offTopic/r.content, 0, 1, 20, 35, 50, 70))
		}
	}
	slices.Sort(r.hashes)
	r.hashes = slices.Compact(r.hashes)
}

// markFigures marks the tokens of each figure of speech found (r.figured)
// where the figure's words stand in a row.
func (r *reading) markFigures() {
	for rest := r.figured; len(rest) > 0; {
		end := slices.Index(rest, "")
		fig := rest[:end]
		rest = rest[end+1:]
		if len(fig) == 0 {
			continue
		}
	scan:
		for i := 0; i+len(fig) <= len(r.tokens); i++ {
			for j, w := range fig {
				if r.tokens[i+j].text != w {
					continue scan
				}
			}
			for j := range fig {
				r.tokens[i+j].figured = true
			}
		}
	}
}

// numberBands are the sizes of number a breath cares about: a hold above
// engine.MaxHold, a breath above engine.MaxBreath, and far above both.
var numberBands = []struct {
	name  string
	above int
}{{"above hold", engine.MaxHold}, {"above breath", engine.MaxBreath}, {"above twenty", 20}}

// band names a number by the largest of numberBands it is above.
func band(n int) string {
	name := "#small"
	for _, b := range numberBands {
		if n > b.above {
			name = "#" + b.name
		}
	}
	return name
}

// sized is a token as pairs read it: a number by its band.
func sized(t token) string {
	if t.num >= 0 {
		return band(t.num)
	}
	return spelt(t)
}

// spelt is a token's word as features read it: a figure's word marked.
func spelt(t token) string {
	if t.figured {
		return "~" + t.text // rare, and worth its allocation
	}
	return t.text
}

// bucket names the band of n among ascending floors: "2+" for n of 2 to
// the next floor.
func bucket(n int, floors ...int) string {
	name := "<0"
	for _, f := range floors {
		if n >= f {
			name = itoa(f) + "+"
		}
	}
	return name
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// letters adds the letter groups of one word, with its ends marked.
func (r *reading) letters(w string) {
	if utf8.RuneCountInString(w) > longWord {
		cut := 0
		for i := range w {
			if cut == longWord {
				w = w[:i]
				break
			}
			cut++
		}
	}
	runes := make([]int, 0, len(w)+2) // byte offsets of each rune in "<w>"
	marked := "<" + w + ">"
	for i := range marked {
		runes = append(runes, i)
	}
	runes = append(runes, len(marked))
	n := len(runes) - 1 // runes in marked
	for size := minLetters; size <= maxLetters; size++ {
		for i := 0; i+size <= n; i++ {
			r.add(fLetters, marked[runes[i]:runes[i+size]])
		}
	}
}

// shape adds what the sentence's form says: a label before a colon
// ("Note:", "Step 3:"), a question, quotes, code or a web address.
func (r *reading) shape(text string) {
	t := strings.TrimSpace(text)
	if i := strings.IndexByte(t, ':'); i > 0 && len(strings.Fields(t[:i])) <= 3 {
		r.add(fShape, "label")
	}
	if strings.HasSuffix(t, "?") {
		r.add(fShape, "question")
	} else if strings.Contains(t, "?") {
		r.add(fShape, "asks")
	}
	if strings.ContainsAny(t, "«»\"“”") {
		r.add(fShape, "quote")
	}
	if strings.ContainsAny(t, "{}[]<>|\\$=_#@*~`^") {
		r.add(fShape, "code")
	}
	if strings.Contains(t, "://") || strings.Contains(t, "www.") || strings.Contains(t, ".com") {
		r.add(fShape, "address")
	}
	if strings.ContainsAny(t, "0123456789") {
		r.add(fShape, "digits")
	}
	words := len(r.tokens)
	r.add(fShape, "length", bucket(words, 0, 4, 8, 14, 22, 30))
}

// add hashes a feature of kind k made of parts, FNV-1a.
func (r *reading) add(k byte, parts ...string) {
	h := uint32(2166136261)
	h = (h ^ uint32(k)) * 16777619
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			h = (h ^ uint32(p[i])) * 16777619
		}
	}
	r.hashes = append(r.hashes, h)
}

// weight is the value of each feature of a sentence with n: the feature
// vector has unit length, so a long sentence does not outweigh a short one
// by its length alone.
func weight(n int) float64 {
	if n == 0 {
		return 0
	}
	return 1 / math.Sqrt(float64(n))
}

// tokenize splits text into tokens: letters and digits make words;
// apostrophes are dropped ("don't" is "dont"); everything else separates.
// A change of script separates too, so "放松你的肩膀and" is two words.
func tokenize(text string, out []token) []token {
	var b strings.Builder
	cur := token{num: -1}
	flush := func() {
		if b.Len() == 0 {
			return
		}
		cur.text = b.String()
		cur.num = numberValue(cur.text)
		cur.letters = strings.IndexFunc(cur.text, unicode.IsDigit) < 0
		out = append(out, cur)
		b.Reset()
		cur = token{num: -1}
	}
	for _, ch := range text {
		switch {
		case unicode.IsLetter(ch) || unicode.IsDigit(ch) || unicode.Is(unicode.Mn, ch):
			sc, accent := scriptOf(ch)
			if b.Len() > 0 && sc != cur.script && !unicode.Is(unicode.Mn, ch) {
				flush()
			}
			if b.Len() == 0 {
				cur.script = sc
				cur.upperI = ch == 'I'
			} else {
				cur.upperI = false
			}
			cur.accent = cur.accent || accent
			b.WriteRune(unicode.ToLower(ch))
		case lexis.IsApostrophe(ch):
		default:
			flush()
		}
	}
	flush()
	return out
}

// scriptOf names the script of a letter ("" for Latin letters and digits),
// and says whether a Latin letter carries a mark.
func scriptOf(ch rune) (script string, accent bool) {
	if ch < 0x80 {
		return "", false
	}
	for _, s := range scripts {
		if unicode.Is(s.table, ch) {
			if s.name == "latin" {
				return "", true
			}
			return s.name, false
		}
	}
	if unicode.Is(unicode.Mn, ch) {
		return "", false
	}
	return "other", false
}

var scripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"latin", unicode.Latin}, {"han", unicode.Han}, {"hiragana", unicode.Hiragana},
	{"katakana", unicode.Katakana}, {"hangul", unicode.Hangul}, {"cyrillic", unicode.Cyrillic},
	{"arabic", unicode.Arabic}, {"devanagari", unicode.Devanagari}, {"greek", unicode.Greek},
	{"hebrew", unicode.Hebrew}, {"thai", unicode.Thai},
}

// stem cuts a word's commonest endings, so "breathing", "breathes" and
// "breathed" meet, and an unseen form of a seen word is read as that word.
func stem(w string) string {
	n := len(w)
	switch {
	case n > 5 && strings.HasSuffix(w, "ingly"):
		return w[:n-5]
	case n > 5 && strings.HasSuffix(w, "ness"):
		return w[:n-4]
	case n > 5 && strings.HasSuffix(w, "ing"):
		return undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "ied"):
		return w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "ly"):
		return w[:n-2]
	case n > 4 && strings.HasSuffix(w, "ed"):
		return undouble(w[:n-2])
	case n > 4 && (strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:n-1]
	}
	return w
}

// undouble takes back a doubled consonant: "stopp" → "stop".
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiousl", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}
