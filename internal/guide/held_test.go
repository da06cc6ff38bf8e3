package guide

import (
	"slices"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// A wind-down never leaves a muscle held: whatever room the clock leaves
// a phase (the engine says no more than its budget), a tensed muscle is
// released before anything else, and the room never ends between the two.
// A reader heard "Both legs can firm at once…" and then the close, after
// a ten-minute session's relaxation was re-budgeted in mid-phase.
func TestAWindDownNeverLeavesAMuscleHeld(t *testing.T) {
	m := loadMaterial(t)
	checked := 0
	for name, h := range journeySeeds(t) {
		for _, minutes := range []int{5, 10, 20} {
			for _, p := range []engine.Phase{engine.Sensory, engine.Relaxation} {
				g := NewBuiltin(m, Memory{})
				req := engine.Request{Phase: p, Seed: h.seed, Sleep: h.sleep, Breath: engine.DefaultBreath, Length: time.Duration(minutes) * time.Minute}
				for _, plan := range []int{3, 6, 40} { // a brief, a short and a whole path
					req.Budget = engine.Budget{Sentences: plan + 1, WindDownAt: plan}
					body, err := g.Sentences(req)
					if err != nil {
						t.Fatal(err)
					}
					pp := g.plan(req)
					for k := range body {
						held := func(line string, said []string) bool {
							seen := map[string]bool{}
							for _, s := range said {
								seen[s] = true
							}
							_, ok := pp.heldBy(line, seen)
							return ok
						}
						for room := 1; room <= 3; room++ {
							w := req
							w.WindDown, w.Spoken = true, k+1
							w.Budget = engine.Budget{Sentences: k + 1 + room, WindDownAt: k + 1}
							w.History = nil
							for _, s := range body[:k+1] {
								w.History = append(w.History, engine.Entry{Phase: p, Role: engine.RoleGuide, Text: s})
							}
							out, err := g.Sentences(w)
							if err != nil {
								t.Fatal(err)
							}
							out = out[:min(len(out), room)] // the engine says no more
							heard := append(append([]string{}, body[:k+1]...), out...)
							checked++
							if held(body[k], body[:k+1]) && (len(out) == 0 || held(body[k], append(slices.Clone(body[:k+1]), out[0]))) {
								t.Errorf("%s, %d min, %v, room %d after %q: the release is not said first: %q", name, minutes, p, room, body[k], out)
							}
							if last := heard[len(heard)-1]; held(last, heard) {
								t.Errorf("%s, %d min, %v, room %d: ends held on %q (wind-down %q)", name, minutes, p, room, last, out)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d wind-downs checked", checked)
}
