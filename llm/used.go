package llm

import (
	"strings"
	"unicode"

	"lull/engine"
	"lull/prompts"
)

// vocabulary finds, in what the model said, the body parts and images of
// prompts/llm/vocabulary.yaml, so each call can name what was already
// used and a long phase moves on instead of looping. It looks words up
// rather than running patterns: every call reads the whole session.
type vocabulary struct {
	names   []string       // every term: the body parts, then the images
	body    int            // names[:body] are body parts
	phrases map[string]int // a word or words, lower case, one space apart → its term
	longest int            // the most words in a phrase
}

func newVocabulary(p *prompts.LLM) vocabulary {
	v := vocabulary{body: len(p.Body), phrases: map[string]int{}}
	for i, t := range append(append([]prompts.Term(nil), p.Body...), p.Images...) {
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

// mentions are the terms a sentence mentions, by index into names; the
// longest phrase wins ("leaves on slow water" before "leaves").
func (v vocabulary) mentions(text string) []int {
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

// named are the body parts (or the images) among the mentions of several
// sentences, in the order they were first mentioned.
func (v vocabulary) named(mentions [][]int, body bool) []string {
	seen := make([]bool, len(v.names))
	var out []string
	for _, ms := range mentions {
		for _, i := range ms {
			if (i < v.body) == body && !seen[i] {
				seen[i] = true
				out = append(out, v.names[i])
			}
		}
	}
	return out
}

// used is what the session has already said that a call should not go
// back to: the body parts of this phase, and the images of the whole
// session.
func (v vocabulary) used(req engine.Request) []string {
	var phase, session [][]int
	for _, l := range heard(req, v) {
		session = append(session, l.about)
		if l.phase == req.Phase {
			phase = append(phase, l.about)
		}
	}
	return append(v.named(phase, true), v.named(session, false)...)
}
