package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/lull-dev/lull/internal/human"
)

// A sleep session closes without waking the listener: no last chime, and
// once its words are done and it is complete, its soundscape plays on for
// the tail the listener chose, fading away over the tail's last part. The
// session is already complete then: pausing the tail or stopping it never
// changes that.

// Bounds of the fade at the end of a sleep session's tail.
const (
	minDriftFade = time.Minute
	maxDriftFade = 10 * time.Minute
)

// How long the soundscape plays on after a sleep session's last word:
// half an hour unless the listener chooses; 0 stops it with the words.
const (
	DefaultSleepTail = 30 * time.Minute
	MaxSleepTail     = 8 * time.Hour
)

// CheckSleepTail refuses a tail lull does not play.
func CheckSleepTail(d time.Duration) error {
	if d < 0 || d > MaxSleepTail {
		return fmt.Errorf("the sound after a sleep session's last word plays for 0 to %s, not %s", human.Duration(MaxSleepTail), human.Duration(d))
	}
	return nil
}

// DriftFade is how long the soundscape takes to fade away at the end of a
// sleep session's tail: its last third, from one to ten minutes, never
// longer than the tail.
func DriftFade(tail time.Duration) time.Duration {
	return min(max(tail/3, minDriftFade), maxDriftFade, tail)
}

// drifting is a sleep session's tail under way, on the output's clock.
type drifting struct {
	start, length time.Duration
	paused        bool
}

// startDriftLocked marks the tail begun as the session completes, so that
// a pause from then on pauses the tail. Callers hold e.mu.
func (e *Engine) startDriftLocked(tail time.Duration) {
	e.drifting = &drifting{start: e.speaker.Position(), length: tail}
	e.publish(Event{Kind: EventDrifting, Phase: Resolution, Status: Running, Duration: tail})
}

// drift plays the soundscape on to the end of the tail begun by
// startDriftLocked. It returns nil when the tail ends or is stopped: the
// session is complete either way; only an output that failed is an error.
func (e *Engine) drift(ctx context.Context) error {
	defer func() {
		e.mu.Lock()
		e.drifting = nil
		e.mu.Unlock()
	}()
	e.mu.Lock()
	fade := DriftFade(e.drifting.length)
	before := e.driftLeftLocked() - fade // a live output played on while the session was saved
	e.mu.Unlock()
	err := e.speaker.Rest(ctx, max(before, 0))
	if err == nil {
		if f, ok := e.speaker.(Finisher); ok {
			f.FadeOut(fade)
		}
		err = e.speaker.Rest(ctx, fade)
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// driftLeftLocked is what is left of the tail. Callers hold e.mu.
func (e *Engine) driftLeftLocked() time.Duration {
	d := e.drifting
	if d == nil {
		return 0
	}
	return max(d.length-(e.speaker.Position()-d.start), 0)
}

// setDriftPaused pauses (or, paused false, resumes) the tail's sound, and
// says so with what is left of it. Callers hold e.mu, which it releases.
func (e *Engine) setDriftPaused(paused bool) {
	d := e.drifting
	if d.paused == paused {
		e.mu.Unlock()
		return
	}
	d.paused = paused
	status := Running
	if paused {
		status = Paused
	}
	e.publish(Event{Kind: EventDrifting, Phase: Resolution, Status: status, Duration: e.driftLeftLocked()})
	e.mu.Unlock()
	if paused {
		e.speaker.Pause()
	} else {
		e.speaker.Resume()
	}
}
