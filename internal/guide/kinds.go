package guide

import (
	"strings"
	"unicode"

	"github.com/lull-dev/lull/internal/prompts"
)

// kindOf reads an intention as one of the material's kinds: the kind with
// the most of its words and phrases in it, the earlier kind on a tie. An
// intention that fits none gets the general kind; no intention, nil.
func kindOf(g *prompts.Guide, intention string) *prompts.Kind {
	words := intentionWords(intention)
	if len(words) == 0 {
		return nil
	}
	best, score := g.General, 0
	for _, k := range g.Kinds {
		n := 0
		for _, m := range k.Match {
			if matches(words, m) {
				n++
			}
		}
		if n > score {
			best, score = k, n
		}
	}
	return best
}

// intentionWords lower-cases an intention and splits it into words of
// letters, digits and apostrophes ("can't" stays whole; 'sleep' in quotes
// is sleep: only an apostrophe inside a word counts).
func intentionWords(s string) []string { return splitWords(s, false) }

// patternWords splits a match entry the same way, keeping a trailing * on
// the word it ends.
func patternWords(m string) []string { return splitWords(m, true) }

func splitWords(s string, star bool) []string {
	s = strings.NewReplacer("’", "'", "‘", "'").Replace(strings.ToLower(s))
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && !(star && r == '*')
	}) {
		if w = strings.Trim(w, "'"); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// matches reports whether the phrase m occurs in words as a run of whole
// words; a word of m ending in * matches any word it begins.
func matches(words []string, m string) bool {
	ps := patternWords(m)
	if len(ps) == 0 {
		return false
	}
outer:
	for i := 0; i+len(ps) <= len(words); i++ {
		for j, p := range ps {
			w := words[i+j]
			if prefix, ok := strings.CutSuffix(p, "*"); ok {
				if !strings.HasPrefix(w, prefix) {
					continue outer
				}
			} else if w != p {
				continue outer
			}
		}
		return true
	}
	return false
}

// ProposesSleep reports whether an intention speaks of sleep, bed or
// night: lull then proposes a sleep session.
func ProposesSleep(intention string) bool {
	g, err := prompts.BuiltinGuide()
	if err != nil {
		return false
	}
	k := kindOf(g, intention)
	return k != nil && k.Sleep
}

// KindOf names the kind the built-in guide reads an intention as:
// "general" when it fits none, "" when there is none.
func KindOf(intention string) string {
	g, err := prompts.BuiltinGuide()
	if err != nil {
		return ""
	}
	if k := kindOf(g, intention); k != nil {
		return k.Name
	}
	return ""
}
