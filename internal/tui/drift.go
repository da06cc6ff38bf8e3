package tui

import (
	"fmt"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Drifting reports whether ev says a sleep session's soundscape plays on
// after its words (complete, its sound going on for the event's Duration,
// Status Running, or Paused while the listener paused the sound), and for
// how much longer. lull's only reader of engine.EventDrifting.
func Drifting(ev engine.Event) (left time.Duration, ok bool) {
	if ev.Kind != engine.EventDrifting {
		return 0, false
	}
	return ev.Duration, true
}

// DriftLine says, quietly, that the words have ended and the sound plays
// on: stop is the key or signal that stops it.
func DriftLine(left time.Duration, stop string) string {
	return fmt.Sprintf("Drifting · the sound plays on for %s · %s stops it", minutes(left), stop)
}

// minutes is a tail as a person reads it: whole minutes, rounded up.
func minutes(d time.Duration) string {
	if d < time.Minute {
		return "less than a minute"
	}
	return fmt.Sprintf("%d min", int((d+time.Minute-1)/time.Minute))
}
