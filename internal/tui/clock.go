package tui

import "github.com/lull-dev/lull/internal/engine"

// The engine counts a session's time sentence by sentence: while a session
// runs, its clock includes the sentence being spoken; once paused (or
// interrupted) it reads the end of the last sentence spoken in full, which
// can be seconds behind the clock the listener just saw. A clock that steps
// back looks like lost time, so the screen's clock freezes where it was
// when the session stopped moving and never goes back: it moves on once
// the engine's own count passes it.

// steady is the progress to show next, from what is shown now and the
// engine's latest, under the status the screen shows.
func steady(shown, next engine.Progress, status engine.Status) engine.Progress {
	moving := status == engine.Running || status == engine.Completed
	out := next
	out.Status = status
	if moving {
		out.Elapsed = max(next.Elapsed, shown.Elapsed)
	} else {
		out.Elapsed = shown.Elapsed
	}
	if next.Phase != shown.Phase {
		return out // a new phase starts its own clock
	}
	if moving {
		out.PhaseElapsed = max(next.PhaseElapsed, shown.PhaseElapsed)
	} else {
		out.PhaseElapsed = shown.PhaseElapsed
	}
	return out
}

// settle is the status to show, given the engine's: the listener's own
// pause or resume shows at once, and the engine's older word does not flip
// it back before the engine has caught up. Any other status (interrupted,
// completed) is the engine's to tell.
func (v *sessionView) settle(engineSays engine.Status) engine.Status {
	if v.asked == "" {
		return engineSays
	}
	if engineSays == v.asked || (engineSays != engine.Running && engineSays != engine.Paused) {
		v.asked = ""
		return engineSays
	}
	return v.asked
}

// ask shows the status the listener asked for (space), before the engine
// confirms it.
func (v *sessionView) ask(s engine.Status) {
	v.asked = s
	v.status = s
	v.progress.Status = s
}

// unask forgets what the listener asked for: the engine refused it.
func (v *sessionView) unask() { v.asked = "" }
