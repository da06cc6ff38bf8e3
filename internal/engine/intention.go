package engine

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/human"
)

// MaxIntention is the longest intention, in characters (runes, not
// bytes): a line or two of the listener's words, enough for "calm before
// the talk I give on Thursday, and sleep after it". It is woven into every
// phase's instructions and saved with every checkpoint, so it stays short.
const MaxIntention = 120

// CleanIntention is the one rule for an intention, on every path that
// makes a session (the form, --intention, the app, NewState): ordinary
// whitespace — line breaks, tabs, runs of spaces — folds to one space and
// the ends are trimmed; a control character or a bidi control is
// refused, naming what was found; so is an intention over MaxIntention
// characters, rather than cutting someone's words short.
func CleanIntention(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("the intention is not valid text (UTF-8): write it again as plain text")
	}
	for i, r := range []rune(s) {
		if unicode.IsSpace(r) {
			continue
		}
		if what := human.Control(r); what != "" {
			return "", fmt.Errorf("the intention holds %s at character %d: write it as plain words", what, i+1)
		}
	}
	clean := strings.Join(strings.Fields(s), " ")
	if n := utf8.RuneCountInString(clean); n > MaxIntention {
		return "", fmt.Errorf("the intention is %d characters long; it holds at most %d: say it in fewer words", n, MaxIntention)
	}
	return clean, nil
}

// KeptIntention is an intention that a session already holds — saved by
// an older lull, or written by hand — made to fit the rule when the
// session is built again from its transcript: escape sequences and other
// controls removed, folded to one line (human.Line), cut at MaxIntention
// with an ellipsis. An old session is never refused over its intention.
func KeptIntention(s string) string {
	clean := human.Line(s)
	if r := []rune(clean); len(r) > MaxIntention {
		clean = strings.TrimSpace(string(r[:MaxIntention-1])) + "…"
	}
	return clean
}
