package speech

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/lull-dev/lull/internal/lexis"

	"github.com/lull-dev/lull/internal/prompts"
)

// SessionLanguage is the language every session is spoken in: the voices
// lull drives are English ones. A sentence in another language is not
// read out in an English voice; it is dropped and counted.
const SessionLanguage = "en"

// languageProfile tells languages apart by their small words (prompts/
// speech/languages.txt): no model, no download, a few hundred words.
type languageProfile struct {
	words map[string][]int // word → the languages it belongs to
	names []string         // index → language code
	own   int              // SessionLanguage's index
}

func newLanguageProfile(lists []prompts.WordList) (languageProfile, error) {
	p := languageProfile{words: map[string][]int{}, own: -1}
	for i, l := range lists {
		p.names = append(p.names, l.Name)
		if l.Name == SessionLanguage {
			p.own = i
		}
		for _, line := range l.Entries {
			for _, w := range strings.Fields(line) {
				if w != strings.ToLower(w) {
					return p, fmt.Errorf("[%s] %q: write words in lower case", l.Name, w)
				}
				if langs := p.words[w]; len(langs) > 0 && langs[len(langs)-1] == i {
					continue // said twice in one list
				}
				p.words[w] = append(p.words[w], i)
			}
		}
	}
	if p.own < 0 {
		return p, fmt.Errorf("no list for the session's language [%s]", SessionLanguage)
	}
	for w, langs := range p.words {
		if len(langs) > 1 && slices.Contains(langs, p.own) {
			return p, fmt.Errorf("%q is in [%s] and in another language's list: a word shared with English would count against English sentences", w, SessionLanguage)
		}
	}
	return p, nil
}

// foreign reports whether a sentence is in a language other than the
// session's: more of another language's small words than English ones (at
// least two, or one in a sentence of three words or fewer with no English
// word), or mostly letters of another script.
func (p languageProfile) foreign(sentence string) bool {
	letters, latin := 0, 0
	for _, r := range sentence {
		if unicode.IsLetter(r) {
			letters++
			if unicode.Is(unicode.Latin, r) {
				latin++
			}
		}
	}
	if letters > 0 && (letters-latin)*3 >= letters {
		return true
	}
	hits := make([]int, len(p.names))
	words := 0
	for _, tok := range strings.FieldsFunc(strings.ToLower(sentence), func(r rune) bool {
		return !unicode.IsLetter(r) && !lexis.IsApostrophe(r)
	}) {
		tok = strings.Map(func(r rune) rune {
			if lexis.IsApostrophe(r) {
				return '\''
			}
			return r
		}, strings.Trim(tok, "'’‘ʼ"))
		if tok == "" {
			continue
		}
		words++
		langs, ok := p.words[tok]
		if !ok {
			// "l'air", "qu'il", "dell'acqua": the elided word, then the rest.
			if head, tail, cut := strings.Cut(tok, "'"); cut {
				langs = append(append([]int(nil), p.words[head+"'"]...), p.words[tail]...)
			}
		}
		for _, l := range langs {
			hits[l]++
		}
	}
	own := hits[p.own]
	for l, n := range hits {
		if l == p.own {
			continue
		}
		if n >= 2 && n > own || n >= 1 && own == 0 && words <= 3 {
			return true
		}
	}
	return false
}
