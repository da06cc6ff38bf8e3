package guide

import (
	"testing"
)

// fiveWeeks is a listener's first five weeks: a 20-minute session every
// day with no intention, each remembering what the guide remembers (the
// days within MemoryWindow, MemorySessions at most).
func fiveWeeks(t *testing.T) [][]string {
	t.Helper()
	return inOneHome(t, 35, func(day int) hearing {
		return hearing{minutes: 20, seed: int64(1000 + day), voice: "none"}
	})
}

// inOneHome hears a session a day for days days, each remembering what
// the guide remembers of the days before (the days within MemoryWindow,
// MemorySessions at most), and returns what each said.
func inOneHome(t *testing.T, days int, day func(int) hearing) [][]string {
	t.Helper()
	window := min(int(MemoryWindow.Hours()/24), MemorySessions)
	var heard [][]string // most recent first, as Memory holds it
	var out [][]string
	for i := range days {
		h := day(i)
		h.mem = Memory{Heard: heard[:min(len(heard), window)]}
		said := hearAll(t, []hearing{h})[0].st.Said()
		out = append(out, said)
		heard = append([][]string{said}, heard...)
	}
	return out
}

// heardBefore is the share of day's sentences heard in the days days
// before it.
func heardBefore(sessions [][]string, day, days int) float64 {
	return shareOf(sessions[day], sessions[max(day-days, 0):day]...)
}

// shared is the largest share of a session's sentences that any single
// earlier session said too.
func shared(sessions [][]string, day int) (float64, int) {
	worst, with := 0.0, -1
	for d := range day {
		if f := shareOf(sessions[day], sessions[d]); f > worst {
			worst, with = f, d
		}
	}
	return worst, with
}

// shareOf is the share of said's sentences that the earlier sessions said.
func shareOf(said []string, earlier ...[]string) float64 {
	seen := map[string]bool{}
	for _, e := range earlier {
		for _, s := range e {
			seen[s] = true
		}
	}
	n := 0
	for _, s := range said {
		if seen[s] {
			n++
		}
	}
	return float64(n) / float64(max(len(said), 1))
}

// Five weeks of daily sessions stay fresh: in weeks four and five at most
// 35 % of a day's sentences were heard in the two weeks before and 10 %
// in the week before, and no session shares more than 20 % of its
// sentences with any one earlier session; in the first two weeks at most
// 25 % were heard before, and nothing the day before.
func TestFiveWeeksStayFresh(t *testing.T) {
	s := fiveWeeks(t)
	var worst14, worst7, worstShare, worstEarly, worstDayBefore float64
	for day := 1; day < len(s); day++ {
		share, with := shared(s, day)
		worstShare = max(worstShare, share)
		if share > 0.20 {
			t.Errorf("day %d shares %.0f %% of its sentences with day %d", day+1, 100*share, with+1)
		}
		if day < 14 {
			early, before := heardBefore(s, day, day), heardBefore(s, day, 1)
			worstEarly, worstDayBefore = max(worstEarly, early), max(worstDayBefore, before)
			if early > 0.25 {
				t.Errorf("day %d: %.0f %% heard on an earlier day, want at most 25 %%", day+1, 100*early)
			}
			if before > 0 {
				t.Errorf("day %d: %.0f %% heard the day before, want none", day+1, 100*before)
			}
		}
		if day >= 21 {
			f14, f7 := heardBefore(s, day, 14), heardBefore(s, day, 7)
			worst14, worst7 = max(worst14, f14), max(worst7, f7)
			if f14 > 0.35 {
				t.Errorf("day %d: %.0f %% heard in the fourteen days before, want at most 35 %%", day+1, 100*f14)
			}
			if f7 > 0.10 {
				t.Errorf("day %d: %.0f %% heard in the seven days before, want at most 10 %%", day+1, 100*f7)
			}
		}
	}
	t.Logf("days 2–14: heard before ≤ %.1f %%, the day before ≤ %.1f %%; days 22–35: in the 14 days before ≤ %.1f %%, the 7 before ≤ %.1f %%; most shared with one earlier session %.1f %%",
		100*worstEarly, 100*worstDayBefore, 100*worst14, 100*worst7, 100*worstShare)
}
