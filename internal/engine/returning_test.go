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
