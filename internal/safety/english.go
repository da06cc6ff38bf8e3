package safety

import (
	"strings"

	"github.com/lull-dev/lull/internal/prompts"
)

// english reports whether w (lower case, without apostrophes) is an
// English word, or two run together as guides coin them: "woodsmoke",
// "lamplit", "birdcall".
func english(w string) bool {
	if listed(w) {
		return true
	}
	for i := 4; i <= len(w)-4; i++ {
		if listed(w[:i]) && listed(w[i:]) {
			return true
		}
	}
	return false
}

// listed reports whether w is in prompts.EnglishWords: a binary search in
// place, which costs no memory beyond the binary's own data.
func listed(w string) bool { return inSorted(prompts.EnglishWords, w) }

// inSorted reports whether w is a line of words, which holds sorted lines.
func inSorted(words, w string) bool {
	lo, hi := 0, len(words)
	for lo < hi {
		mid := lo + (hi-lo)/2
		start := strings.LastIndexByte(words[:mid], '\n') + 1
		end := strings.IndexByte(words[mid:], '\n')
		if end < 0 {
			end = len(words)
		} else {
			end += mid
		}
		switch line := words[start:end]; {
		case line == w:
			return true
		case line < w:
			lo = end + 1
		default:
			hi = start
		}
	}
	return false
}
