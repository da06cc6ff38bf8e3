package engine

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// The crisis signs are many large patterns, and Go's regexp, linear as it
// is, walks each over the whole intention. Most signs cannot match most
// intentions: "want to die" needs "want" or another word of {want}, the
// pills signs need a pill. So each pattern is read once for the words one
// of which must be in any text it matches, and the screen skips a pattern
// when none is there. This is derived from the pattern, not kept beside it,
// so it can never disagree with it: a skipped pattern could not have
// matched.

// cue is what a pattern needs to find in a text before it is worth running:
// one of words, or nothing when the pattern could match without any.
type cue struct{ words []string }

func (c cue) absentFrom(text string) bool {
	if c.words == nil {
		return false
	}
	for _, w := range c.words {
		if strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// rewrite is a pattern replaced wherever it occurs, run only when its cue
// is in the text.
type rewrite struct {
	re  *regexp.Regexp
	cue cue
	to  string
}

func newRewrite(re *regexp.Regexp, to string) rewrite { return rewrite{re, cueOf(re), to} }

func (r rewrite) apply(text string) string {
	if r.cue.absentFrom(text) {
		return text
	}
	return r.re.ReplaceAllString(text, r.to)
}

// cueOf reads re for its needed words.
func cueOf(re *regexp.Regexp) cue {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return cue{} // cannot happen: re compiled from the same text
	}
	return cue{needed(tree.Simplify())}
}

// needed returns words one of which every match of re contains, or nil when
// re can match without any word it can name.
func needed(re *syntax.Regexp) []string {
	if words, ok := exact(re); ok {
		if slices.Contains(words, "") {
			return nil
		}
		return words
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return needed(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min == 0 {
			return nil
		}
		return needed(re.Sub[0])
	case syntax.OpConcat:
		// Any one part's words will do; the most telling is the one whose
		// shortest word is longest ("myself" says more than "i"). Parts
		// that match only a few fixed texts are joined first, so that
		// "w(?:ant|ish)", as the parser writes "want|wish", reads as both
		// words.
		var best []string
		consider := func(w []string) {
			if w != nil && !slices.Contains(w, "") && (best == nil || shortest(w) > shortest(best)) {
				best = w
			}
		}
		run := []string{""}
		for _, sub := range re.Sub {
			if w, ok := exact(sub); ok {
				if joined, ok := join(run, w); ok {
					run = joined
					continue
				}
			}
			consider(run)
			run = []string{""}
			consider(needed(sub))
		}
		consider(run)
		return best
	case syntax.OpAlternate:
		// Every branch must name its words, and any of them will do.
		var all []string
		for _, sub := range re.Sub {
			w := needed(sub)
			if w == nil {
				return nil
			}
			all = append(all, w...)
		}
		return all
	}
	return nil
}

// maxExact bounds the fixed texts exact spells out for one part.
const maxExact = 64

// exact returns every text re can match, when they are few and fixed:
// "(?:a|b)c" is "ac" or "bc"; a zero-width test such as \b matches "".
func exact(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		w, ok := exact(re.Sub[0])
		if !ok || len(w) >= maxExact {
			return nil, false
		}
		return append(w, ""), true
	case syntax.OpConcat:
		all := []string{""}
		for _, sub := range re.Sub {
			w, ok := exact(sub)
			if !ok {
				return nil, false
			}
			if all, ok = join(all, w); !ok {
				return nil, false
			}
		}
		return all, true
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			w, ok := exact(sub)
			if !ok || len(all)+len(w) > maxExact {
				return nil, false
			}
			all = append(all, w...)
		}
		return all, true
	}
	return nil, false
}

// join is every a followed by every b, if there are not too many.
func join(a, b []string) ([]string, bool) {
	if len(a)*len(b) > maxExact {
		return nil, false
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out, true
}

func shortest(words []string) int {
	n := -1
	for _, w := range words {
		if n < 0 || len(w) < n {
			n = len(w)
		}
	}
	return n
}
