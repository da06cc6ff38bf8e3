package engine

import (
	"context"
	"testing"
)

// The listener changes the voice's pace mid-session ([ and ] in the TUI:
// the clips grow or shrink from the next line): the planner goes by the
// clips' measured lengths, so the session still ends within 1 % of its
// length, at either bound.
func TestSessionsEndOnTimeWhenThePaceChanges(t *testing.T) {
	for _, c := range []struct {
		name        string
		at          int     // the line after which the pace changes
		rate, later float64 // the pace before and after
	}{
		{"slowed early", 8, 1, MinVoiceRate},
		{"quickened early", 8, 1, MaxVoiceRate},
		{"slowed late", 40, 1, MinVoiceRate},
		{"slow, then quick", 20, MinVoiceRate, MaxVoiceRate},
	} {
		for _, minutes := range []int{10, 20} {
			spk := newFakeSpeaker()
			spk.slow = 1 / c.rate
			spk.onPlay = func(l Line, n int) {
				if n == c.at {
					spk.mu.Lock()
					spk.slow = 1 / c.later
					spk.mu.Unlock()
				}
			}
			e := newEngine(t, newSession(t, minutes, ""), &scriptGuide{}, spk, nil)
			if err := e.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			st := e.Snapshot()
			if off := float64(st.Elapsed-st.Length) / float64(st.Length); off < -0.01 || off > 0.01 {
				t.Errorf("%s, %d min: took %v (%.2f%% off)", c.name, minutes, st.Elapsed, off*100)
			}
		}
	}
}

// The bounds of the voice's rate are checked in one place.
func TestVoiceRateBounds(t *testing.T) {
	for _, ok := range []float64{0, MinVoiceRate, 1, 0.95, MaxVoiceRate} {
		if err := CheckVoiceRate(ok); err != nil {
			t.Errorf("CheckVoiceRate(%v): %v", ok, err)
		}
	}
	for _, bad := range []float64{0.5, 0.79, 1.21, 2, -1} {
		if err := CheckVoiceRate(bad); err == nil {
			t.Errorf("CheckVoiceRate(%v) passed", bad)
		}
	}
	if got := ClampVoiceRate(0.9 - VoiceRateStep); got != 0.85 {
		t.Errorf("a step down from 0.9 is %v", got)
	}
	s := State{VoiceRate: 1.5}
	if err := CheckVoiceRate(s.VoiceRate); err == nil {
		t.Error("a saved rate of 1.5 passes")
	}
}
