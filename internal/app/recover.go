package app

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/sessions"
)

// Listed is one saved session as lull lists it: what its header says, and
// whether a lull has it open now.
type Listed struct {
	sessions.Info
	// Open says a lull has the session open now, Holder its pid (0 when it
	// had not yet written it). Only sessions whose status says running are
	// asked: a paused one may be open too, and opening it says so.
	Open   bool
	Holder int
}

// LeftRunning reports a session whose status says running while no lull
// has it open: the lull that ran it died.
func (l Listed) LeftRunning() bool { return engine.LeftRunning(l.Status, l.Open) }

// Idle is how long the session has waited for the listener.
func (l Listed) Idle(now time.Time) engine.Idle {
	return engine.IdlenessUnlessOpen(l.Status, l.Open, l.LastActive, now)
}

// List lists the saved sessions as the store does, resumable first, and
// asks the lock of each that says running whether a lull still runs it.
func (a *App) List() ([]Listed, []error) {
	infos, problems := a.store.List()
	list := make([]Listed, len(infos))
	for i, in := range infos {
		list[i] = Listed{Info: in}
		if in.Status != engine.Running {
			continue
		}
		pid, held, err := a.store.Held(in.ID)
		if err != nil {
			// Not knowing, say it is open: nothing is offered for a session
			// that may be running.
			problems = append(problems, err)
			held = true
		}
		list[i].Open, list[i].Holder = held, pid
	}
	return list, problems
}

// Held reports whether a lull has session id open, and its pid.
func (a *App) Held(id string) (pid int, held bool, err error) { return a.store.Held(id) }

// Summarize closes a session that will not run on — left running by a lull
// that died, paused, or interrupted — as completed and partial, keeping
// what was spoken, and saves it. A session open in another lull is refused
// with a *sessions.LockedError naming its pid. The notes say what loading
// found and what the provider could not forget.
func (a *App) Summarize(id string) (engine.State, []string, error) {
	return a.end(id, func(st *engine.State, now time.Time) error { return st.Summarize(now) })
}

// Discard abandons a session that will not run on, and saves it. What was
// spoken stays saved; it is never resumed. A session open in another lull
// is refused with a *sessions.LockedError naming its pid.
func (a *App) Discard(id string) (engine.State, []string, error) {
	return a.end(id, func(st *engine.State, now time.Time) error { return st.Abandon(now, "") })
}

// CleanUp abandons a stale session — one that has waited longer than
// engine.StaleAfter — and says so in its history. A session that is not
// stale (resumed in the meantime, or finished) is left alone with an error.
func (a *App) CleanUp(id string) (engine.State, []string, error) {
	return a.end(id, func(st *engine.State, now time.Time) error {
		if engine.Idleness(st.Status, st.UpdatedAt, now) != engine.Stale {
			return fmt.Errorf("session %s is %s, last active %s: not stale, left as it is", st.ID, st.Status, human.Ago(st.UpdatedAt, now))
		}
		return st.Abandon(now, fmt.Sprintf("Cleaned up: %s, no activity since %s.",
			st.Status, st.UpdatedAt.Local().Format("2 Jan 2006 15:04")))
	})
}

// end locks a saved session, ends it with change, asks the provider to
// forget what it stored, and saves it.
func (a *App) end(id string, change func(st *engine.State, now time.Time) error) (engine.State, []string, error) {
	sess, err := a.store.Resume(id)
	if err != nil {
		return engine.State{}, nil, err
	}
	defer sess.Close()
	notes := sess.Report().Notes
	st := sess.State()
	if err := change(&st, a.opts.Now()); err != nil {
		return st, notes, err
	}
	notes = append(notes, a.forgetEnded(&st)...)
	if err := sess.Save(st); err != nil {
		return st, notes, err
	}
	return st, notes, sess.Close()
}

// forgetEnded asks each server to delete the responses it stored for a
// session that has ended, unless the listener keeps them, and drops the
// deleted ones from st.
func (a *App) forgetEnded(st *engine.State) []string {
	if len(st.Stored) == 0 || a.opts.Guide.LLM.KeepResponses {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	done, err := engine.Forget(ctx, forgetter{choice: a.opts.Guide, log: a.log.With("session", st.ID)}, st.Stored)
	left := len(st.Stored) - len(done)
	st.Stored = slices.DeleteFunc(st.Stored, func(s engine.Stored) bool { return slices.Contains(done, s) })
	if left > 0 {
		return []string{fmt.Sprintf("%d of %d responses stored at the provider could not be deleted (%v); they expire there on their own", left, left+len(done), err)}
	}
	return nil
}

// Prunable is a session prune would delete, and the moment its age counts
// from.
type Prunable struct {
	Listed
	Since time.Time // last activity, or when it ended
}

// Prunable lists the sessions older than age, oldest first. An unfinished
// session (created, running, paused, interrupted) counts from its last
// activity; a completed one from when it completed (its summary), an
// abandoned one from when it was abandoned (its last save). A session a
// lull has open now is never listed.
func (a *App) Prunable(age time.Duration) ([]Prunable, []error) {
	now := a.opts.Now()
	cutoff := now.Add(-age)
	list, problems := a.List()
	var out []Prunable
	for _, l := range list {
		if l.Open {
			continue
		}
		since := l.LastActive
		// A session completes before its last save, so one last active
		// before the cutoff completed before it too; only the others need
		// their summary read.
		if l.Status == engine.Completed && !since.Before(cutoff) {
			st, _, err := a.store.Load(l.ID)
			if err != nil {
				problems = append(problems, err)
				continue
			}
			if st.Summary != nil && !st.Summary.CompletedAt.IsZero() {
				since = st.Summary.CompletedAt
			}
		}
		if !since.Before(cutoff) {
			continue
		}
		// Open in a lull now (a paused one on its screen): not old at all.
		if _, held, err := a.store.Held(l.ID); err != nil || held {
			continue
		}
		out = append(out, Prunable{Listed: l, Since: since})
	}
	slices.SortFunc(out, func(x, y Prunable) int { return x.Since.Compare(y.Since) })
	return out, problems
}
