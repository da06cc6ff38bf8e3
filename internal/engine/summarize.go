package engine

import (
	"fmt"
	"time"

	"github.com/lull-dev/lull/internal/human"
)

// Summarize closes a session that will not run on — left running by a
// lull that died, or paused or interrupted and not to be finished — as
// completed and partial. What was spoken is kept; the phases stay as far as
// they came; the summary counts what was done. The status changes through
// the transitions table: a created session, with nothing to keep, or a
// finished one is refused with a *TransitionError.
//
// It changes only s: the caller holds the session's lock and saves it.
func (s *State) Summarize(now time.Time) error {
	from := s.Status
	if err := s.changeStatus(Completed, now); err != nil {
		return err
	}
	s.summarizeEnded(now)
	s.History = append(s.History, Entry{At: now, Phase: s.Phase, Role: RoleSystem,
		Text: fmt.Sprintf("Summarized where it stood (%s): %s of %s, %d sentences kept; completed as partial.",
			stoodWhere(from), human.Clock(s.Elapsed), human.Clock(s.Length), s.Summary.Sentences)})
	return nil
}

// Abandon ends a stored session that will not run on: discarded by the
// listener, or cleaned up after long inactivity. why is written into its
// history. What was spoken stays saved. A finished session is refused with a
// *TransitionError.
//
// It changes only s: the caller holds the session's lock and saves it.
// A session running in this process is abandoned with Engine.Abandon.
func (s *State) Abandon(now time.Time, why string) error {
	from := s.Status
	if err := s.changeStatus(Abandoned, now); err != nil {
		return err
	}
	text := fmt.Sprintf("Discarded where it stood (%s).", stoodWhere(from))
	if why != "" {
		text = why
	}
	s.History = append(s.History, Entry{At: now, Phase: s.Phase, Role: RoleSystem, Text: text})
	s.summarizeEnded(now)
	return nil
}

// summarizeEnded gives a session that ended before its close the summary
// every ended session has: what was done, as far as it came.
func (s *State) summarizeEnded(now time.Time) {
	s.Summary = &Summary{
		Duration:    s.Elapsed,
		Sentences:   s.Spoken(),
		Dropped:     s.Dropped(),
		Partial:     true,
		Tokens:      s.Tokens(),
		Cost:        s.Cost,
		CompletedAt: now,
	}
}

// stoodWhere says how a session was left, for its history.
func stoodWhere(st Status) string {
	if st == Running {
		return "left running when lull stopped"
	}
	return string(st)
}
