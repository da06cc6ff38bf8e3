package engine

import (
	"context"
	"testing"
	"time"
)

// A session resumed in a new run comes back gently: a chime, a short
// hold, one line that welcomes the listener back into their phase, a
// rest, and then the next sentence — which is still the next sentence,
// and nothing is counted twice. A first run has no welcome.
func TestResumeWelcomesTheListenerBack(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	quitInRelaxation(t, spk, store)
	for _, s := range spk.Played() {
		if s == "welcome to relaxation" {
			t.Fatal("a first run was welcomed back")
		}
	}
	saved := store.last()

	spk2 := newFakeSpeaker()
	var asked []Phase
	e2, err := New(saved, Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk2, Store: store,
		Now: func() time.Time { return epoch },
		Welcome: func(p Phase, sleep bool, runs int) string {
			asked = append(asked, p)
			return "welcome to " + p.String()
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	played := spk2.Played()
	if len(asked) != 1 || asked[0] != Relaxation || len(played) < 2 || played[0] != "welcome to relaxation" || played[1] != "Relaxation body, script 2." {
		t.Fatalf("resumed with %q (welcome asked for %v), want the welcome into relaxation, then its sentence 2", played[:min(2, len(played))], asked)
	}
	spk2.mu.Lock()
	chimes, start := spk2.chimes, spk2.starts[0]
	spk2.mu.Unlock()
	if chimes < 1 || start != returnHold {
		t.Errorf("the welcome began at %v after %d chimes, want a chime and the %v hold", start, chimes, returnHold)
	}
	st := e2.Snapshot()
	for _, s := range st.Said() {
		if s == "welcome to relaxation" {
			t.Error("the welcome was counted among the phase's sentences")
		}
	}
	if st.Status != Completed {
		t.Errorf("ended %s", st.Status)
	}
}

// Resumed in breathing, the welcome is said before the rhythm starts
// again, never over a breath's cues: the pacer is off while it plays and
// its first breath begins once the welcome and its rest are over.
func TestWelcomeBackIsNeverSaidMidBreath(t *testing.T) {
	store := &memStore{}
	quitAt(t, newSession(t, 10, "rest"), newFakeSpeaker(), store, func(_ *Engine, l Line) bool { return l.Phase == Breathing && l.Index == 2 })
	saved := store.last()
	if saved.Phase != Breathing {
		t.Fatalf("quit in %s, want breathing", saved.Phase)
	}

	spk2 := newFakeSpeaker()
	pacingAtWelcome := true
	spk2.onPlay = func(l Line, n int) {
		if n == 0 {
			spk2.mu.Lock()
			pacingAtWelcome = spk2.pacing || spk2.paces > 0
			spk2.mu.Unlock()
		}
	}
	resumeWith(t, saved, spk2, func(p Phase, sleep bool, runs int) string { return "welcome back to " + p.String() })
	spk2.mu.Lock()
	defer spk2.mu.Unlock()
	if len(spk2.played) < 2 || spk2.played[0] != "welcome back to breathing" {
		t.Fatalf("resumed with %q, want the welcome first", spk2.played[:min(2, len(spk2.played))])
	}
	if pacingAtWelcome {
		t.Error("the pacer ran as the welcome began")
	}
	if end := spk2.starts[0] + spk2.ds[0]; spk2.paces != 1 || spk2.anchor < end+returnRest {
		t.Errorf("the rhythm began at %v (%d paces), want after the welcome (ends %v) and its %v rest", spk2.anchor, spk2.paces, end, returnRest)
	}
}

// A session left in its last seconds has no time for a welcome back: its
// resume goes straight to the rest of its close, and ends no later than a
// resume with no welcome at all would.
func TestNoWelcomeBackWithNoTimeLeft(t *testing.T) {
	store := &memStore{}
	quitAt(t, newSession(t, 5, "rest"), newFakeSpeaker(), store, func(e *Engine, l Line) bool {
		return l.Phase == Resolution && l.Index == e.Snapshot().Phases[Resolution].Budget.Sentences-1
	})
	saved := store.last()
	if saved.Phase != Resolution || saved.Length-saved.Elapsed > 30*time.Second {
		t.Fatalf("quit in %s at %v of %v, want resolution's last line", saved.Phase, saved.Elapsed, saved.Length)
	}
	resume := func(welcome func(Phase, bool, int) string) State {
		spk := newFakeSpeaker()
		e := resumeWith(t, saved, spk, welcome)
		for _, s := range spk.Played() {
			if s == "welcome back" {
				t.Errorf("welcomed back at %v of %v", saved.Elapsed, saved.Length)
			}
		}
		return e.Snapshot()
	}
	with := resume(func(Phase, bool, int) string { return "welcome back" })
	without := resume(nil)
	if with.Status != Completed || with.Elapsed != without.Elapsed {
		t.Errorf("resumed at %v of %v: %s at %v, want completed at %v as with no welcome", saved.Elapsed, saved.Length, with.Status, with.Elapsed, without.Elapsed)
	}
}

// resumeWith runs saved to its end in a new engine, welcomed back by
// welcome, and returns the engine.
func resumeWith(t *testing.T, saved State, spk *fakeSpeaker, welcome func(Phase, bool, int) string) *Engine {
	t.Helper()
	e, err := New(saved, Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk, Store: &memStore{}, Welcome: welcome})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return e
}
