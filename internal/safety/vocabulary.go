package safety

import (
	"slices"
	"strings"
	"sync"

	"github.com/lull-dev/lull/internal/prompts"
)

// vocabulary is guidance's narrow vocabulary (prompts/safety/vocabulary/),
// read for the positive check: relaxation guidance speaks of the body,
// the breath, nature, the room and the senses, with soft verbs and words
// of invitation. A sentence most of whose words lie outside it is about
// something else, however gently it is put: "cortisol", "antidepressants",
// "prompt", "Schultern".
type vocabulary struct {
	function map[string]bool
	// known is every word, its usual forms and their stems, sorted, one a
	// line: searched in place, it holds a fifth of what a map would.
	known string
}

// defaultVocabulary is the embedded vocabulary, read once: the lists,
// and every word of the built-in guide's material, which is guidance by
// making. The model holds it as it was trained with it.
var defaultVocabulary = sync.OnceValues(func() (*vocabulary, error) {
	v, err := prompts.SafetyVocabulary()
	if err != nil {
		return nil, err
	}
	m, err := defaultModel()
	if err != nil {
		return nil, err
	}
	voc := &vocabulary{function: map[string]bool{}, known: m.known}
	for _, w := range v.Function {
		voc.function[w] = true
	}
	return voc, nil
})

// guidanceVocabulary is the lists of v and the built-in material's words.
func guidanceVocabulary(v *prompts.Wordlist) (*vocabulary, error) {
	builtin, err := BuiltinExamples()
	if err != nil {
		return nil, err
	}
	var more []string
	for _, e := range builtin {
		for _, t := range tokenize(e.Text, nil) {
			if t.num < 0 && t.script == "" {
				more = append(more, t.text)
			}
		}
	}
	return newVocabulary(v, more), nil
}

func newVocabulary(v *prompts.Wordlist, more []string) *vocabulary {
	voc := &vocabulary{function: map[string]bool{}}
	known := map[string]bool{}
	for _, w := range v.Function {
		voc.function[w] = true
	}
	for _, w := range v.Content {
		known[w] = true
		known[stem(w)] = true
		for _, f := range wordForms(w) {
			known[stem(f)] = true
		}
	}
	for _, w := range more {
		if !voc.function[w] {
			known[w] = true
			known[stem(w)] = true
		}
	}
	words := make([]string, 0, len(known))
	for w := range known {
		words = append(words, w)
	}
	slices.Sort(words)
	voc.known = strings.Join(words, "\n")
	return voc
}

// content reports whether w says what a sentence is about: not a function
// word, and long enough to be a word of its own.
func (v *vocabulary) content(w string) bool {
	return len(w) > 2 && !v.function[w]
}

// familiar reports whether w, or a usual form of it, is guidance's.
func (v *vocabulary) familiar(w string) bool {
	return v.function[w] || inSorted(v.known, w) || inSorted(v.known, stem(w))
}

// outside is the positive check's own verdict, for what needs no weighing:
// a word in another script than the Latin, or several words of no English,
// are words the listener would not understand.
func outside(r *reading) Verdict {
	switch {
	case r.scripts > 0:
		return Verdict{Category: OtherLanguage, Rule: "another script"}
	case r.foreign >= 2:
		return Verdict{Category: OtherLanguage, Rule: "words of no English"}
	case r.offTopic >= 3 && 100*r.offTopic >= 34*r.content, r.offTopic >= 2 && 2*r.offTopic >= r.content:
		return Verdict{Category: Unfamiliar, Rule: "words guidance does not use"}
	}
	return Verdict{}
}
