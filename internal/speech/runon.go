package speech

import (
	"strings"
	"unicode"
)

// MaxSpokenWords bounds a spoken sentence. A listener with closed eyes
// loses the thread of a longer one (it lasts about twelve seconds at
// lull's pace); the built-in material's longest lines have eighteen words.
// A longer sentence is split at its natural points.
const MaxSpokenWords = 25

// minPiece is the fewest words a piece of a split sentence keeps.
const minPiece = 4

// splitRunOn splits a sentence of more than MaxSpokenWords words at
// natural points until every piece fits. The pieces are not yet proper
// sentences: properSentence gives them their capital and full stop.
func splitRunOn(sentence string) []string {
	words := strings.Fields(sentence)
	if len(words) <= MaxSpokenWords {
		return []string{sentence}
	}
	c := naturalCut(words, minPiece, len(words)-minPiece, len(words)/2)
	head := strings.Join(words[:c], " ")
	tail := words[c:]
	// "…, and then rest": the piece starts at "then"; "— the light": at "the".
	for len(tail) > minPiece && (isDash(tail[0]) || strings.EqualFold(tail[0], "and")) {
		tail = tail[1:]
	}
	return append(splitRunOn(head), splitRunOn(strings.Join(tail, " "))...)
}

// naturalCut picks where to cut words — before words[c], for c in
// [lo, hi] — at the most natural point, the one nearest target among
// equals: a semicolon or colon, a dash, ", and" or ", then", another
// joining word after a comma, a comma, a joining word, any space but one
// after a small word ("the", "your").
func naturalCut(words []string, lo, hi, target int) int {
	lo, hi = max(lo, 1), min(hi, len(words)-1)
	if hi < lo {
		return max(1, min(len(words)-1, target))
	}
	best, bestRank, bestDist := lo, 1<<30, 1<<30
	for c := lo; c <= hi; c++ {
		r := cutRank(words[c-1], words[c])
		d := c - target
		if d < 0 {
			d = -d
		}
		if r < bestRank || r == bestRank && d < bestDist {
			best, bestRank, bestDist = c, r, d
		}
	}
	return best
}

// cutRank says how natural a cut between prev and next is; lower is
// better.
func cutRank(prev, next string) int {
	word := strings.ToLower(strings.TrimFunc(next, func(r rune) bool { return !unicode.IsLetter(r) }))
	prevWord := strings.ToLower(strings.TrimFunc(prev, func(r rune) bool { return !unicode.IsLetter(r) }))
	last, _ := lastRune(prev)
	comma := last == ','
	switch {
	case last == ';' || last == ':':
		return 0
	case isDash(next) || last == '—' || last == '–':
		return 1
	case comma && (word == "and" || word == "then"):
		return 2
	case comma && joining[word]:
		return 3
	case comma || last == '…' || strings.HasSuffix(prev, "..."):
		return 4
	case small[prevWord]:
		return 7 // "…your hands and. As you rest…": a piece never ends on a small word
	case word == "and" || word == "then" || word == "as" || word == "while":
		return 5
	}
	return 6
}

// joining words start a clause that can stand as a sentence of its own.
var joining = map[string]bool{
	"as": true, "while": true, "so": true, "until": true, "before": true, "after": true,
	"but": true, "or": true, "letting": true, "allowing": true, "feeling": true,
	"noticing": true, "knowing": true, "where": true, "when": true, "because": true,
	"like": true, "with": true,
}

// small words do not end a piece: "…into the." is no sentence.
var small = map[string]bool{
	"the": true, "a": true, "an": true, "your": true, "of": true, "to": true, "in": true,
	"on": true, "into": true, "and": true, "with": true, "at": true, "for": true,
	"from": true, "by": true, "is": true, "are": true, "this": true, "that": true,
	"its": true, "their": true, "our": true, "my": true, "as": true, "so": true,
	"or": true, "but": true, "very": true, "each": true, "every": true, "than": true,
}

func isDash(w string) bool { return w == "—" || w == "–" || w == "-" || w == "--" || w == "―" }

func lastRune(s string) (rune, bool) {
	r := []rune(s)
	if len(r) == 0 {
		return 0, false
	}
	return r[len(r)-1], true
}

// wordSpans are the rune offsets of the words of b.
func wordSpans(b []rune) [][2]int {
	var spans [][2]int
	start := -1
	for i, r := range b {
		if unicode.IsSpace(r) {
			if start >= 0 {
				spans = append(spans, [2]int{start, i})
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		spans = append(spans, [2]int{start, len(b)})
	}
	return spans
}
