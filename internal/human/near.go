package human

import (
	"slices"
	"strings"
)

// MaxTypo is the most edits apart a mistyped word and the word meant may
// be: two letters wrong, missing, added, or swapped with their neighbour.
const MaxTypo = 2

// Near is the known words a mistyped one most likely meant, nearest
// first: those at most MaxTypo edits away (fewer edits than the word has
// letters, so "x" suggests nothing), those it begins (two letters or
// more), and those it begins with one typo (four letters or more:
// "espek" for "espeak-ng"). Case is ignored. It is lull's one rule for "did you mean": for
// commands, subcommands, flags and names alike.
func Near(word string, known []string) []string {
	type scored struct {
		name string
		d    int
	}
	w := strings.ToLower(word)
	var near []scored
	for _, k := range known {
		lk := strings.ToLower(k)
		if lk == w || k == "" {
			continue
		}
		d := typoDistance(w, lk)
		prefix := len(w) >= 2 && strings.HasPrefix(lk, w) || len([]rune(w)) >= 4 && typoPrefix(w, lk)
		if (d <= MaxTypo && d < len([]rune(w))) || prefix {
			near = append(near, scored{k, d})
		}
	}
	slices.SortStableFunc(near, func(a, b scored) int { return a.d - b.d })
	names := make([]string, 0, len(near))
	for _, s := range near {
		if !slices.Contains(names, s.name) {
			names = append(names, s.name)
		}
	}
	return names
}

// DidYouMean is "; did you mean "a"?" or "; did you mean "a" or "b"?"
// for the nearest few of Near, or "" when nothing is near.
func DidYouMean(word string, known []string) string {
	near := Near(word, known)
	if len(near) == 0 {
		return ""
	}
	near = near[:min(len(near), 3)]
	quoted := make([]string, len(near))
	for i, n := range near {
		quoted[i] = `"` + n + `"`
	}
	return "; did you mean " + OrList(quoted) + "?"
}

// OrList is "a", "a or b", "a, b or c".
func OrList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// typoPrefix reports whether word is, but for one edit, the beginning of
// known.
func typoPrefix(word, known string) bool {
	rw, rk := []rune(word), []rune(known)
	for n := len(rw) - 1; n <= len(rw)+1; n++ {
		if n <= len(rk) && typoDistance(word, string(rk[:n])) <= 1 {
			return true
		}
	}
	return false
}

// typoDistance is the optimal string alignment distance between a and b
// (Damerau–Levenshtein where no part is edited twice): the insertions,
// deletions, substitutions and swaps of neighbours that make a into b,
// over runes.
func typoDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows: the one before last (for swaps), the last and this one.
	back, prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], back[j-2]+1)
			}
		}
		back, prev, cur = prev, cur, back
	}
	return prev[len(rb)]
}
