package tui

import (
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/list"
)

// filterText is what the home list's filter looks through for a session:
// its intention, id, status, phase and the day it began, in words a
// person would type ("sleep", "paused", "sensory", "23 nov", "monday").
func filterText(i SessionInfo) string {
	words := []string{i.Intention, i.ID, statusLabel(i), i.Phase.String()}
	if !i.Created.IsZero() {
		words = append(words, i.Created.Local().Format("Monday 2 January 2006 2 Jan 2006-01-02"))
	}
	return strings.Join(words, " ")
}

// matchSessions is the home list's filter: a session matches when each
// word typed appears in its filter text, ignoring case ("rest aft"
// matches "rest after a long day"; "otter" does not). The matches keep the
// list's own order, resumable first, then the most recent: a filter
// narrows the list, it does not re-sort it.
func matchSessions(term string, targets []string) []list.Rank {
	words := strings.Fields(strings.ToLower(term))
	var ranks []list.Rank
	for i, target := range targets {
		lower := strings.ToLower(target)
		var matched []int
		for _, w := range words {
			at := strings.Index(lower, w)
			if at < 0 {
				matched = nil
				break
			}
			// The rune positions of the word where it was found.
			first := utf8.RuneCountInString(lower[:at])
			for k := range utf8.RuneCountInString(w) {
				matched = append(matched, first+k)
			}
		}
		if matched != nil || len(words) == 0 {
			ranks = append(ranks, list.Rank{Index: i, MatchedIndexes: matched})
		}
	}
	return ranks
}
