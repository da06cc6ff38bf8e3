package engine

import (
	"fmt"
	"slices"
	"time"
)

// Status is where a session stands in its lifecycle.
type Status string

const (
	Created     Status = "created"
	Running     Status = "running"
	Paused      Status = "paused"
	Interrupted Status = "interrupted"
	Completed   Status = "completed"
	Abandoned   Status = "abandoned"
)

// transitions is the one table that says how a status may change.
// A provider error is data, not a dead end: interrupted goes back to running.
// A session ends completed when its resolution closes (from running), or
// when the listener summarizes one they will not finish: left running by a
// lull that died, paused or interrupted, it is completed as partial and
// keeps what was spoken (State.Summarize). Any unfinished session can be
// abandoned: cancelled, discarded, or cleaned up when stale.
var transitions = map[Status][]Status{
	Created:     {Running, Abandoned},
	Running:     {Paused, Interrupted, Completed, Abandoned},
	Paused:      {Running, Completed, Abandoned},
	Interrupted: {Running, Completed, Abandoned},
	Completed:   {},
	Abandoned:   {},
}

// TransitionError is returned for a status change the table does not allow.
type TransitionError struct {
	From, To Status
}

func (e *TransitionError) Error() string {
	return fmt.Sprintf("a %s session cannot become %s", e.From, e.To)
}

// changeStatus moves s to status to, if the table allows it. It is the only
// place a status changes: the engine's setStatus and the summarize and
// discard of a stored session all come through here.
func (s *State) changeStatus(to Status, now time.Time) error {
	if !CanTransition(s.Status, to) {
		return &TransitionError{From: s.Status, To: to}
	}
	s.Status = to
	s.UpdatedAt = now
	return nil
}

// CanTransition reports whether the table allows from → to.
func CanTransition(from, to Status) bool {
	return slices.Contains(transitions[from], to)
}

// Known reports whether s is one of the six statuses.
func (s Status) Known() bool {
	_, ok := transitions[s]
	return ok
}

// Finished reports whether the session can never run again.
func (s Status) Finished() bool { return s == Completed || s == Abandoned }

// Resumable reports whether the session can be picked up and run on.
// A session left running by a process that died counts: it resumes as
// an interruption.
func (s Status) Resumable() bool {
	return s == Created || s == Paused || s == Interrupted || s == Running
}
