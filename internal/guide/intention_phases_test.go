package guide

import (
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// TestTheIntentionIsHeardInEveryPhase: from ten minutes up, every phase
// but breathing says a line for the listener's intention, waking and
// asleep, every kind: a reader heard "calm before a talk" named in the
// opening of a ten-minute session and never again. (Five minutes has a
// line or two a phase: the opening and relaxation say it. A ten-minute
// sleep session's sensory phase has three or four lines, and the path's
// end comes before the intention's line when only one fits.)
func TestTheIntentionIsHeardInEveryPhase(t *testing.T) {
	lines := map[string]bool{}
	for _, l := range kindLines(loadMaterial(t)) {
		lines[l.text] = true
	}
	var hs []hearing
	for i, minutes := range []int{5, 10, 15, 20, 30, 45, 60} {
		for j, in := range everyKind {
			for _, sleep := range []bool{false, true} {
				hs = append(hs, hearing{minutes: minutes, seed: int64(400 + 10*i + j), voice: "none", intention: in, sleep: sleep || ProposesSleep(in)})
			}
		}
	}
	for _, v := range hearAll(t, hs) {
		heard := map[engine.Phase]bool{}
		for _, c := range v.ear.heard {
			if lines[c.text] || strings.Contains(c.text, v.h.intention) {
				heard[c.phase] = true
			}
		}
		for _, p := range engine.Phases {
			owed := p != engine.Breathing
			if v.h.minutes < 10 || v.h.minutes < 15 && v.h.sleep && p == engine.Sensory {
				owed = p == engine.Atmosphere || p == engine.Relaxation
			}
			if owed && !heard[p] {
				t.Errorf("%s: %s says nothing for the intention", v.h, p)
			}
		}
	}
}
