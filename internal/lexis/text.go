// Package lexis holds what lull's text screens share to read words: the
// crisis screen (an intention), the safety screen and the speech cleaner (a
// guide's sentences) all read apostrophes, word forms and numbers alike.
package lexis

// IsApostrophe reports whether r is one of the marks people and models
// write for an apostrophe.
func IsApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', 'ʼ', '`', '´', '′':
		return true
	}
	return false
}
