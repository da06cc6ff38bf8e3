package engine

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// One clock: pausing (and so quitting) in the middle of a line saves the
// time the screen showed a moment before, not the time the last whole
// line ended; and the screen does not jump back when paused.
func TestPauseMidLineKeepsTheTimeShown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spk := newLiveSpeaker()
		e, err := New(newSession(t, 10, ""), Config{Screen: fakeScreen{}, Guide: &scriptGuide{name: "builtin"}, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		started := make(chan struct{}, 1)
		spk.onPlay = func(l Line) {
			if l.Phase == Sensory && l.Index == 2 {
				started <- struct{}{}
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- e.Run(ctx) }()
		<-started
		time.Sleep(1500 * time.Millisecond) // into the line
		synctest.Wait()
		shown := e.Progress().Elapsed
		if err := e.Pause(); err != nil {
			t.Fatal(err)
		}
		saved := e.Snapshot().Elapsed
		if saved < shown || saved-shown > 100*time.Millisecond {
			t.Errorf("the screen showed %v; paused, the session says %v", shown, saved)
		}
		if p := e.Progress().Elapsed; p != saved {
			t.Errorf("paused, the screen shows %v; the session says %v", p, saved)
		}
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	})
}
