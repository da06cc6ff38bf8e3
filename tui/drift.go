package tui

import (
	"fmt"
	"time"

	"lull/engine"
)

// eventDrifting is the engine's word for a sleep session's tail: complete,
// its words ended, its soundscape playing on for the event's Duration
// (what is left of it), Status Running, or Paused while the listener
// paused the sound.
//
// MERGE(issue 10): this is engine.EventDrifting of the engine's part
// (branch i10-engine), which is not on this branch; once merged, use
// engine.EventDrifting here. lull's only reader of it is Drifting.
const eventDrifting engine.EventKind = "drifting"

// Drifting reports whether ev says a sleep session's soundscape plays on
// after its words, and for how much longer.
func Drifting(ev engine.Event) (left time.Duration, ok bool) {
	if ev.Kind != eventDrifting {
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
