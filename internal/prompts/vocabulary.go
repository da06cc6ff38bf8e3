package prompts

import (
	"strings"
	"unicode"
)

// Vocabulary finds in a sentence the body parts and images of
// llm/vocabulary.yaml: the LLM guide tells the model what a session has
// already said, and the built-in guide keeps a breathing phase from
// naming the same part twice. It looks words up rather than running
// patterns: a call reads the whole session.
type Vocabulary struct {
	names   []string       // every term: the body parts, then the images
	body    int            // names[:body] are body parts
	phrases map[string]int // a word or words, lower case, one space apart → its term
	longest int            // the most words in a phrase
}

// Vocabulary is the material's body parts and images, ready to look up.
func (l *LLM) Vocabulary() *Vocabulary {
	v := &Vocabulary{body: len(l.Body), phrases: map[string]int{}}
	for i, t := range append(append([]Term(nil), l.Body...), l.Images...) {
		v.names = append(v.names, t.Name)
		for _, w := range t.Words {
			ws := words(w)
			v.phrases[strings.Join(ws, " ")] = i
			v.longest = max(v.longest, len(ws))
		}
	}
	return v
}

// words are a text's words in lower case: letters and digits, with the
// hyphens and apostrophes inside them ("lamp-lit", "body's").
func words(text string) []string {
	var out []string
	for w := range strings.FieldsFuncSeq(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\'' && r != '’'
	}) {
		if w = strings.Trim(w, "-'’"); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// Mentions are the terms a sentence mentions, by index (see Named and
// IsBody); the longest phrase wins ("leaves on slow water" before
// "leaves").
func (v *Vocabulary) Mentions(text string) []int {
	ws := words(text)
	var out []int
	for i := 0; i < len(ws); {
		n := 1
		for k := min(v.longest, len(ws)-i); k >= 1; k-- {
			if t, ok := v.phrases[strings.Join(ws[i:i+k], " ")]; ok {
				out = append(out, t)
				n = k
				break
			}
		}
		i += n
	}
	return out
}

// IsBody reports whether a mention is of a body part.
func (v *Vocabulary) IsBody(term int) bool { return term < v.body }

// Named are the body parts (or the images) among the mentions of several
// sentences, in the order they were first mentioned.
func (v *Vocabulary) Named(mentions [][]int, body bool) []string {
	seen := make([]bool, len(v.names))
	var out []string
	for _, ms := range mentions {
		for _, i := range ms {
			if v.IsBody(i) == body && !seen[i] {
				seen[i] = true
				out = append(out, v.names[i])
			}
		}
	}
	return out
}
