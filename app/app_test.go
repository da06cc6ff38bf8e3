package app

import (
	"testing"
	"time"

	"lull/engine"
)

func testApp(t *testing.T) *App {
	t.Helper()
	home := t.TempDir()
	a, err := New(Options{
		Paths:     Paths{Data: home},
		Config:    Config{Length: 5, Voice: "none", Soundscape: "brown"},
		TimeScale: 2000, // the silent output, fast
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// However soon after starting a session is closed, it is saved resumable:
// paused, or not yet begun — never left "running" as if lull had crashed.
func TestCloseAtAnyMomentLeavesTheSessionResumable(t *testing.T) {
	a := testApp(t)
	for i := range 30 {
		r, err := a.Start(engine.Options{Seed: int64(i + 1)})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i%5) * time.Millisecond)
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		st, _, err := a.Store().Load(r.ID())
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != engine.Paused && st.Status != engine.Created {
			t.Fatalf("closed %d ms after starting, the session was saved %s", i%5, st.Status)
		}
	}
}

func TestPausedSessionResumesToCompletion(t *testing.T) {
	a := testApp(t)
	r, err := a.Start(engine.Options{Seed: 7, Intention: "rest"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.Snapshot().Phase < engine.Sensory && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	paused := r.Snapshot()
	if paused.Status != engine.Paused {
		t.Fatalf("closed mid-session: %s", paused.Status)
	}

	// A second lull cannot take it while this one holds it.
	again, err := a.Resume(paused.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Resume(paused.ID); err == nil {
		t.Fatal("the session was opened twice")
	}
	select {
	case <-again.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the resumed session never finished")
	}
	if err := again.Err(); err != nil {
		t.Fatal(err)
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	done, _, err := a.Store().Load(paused.ID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != engine.Completed || done.Spoken() <= paused.Spoken() {
		t.Fatalf("after resuming: %s, %d sentences (were %d)", done.Status, done.Spoken(), paused.Spoken())
	}
	if _, err := a.Resume(paused.ID); err == nil {
		t.Error("a completed session was resumed")
	}
}
