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

// The lists (app.Listed, the TUI's rows) also know whether a lull has a
// session open now; these say what that changes, for both.

// LeftRunning reports a session whose status says running while no lull
// has it open: the lull that ran it stopped without saving it paused. It
// is offered resume, summarize or discard.
func LeftRunning(status Status, open bool) bool { return status == Running && !open }

// IdlenessUnlessOpen is Idleness for a listed session: one open in a lull
// now is not idle.
func IdlenessUnlessOpen(status Status, open bool, lastActive, now time.Time) Idle {
	if open {
		return NotIdle
	}
	return Idleness(status, lastActive, now)
}
