package guide

import (
	"fmt"
	"slices"
	"testing"
)

// stockPhrases are the phrases heard on more than phraseDays days of some
// phraseWindow days in a row, with the most days any window held each.
func stockPhrases(sessions [][]string) map[string]int {
	days := make([]map[string]bool, len(sessions))
	for i, said := range sessions {
		days[i] = sessionPhrases(said)
	}
	stock := map[string]int{}
	for end := range days {
		n := map[string]int{}
		for _, d := range days[max(0, end-phraseWindow+1) : end+1] {
			for p := range d {
				n[p]++
			}
		}
		for p, c := range n {
			if c > phraseDays {
				stock[p] = max(stock[p], c)
			}
		}
	}
	return stock
}

// mixedDays are a home's days as people use lull: lengths from 10 to 45
// minutes, two intentions and a sleep session among them, each day
// remembering the days before (as in fiveWeeks).
func mixedDays(t *testing.T, seed int64, days int) [][]string {
	t.Helper()
	type day struct {
		minutes   int
		intention string
		sleep     bool
	}
	week := []day{{15, "", false}, {20, "calm before a talk", false}, {25, "", false}, {30, "sleep", true}, {10, "I can't stop worrying about work", false}, {20, "", false}, {45, "", false}}
	return inOneHome(t, days, func(i int) hearing {
		d := week[i%len(week)]
		return hearing{minutes: d.minutes, seed: seed + int64(i), intention: d.intention, sleep: d.sleep, voice: "none"}
	})
}

// Daily sessions have no stock phrases: no four words heard on more than
// two days of any week, over five weeks of 20-minute sessions and three
// homes' fortnights of mixed lengths, intentions and sleep.
func TestNoStockPhrases(t *testing.T) {
	homes := map[string][][]string{"five weeks": fiveWeeks(t)}
	for _, seed := range []int64{4100, 5200, 6300} {
		homes[fmt.Sprintf("mixed fortnight, seed %d", seed)] = mixedDays(t, seed, 14)
	}
	for name, days := range homes {
		stock := stockPhrases(days)
		keys := make([]string, 0, len(stock))
		for p := range stock {
			keys = append(keys, p)
		}
		slices.Sort(keys)
		for _, p := range keys {
			t.Errorf("%s: %q is heard on %d days of %d in a row, want at most %d", name, p, stock[p], phraseWindow, phraseDays)
		}
	}
}
