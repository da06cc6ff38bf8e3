package engine

import (
	"context"
	"time"
)

// A phase's chime is struck in the last silence of the phase before, a
// moment before its end, not as the new phase's first word begins: heard
// with eyes closed, a bell struck under a line (or under the first
// breath's "in, for four") is two things at once. The strike rings out
// alone and the voice comes in as it fades. The time each phase is given
// does not change: only where the bell falls.

// bellLead is how long before a phase's first word its chime is struck.
const bellLead = 3 * time.Second

// bellAfter is the least quiet between a phase's last line and its chime:
// a line that invites rest ("Rest here, just as you are.") with a bell on
// its heels is heard as one thing interrupting the other (readers heard
// it after breathing, whose last silence can be a breath's gap). The
// phases after take the seconds from their own time; after the farewell,
// a close that ran long rings out a moment past the session's length.
const bellAfter = 3 * time.Second

// chimesInto says whether the move into phase to is marked with a chime:
// not in a sleep session's thinning phases, where a bell would wake the
// drifting listener. transition and lastRest both ask it.
func chimesInto(to Phase, sleep bool) bool { return !thins(to, sleep) }

// lastRest holds the silence d after phase p's last line and, when a
// phase follows with a chime, strikes that chime bellLead before the
// silence ends, the silence at least bellAfter+bellLead; transition then
// strikes no other. After a waking close, whose last chime complete
// strikes, the silence is at least bellAfter.
func (e *Engine) lastRest(ctx context.Context, p Phase, d time.Duration) <-chan error {
	next, ok := p.Next()
	e.mu.Lock()
	sleep := e.st.Sleep
	strike := ok && chimesInto(next, sleep)
	if strike {
		e.rung = true
	}
	e.mu.Unlock()
	if !strike {
		if !ok && !sleep {
			// complete strikes a waking session's last chime next.
			d = max(d, bellAfter)
		}
		return e.rest(ctx, d)
	}
	d = max(d, bellAfter+bellLead)
	before := d - bellLead
	if br, ok := e.speaker.(BellRester); ok {
		return e.async(func() error { return br.RestStriking(ctx, before, d-before) })
	}
	return e.async(func() error {
		if err := e.speaker.Rest(ctx, before); err != nil {
			return err
		}
		e.speaker.Chime()
		return e.speaker.Rest(ctx, d-before)
	})
}
