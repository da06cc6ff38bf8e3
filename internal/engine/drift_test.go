package engine

import (
	"context"
	"errors"
	"testing"
	"time"
)

// clockStore is a memStore that notes where the output's clock stood at
// each save.
type clockStore struct {
	memStore
	spk *fakeSpeaker
	at  []time.Duration
}

func (c *clockStore) Save(st State) error {
	pos := c.spk.Position()
	if err := c.memStore.Save(st); err != nil {
		return err
	}
	c.mu.Lock()
	c.at = append(c.at, pos)
	c.mu.Unlock()
	return nil
}

func sleepSession(t *testing.T, minutes int, tail time.Duration) State {
	t.Helper()
	st, err := NewState("sleep-session", Options{Length: time.Duration(minutes) * time.Minute, Seed: 5, Sleep: true, SleepTail: tail}, epoch)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// A sleep session's words end on time with no last chime; it is complete,
// its summary saved, at that moment; then the soundscape plays on for the
// tail on the output's clock, fading over the tail's last part.
func TestSleepSessionDriftsOnAfterItsWords(t *testing.T) {
	const tail = 30 * time.Minute
	spk := newFakeSpeaker()
	store := &clockStore{spk: spk}
	e := newEngine(t, sleepSession(t, 10, tail), &scriptGuide{}, spk, store)
	sub := e.Subscribe()
	if err := e.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	st := e.Snapshot()
	if st.Status != Completed || st.Summary == nil || st.Summary.Partial {
		t.Fatalf("status %s, summary %+v", st.Status, st.Summary)
	}
	if off := float64(st.Elapsed-st.Length) / float64(st.Length); off < -0.01 || off > 0.01 {
		t.Errorf("the words took %v of %v", st.Elapsed, st.Length)
	}
	if st.Summary.Duration != st.Elapsed {
		t.Errorf("the summary says %v, the words took %v: the tail is not the session", st.Summary.Duration, st.Elapsed)
	}
	// A chime opens the session and the transitions into breathing and
	// sensory; none strikes as the listener drifts (into relaxation and
	// resolution), and none ends it.
	if spk.chimes != 3 {
		t.Errorf("%d chimes, want 3: a sleep session strikes none once it thins out, and no last one", spk.chimes)
	}
	if got, want := spk.Position(), st.Elapsed+tail; got != want {
		t.Errorf("the output played %v, want the words' %v and the tail's %v", got, st.Elapsed, tail)
	}
	fade := DriftFade(tail)
	if fade != 10*time.Minute {
		t.Errorf("a 30-minute tail fades over %v, want its last 10 minutes", fade)
	}
	if len(spk.fades) != 1 || spk.fades[0] != (struct{ at, d time.Duration }{st.Elapsed + tail - fade, fade}) {
		t.Errorf("fades %+v, want one of %v beginning at %v", spk.fades, fade, st.Elapsed+tail-fade)
	}
	// Saved complete, with its summary, when the words ended: before the tail.
	store.mu.Lock()
	first := -1
	for i, s := range store.saves {
		if s.Status == Completed && first < 0 {
			first = i
			if s.Summary == nil || !s.Sleep || s.SleepTail != tail {
				t.Errorf("the completed save: summary %v, sleep %v, tail %v", s.Summary, s.Sleep, s.SleepTail)
			}
			if store.at[i] > st.Elapsed {
				t.Errorf("saved complete at %v on the output's clock, after the words ended at %v", store.at[i], st.Elapsed)
			}
		}
		if first >= 0 && s.Status != Completed {
			t.Errorf("save %d after completion is %s", i, s.Status)
		}
	}
	store.mu.Unlock()
	if first < 0 {
		t.Fatal("never saved complete")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var completed, drifting int
	for completed == 0 || drifting == 0 {
		evs, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("events: completed %d, drifting %d", completed, drifting)
		}
		for _, ev := range evs {
			switch ev.Kind {
			case EventCompleted:
				completed++
			case EventDrifting:
				if completed == 0 {
					t.Error("drifting before completed")
				}
				if ev.Duration != tail || ev.Status != Running {
					t.Errorf("drifting event %+v, want the tail's %v", ev, tail)
				}
				drifting++
			}
		}
	}
}

// A tail of 0 stops the sound with the words: no chime, the soundscape
// fading over the closing hold as in a waking session, nothing after.
func TestSleepSessionWithoutTailStopsWithTheWords(t *testing.T) {
	spk := newFakeSpeaker()
	e := newEngine(t, sleepSession(t, 5, 0), &scriptGuide{}, spk, nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e.Snapshot()
	if st.Status != Completed || spk.chimes != 3 {
		t.Errorf("status %s, %d chimes", st.Status, spk.chimes)
	}
	if spk.Position() != st.Elapsed {
		t.Errorf("the output played %v after words of %v", spk.Position(), st.Elapsed)
	}
	if len(spk.fades) != 1 || spk.fades[0].at+spk.fades[0].d != st.Elapsed {
		t.Errorf("fades %+v: want one over the closing hold, ending at %v", spk.fades, st.Elapsed)
	}
}

// During the tail the listener can pause the sound and resume it, or stop
// it: the session stays complete whatever they do.
func TestSleepTailPausesAndStopsWithoutUncompleting(t *testing.T) {
	for _, stop := range []string{"abandon", "context", "to the end"} {
		t.Run(stop, func(t *testing.T) {
			const tail = 45 * time.Minute
			spk := newFakeSpeaker()
			inTail, release := make(chan struct{}), make(chan struct{})
			spk.onRest = func(d time.Duration) {
				if d == tail-DriftFade(tail) {
					close(inTail)
					<-release
				}
			}
			store := &memStore{}
			e := newEngine(t, sleepSession(t, 5, tail), &scriptGuide{}, spk, store)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- e.Run(ctx) }()
			select {
			case <-inTail:
			case err := <-done:
				t.Fatalf("Run ended before the tail: %v", err)
			case <-time.After(60 * time.Second):
				t.Fatal("the tail never began")
			}
			words := e.Snapshot().Elapsed
			if err := e.Pause(); err != nil {
				t.Fatalf("pausing the tail: %v", err)
			}
			if st := e.Snapshot(); st.Status != Completed {
				t.Fatalf("pausing the tail made the session %s", st.Status)
			}
			if p := e.Progress(); p.Status != Completed || p.Drift != tail {
				t.Errorf("progress while the tail is paused: %+v", p)
			}
			close(release) // the rest waits on the paused output
			switch stop {
			case "abandon":
				if err := e.Abandon(); err != nil {
					t.Fatalf("stopping the tail: %v", err)
				}
			case "context":
				cancel()
			case "to the end":
				if err := e.Resume(); err != nil {
					t.Fatalf("resuming the tail: %v", err)
				}
			}
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
			case <-time.After(60 * time.Second):
				t.Fatal("Run did not return")
			}
			st := e.Snapshot()
			if st.Status != Completed || st.Summary == nil || st.Elapsed != words {
				t.Errorf("after the tail: status %s, summary %v, words %v (were %v)", st.Status, st.Summary, st.Elapsed, words)
			}
			if last := store.last(); last.Status != Completed {
				t.Errorf("last saved as %s", last.Status)
			}
			played := spk.Position() - words
			if stop == "to the end" {
				if played != tail || len(spk.fades) != 1 {
					t.Errorf("resumed: the tail played %v with fades %+v", played, spk.fades)
				}
			} else if played != 0 || len(spk.fades) != 0 {
				t.Errorf("stopped while paused: the tail played %v with fades %+v", played, spk.fades)
			}
			if err := e.Pause(); !errors.As(err, new(*TransitionError)) {
				t.Errorf("pausing once the tail is over: %v, want a transition error", err)
			}
		})
	}
}

func TestSleepTailBounds(t *testing.T) {
	for _, d := range []time.Duration{-time.Second, MaxSleepTail + time.Second} {
		if _, err := NewState("x", Options{Length: 10 * time.Minute, Sleep: true, SleepTail: d}, epoch); err == nil {
			t.Errorf("a tail of %v was accepted", d)
		}
	}
	st, err := NewState("x", Options{Length: 10 * time.Minute, SleepTail: time.Hour}, epoch)
	if err != nil || st.SleepTail != 0 {
		t.Errorf("a waking session keeps a tail of %v (%v)", st.SleepTail, err)
	}
	for tail, want := range map[time.Duration]time.Duration{
		30 * time.Second: 30 * time.Second, 2 * time.Minute: time.Minute, 30 * time.Minute: 10 * time.Minute,
		6 * time.Minute: 2 * time.Minute, 2 * time.Hour: 10 * time.Minute,
	} {
		if got := DriftFade(tail); got != want {
			t.Errorf("DriftFade(%v) = %v, want %v", tail, got, want)
		}
	}
}
