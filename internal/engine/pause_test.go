package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// pauseGuide asks for a short silence after its "tense" lines.
type pauseGuide struct{ scriptGuide }

func (g *pauseGuide) ShortPause(text string) bool { return strings.Contains(text, "tense") }

// A muscle tensed is released after a few seconds, not after the phase's
// long silence; the session still ends on time.
func TestShortPauseAfterATensedMuscle(t *testing.T) {
	st, err := NewState("pause", Options{Length: 20 * time.Minute, Seed: 1}, epoch)
	if err != nil {
		t.Fatal(err)
	}
	spk := newFakeSpeaker()
	g := &pauseGuide{scriptGuide{lines: map[Phase][]string{Relaxation: {"Make a fist and tense it.", "Let it go, and feel the difference."}}}}
	e := newEngine(t, st, g, spk, nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	done := e.Snapshot()
	if off := done.Elapsed - done.Length; off < -done.Length/100 || off > done.Length/100 {
		t.Errorf("took %v", done.Elapsed)
	}
	spk.mu.Lock()
	defer spk.mu.Unlock()
	tensed, released := 0, 0
	for i := 0; i+1 < len(spk.lines); i++ {
		if spk.lines[i].Phase != Relaxation || spk.lines[i+1].Phase != Relaxation {
			continue
		}
		gap := spk.starts[i+1] - (spk.starts[i] + spk.ds[i])
		if strings.Contains(spk.lines[i].Text, "tense") {
			tensed++
			if gap != shortPause {
				t.Errorf("%v of silence after %q", gap, spk.lines[i].Text)
			}
		} else if gap > 2*shortPause {
			released++
		}
	}
	if tensed < 3 || released < 3 {
		t.Errorf("%d tensed lines with short pauses, %d released lines with long ones", tensed, released)
	}
}

// A breathing line too long for its part of the breath is said quicker,
// up to a bound, so that the next part's line begins on time: "Hold
// softly, for two." inside a two-second hold.
func TestBreathingLinesFitTheirPart(t *testing.T) {
	st, err := NewState("fit", Options{Length: 10 * time.Minute, Seed: 1}, epoch)
	if err != nil {
		t.Fatal(err)
	}
	spk := newFakeSpeaker()
	spk.slow = 1.6 // a slow voice: every line overruns its estimate
	g := &cueGuide{}
	e := newEngine(t, st, g, spk, nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	spk.mu.Lock()
	defer spk.mu.Unlock()
	quickened := 0
	for i, l := range spk.lines {
		if l.Phase != Breathing {
			continue
		}
		stage, ok := g.Cue(l.Text)
		if !ok {
			continue
		}
		room := DefaultBreath.Length(stage)
		pace := l.Delivery.PaceOr1()
		if pace > 1 {
			quickened++
		}
		if pace > maxBreathQuicken+1e-9 {
			t.Errorf("%q said %.2f× quicker", l.Text, pace)
		}
		if spk.ds[i] > room && pace < maxBreathQuicken-1e-9 {
			t.Errorf("%q lasts %v in a %v part of the breath, at only %.2f× its pace", l.Text, spk.ds[i], room, pace)
		}
	}
	if quickened == 0 {
		t.Error("no breathing line was quickened to fit")
	}
}
