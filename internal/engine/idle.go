package engine

import "time"

// How long an unfinished session waits before lull calls it inactive, and
// then stale and offers to clean it up (seed 003).
const (
	InactiveAfter = 24 * time.Hour
	StaleAfter    = 7 * 24 * time.Hour
)

// Idle is how long a session has waited for its listener.
type Idle int

const (
	NotIdle  Idle = iota // finished, or active within the last InactiveAfter
	Inactive             // unfinished, no activity for over InactiveAfter
	Stale                // unfinished, no activity for over StaleAfter: offered for clean-up
)

func (i Idle) String() string {
	switch i {
	case Inactive:
		return "inactive"
	case Stale:
		return "stale"
	}
	return ""
}

// Idleness says whether a session with this status, last active then, is
// inactive or stale now. Only an unfinished session — created, paused,
// interrupted, or left running — waits; a finished one never does.
func Idleness(status Status, lastActive, now time.Time) Idle {
	if status.Finished() || !status.Known() {
		return NotIdle
	}
	switch waited := now.Sub(lastActive); {
	case waited > StaleAfter:
		return Stale
	case waited > InactiveAfter:
		return Inactive
	}
	return NotIdle
}
