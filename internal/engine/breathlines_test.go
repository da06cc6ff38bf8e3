package engine

import "testing"

// oneLineGuide says one line on each breath it speaks on.
type oneLineGuide struct{ Guide }

func (oneLineGuide) LinesPerBreath() int { return 1 }

// A guide that says one line on a worded breath (the built-in guide, on
// the out-breath) is planned a line for each, not two: the breaths after
// the taught ones keep words on one in three, and the phase is not asked
// for twice the lines it will spread over its breaths.
func TestBreathingIsPlannedByTheGuidesLinesPerBreath(t *testing.T) {
	b := DefaultBreath
	talk := 30 * b.Period() // three taught breaths, then 27: nine with words
	taught := taughtBreaths * len(b.stages())
	for _, c := range []struct {
		name  string
		guide Guide
		want  int
	}{
		{"in and out", &scriptGuide{}, taught + 2*9},
		{"one a breath", oneLineGuide{&scriptGuide{}}, taught + 9 + 1}, // the hand-back breath says two
	} {
		pl := planner{breath: b, perBreath: linesPerBreath(c.guide)}
		if got := pl.breathLines(talk); got != c.want {
			t.Errorf("%s: %d lines planned for %v of breathing, want %d", c.name, got, talk, c.want)
		}
		if got := pl.fit(Breathing, talk, pl.taught(), 0); got != c.want {
			t.Errorf("%s: fit gives %d lines for %v of breathing, want %d", c.name, got, talk, c.want)
		}
	}
}
