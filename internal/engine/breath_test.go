package engine

import (
	"context"
	"math"
	"testing"
	"time"
)

func TestBreathPatternAt(t *testing.T) {
	b := DefaultBreath // 4-2-6
	s := time.Second
	cases := []struct {
		at    time.Duration
		stage BreathStage
		fill  float64
		cycle int
	}{
		{0, StageInhale, 0, 0},
		{2 * s, StageInhale, 0.5, 0},
		{4 * s, StageHold, 1, 0},
		{5 * s, StageHold, 1, 0},
		{6 * s, StageExhale, 1, 0},
		{9 * s, StageExhale, 0.5, 0},
		{12 * s, StageInhale, 0, 1},
		{26 * s, StageInhale, 0.5, 2},
		{-s, StageInhale, 0, 0},
	}
	for _, c := range cases {
		got := b.At(c.at)
		if got.Stage != c.stage || math.Abs(got.Fill-c.fill) > 1e-9 || got.Cycle != c.cycle {
			t.Errorf("At(%v) = %+v, want %v fill %.2f cycle %d", c.at, got, c.stage, c.fill, c.cycle)
		}
	}
	withRest := BreathPattern{Inhale: 4 * s, Exhale: 4 * s, HoldOut: 2 * s}
	if got := withRest.At(9 * s); got.Stage != StageHoldOut || got.Fill != 0 {
		t.Errorf("4-0-4-2 at 9 s: %+v", got)
	}
	if got := withRest.At(4 * s); got.Stage != StageExhale {
		t.Errorf("no hold: at 4 s the exhale begins, got %v", got.Stage)
	}
	for _, c := range []struct {
		at    time.Duration
		stage BreathStage
		want  time.Duration
	}{
		{0, StageInhale, 0},
		{1 * s, StageInhale, 11 * s},
		{1 * s, StageExhale, 5 * s},
		{7 * s, StageExhale, 11 * s},
		{13 * s, StageHold, 3 * s},
	} {
		if got := b.untilStage(c.at, c.stage); got != c.want {
			t.Errorf("from %v until %v: %v, want %v", c.at, c.stage, got, c.want)
		}
	}
}

func TestBreathPatternCheck(t *testing.T) {
	s := time.Second
	if err := DefaultBreath.Check(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []BreathPattern{
		{Inhale: s, Exhale: 6 * s},
		{Inhale: 4 * s, Hold: 15 * s, Exhale: 6 * s}, // a long hold: unsafe
		{Inhale: 4 * s, Exhale: 20 * s},
		{Inhale: 4 * s, Hold: -s, Exhale: 6 * s},
	} {
		if bad.Check() == nil {
			t.Errorf("%+v was accepted", bad)
		}
	}
}

func TestCueStage(t *testing.T) {
	for text, want := range map[string]BreathStage{
		"Breathe in slowly through your nose, for a count of four.":    StageInhale,
		"Breathe out softly through your mouth, for a count of six.":   StageExhale,
		"At the top of the in-breath, hold gently for a count of two.": StageHold,
		"Hold it gently, one, two, and then release slowly.":           StageHold,
		"Out through the mouth, slow and unforced.":                    StageExhale,
		"A long, patient breath out, emptying from the chest.":         StageExhale,
		"Exhale slowly, and feel calm spreading.":                      StageExhale,
		"“Breathe out,” and let it go.":                                StageExhale,
		"Now, gently, let your breathing become the centre.":           StageInhale,
		"Feel the warm air leave your body as you breathe out.":        StageExhale,
		"Your breath is a steady companion.":                           StageInhale,
	} {
		if got := CueStage(text); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

// Every breathing line begins exactly as the part of the breath it speaks
// to begins, on the speaker's clock, and the pacer runs only in breathing.
func TestBreathingLinesLandOnTheirBreath(t *testing.T) {
	spk := newFakeSpeaker()
	g := &scriptGuide{lines: map[Phase][]string{Breathing: {
		"Breathe in slowly through your nose.",
		"Breathe out softly through your mouth, slow and long.",
		"At the top, hold gently.",
		"Notice the cool air as it enters.",
	}}}
	var progressInBreathing, progressElsewhere []*Breath
	var e *Engine
	spk.onPlay = func(l Line, _ int) {
		p := e.Progress()
		if l.Phase == Breathing {
			progressInBreathing = append(progressInBreathing, p.Breath)
		} else {
			progressElsewhere = append(progressElsewhere, p.Breath)
		}
	}
	e = newEngine(t, newSession(t, 10, ""), g, spk, nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e.Snapshot()
	if spk.paces != 1 || spk.pacing {
		t.Errorf("the pacer started %d times and is left running: %v", spk.paces, spk.pacing)
	}
	period := DefaultBreath.Period()
	n := 0
	for i, text := range spk.played {
		h := st.History[i+historyOffset(st)]
		if h.Phase != Breathing {
			continue
		}
		n++
		into := (spk.starts[i] - spk.anchor) % period
		if want := DefaultBreath.Offset(CueStage(text)); into != want {
			t.Errorf("%q began %v into the breath, want %v", text, into, want)
		}
	}
	if n < 5 {
		t.Fatalf("only %d breathing lines", n)
	}
	for _, b := range progressInBreathing {
		if b == nil {
			t.Fatal("Progress shows no breath in the breathing phase")
		}
		if b.Stage != StageInhale && b.Stage != StageExhale && b.Stage != StageHold {
			t.Errorf("a line began in stage %v", b.Stage)
		}
	}
	for _, b := range progressElsewhere {
		if b != nil {
			t.Fatal("Progress shows a breath outside the breathing phase")
		}
	}
	if off := float64(st.Elapsed-st.Length) / float64(st.Length); math.Abs(off) > 0.01 {
		t.Errorf("with the pacer the session took %v", st.Elapsed)
	}
	share := float64(st.Phases[Breathing].Elapsed) / float64(st.Elapsed)
	if math.Abs(share-Breathing.Share(st.Length, st.Sleep)) > 0.03 {
		t.Errorf("breathing took %.1f%% of the session", share*100)
	}
}

// historyOffset is the number of history entries before the first spoken
// line (the intention, notes).
func historyOffset(st State) int {
	for i, h := range st.History {
		if h.Role == RoleGuide {
			return i
		}
	}
	return 0
}

// A line begins late in its part of the breath only while at most a third
// of that part has gone and at least lateStartLeft of it remains;
// otherwise it waits for the part to come round again.
func TestUntilCue(t *testing.T) {
	s := func(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
	p426 := DefaultBreath
	p507 := BreathPattern{Inhale: 5 * time.Second, Exhale: 7 * time.Second}
	short := BreathPattern{Inhale: 4 * time.Second, Hold: 1500 * time.Millisecond, Exhale: 6 * time.Second}
	for _, c := range []struct {
		b     BreathPattern
		at    float64
		stage BreathStage
		wait  float64
	}{
		{p426, 0, StageInhale, 0},
		{p426, 1.3, StageInhale, 0},    // a third of the inhale not yet gone
		{p426, 1.4, StageInhale, 10.6}, // more than a third gone: the next inhale
		{p426, 3, StageExhale, 3},      // not begun: wait for it
		{p426, 6.5, StageExhale, 0},    // just begun
		{p426, 8.1, StageExhale, 9.9},  // over a third gone
		{p426, 4.5, StageHold, 0},      // 1.5 s of the hold left
		{p426, 4.7, StageHold, 11.3},   // a third of the hold gone
		{p426, 12.5, StageInhale, 0},   // the next breath
		{p507, 5, StageHold, 0},        // no hold: at the top
		{p507, 5.1, StageHold, 11.9},   // past the top
		{short, 4.2, StageHold, 0},     // 1.3 s left
		{short, 4.4, StageHold, 11.1},  // 1.1 s left: too little to begin
		{p426, 12 + 6.2, StageExhale, 0},
	} {
		if got := c.b.untilCue(s(c.at), c.stage); got != s(c.wait) {
			t.Errorf("%v at %vs: %v waits %v, want %vs", c.b, c.at, c.stage, got, c.wait)
		}
	}
	if DefaultBreath.following(StageInhale) != StageHold || p507.following(StageInhale) != StageExhale ||
		p507.following(StageExhale) != StageInhale {
		t.Error("following skips the wrong stages")
	}
}
