package guide

import (
	"fmt"
	"slices"
	"testing"

	"lull/engine"
)

// grounding reports the order in which resolution's steps were said.
func grounding(t *testing.T, lines []string) []int {
	t.Helper()
	var order []int
	for _, s := range lines {
		for j, alts := range material(t, engine.Resolution).Grounding.Steps() {
			if slices.Contains(alts, s) {
				order = append(order, j)
			}
		}
	}
	return order
}

func TestResolutionAlwaysGroundsInOrder(t *testing.T) {
	g := newGuide(t)
	all := []int{0, 1, 2, 3, 4}
	for _, b := range []engine.Budget{
		{Sentences: 5, WindDownAt: 3}, {Sentences: 4, WindDownAt: 2}, {Sentences: 2, WindDownAt: 0},
		{Sentences: 10, WindDownAt: 8}, {Sentences: 40, WindDownAt: 38},
	} {
		for seed := range int64(20) {
			budgets := tenMinutes
			budgets[engine.Resolution] = b
			calls := session(t, g, seed, intentions[seed%4], budgets)
			res := said(calls, func(c call) bool { return c.req.Phase == engine.Resolution })
			if got := grounding(t, res); !slices.Equal(got, all) {
				t.Errorf("budget %+v, seed %d: grounding steps %v, want %v in %q", b, seed, got, all, res)
			}
			if last := res[len(res)-1]; !slices.Contains(material(t, engine.Resolution).Grounding.WarmClose, last) {
				t.Errorf("budget %+v: resolution closes with %q", b, last)
			}
		}
	}
}

// TestResolutionResumed picks resolution up part-way, as after a pause, a
// crash or a switch from another guide: the grounding still runs whole.
func TestResolutionResumed(t *testing.T) {
	g := newGuide(t)
	b := engine.Budget{Sentences: 5, WindDownAt: 3}
	full := session(t, g, 11, "sleep", [len(engine.Phases)]engine.Budget{1: b, 2: b, 3: b, 4: b, 0: b})
	res := said(full, func(c call) bool { return c.req.Phase == engine.Resolution })
	before := full[0].req.History
	for _, c := range full {
		if c.req.Phase == engine.Resolution {
			before = c.req.History
			break
		}
	}
	entry := func(s string) engine.Entry {
		return engine.Entry{Phase: engine.Resolution, Role: engine.RoleGuide, Text: s}
	}
	for cut := range len(res) {
		for _, others := range []bool{false, true} {
			history := slices.Clone(before)
			for _, s := range res[:cut] {
				if others { // another guide spoke instead
					s = fmt.Sprintf("Another guide's sentence number %d.", len(history))
				}
				history = append(history, entry(s))
			}
			spoken := cut
			var got []string
			for _, windDown := range []bool{false, true} {
				if windDown == false && spoken >= b.WindDownAt {
					continue
				}
				req := engine.Request{Phase: engine.Resolution, WindDown: windDown, Budget: b, Spoken: spoken,
					Intention: "sleep", Seed: 11, History: slices.Clone(history)}
				for _, s := range ask(t, g, req) {
					got = append(got, s)
					history = append(history, entry(s))
					spoken++
				}
			}
			var whole []string
			for _, e := range history {
				if e.Phase == engine.Resolution && e.Role == engine.RoleGuide {
					whole = append(whole, e.Text)
				}
			}
			if order := grounding(t, whole); !slices.Equal(order, []int{0, 1, 2, 3, 4}) {
				t.Errorf("resumed after %d (others %v): steps %v in %q", cut, others, order, whole)
			}
		}
	}
}
