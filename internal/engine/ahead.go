package engine

import (
	"context"
	"errors"
	"io"
	"time"
)

// A model slow to its first words — seconds for a local one, longer for
// one that thinks — was asked for a phase's next lines only once the last
// ones had all been handed out, and its latency was heard: as a silence
// the filler covered, and as a phase running late. So a remote guide's
// next call is asked as soon as the last one has ended, while its lines
// are still to be said, and a phase's first call while the phase before
// says its last line: the call's latency passes as they are spoken. The
// open call is read while lines play (await, drain), so that its end is
// known at once.

// drain takes whatever the open remote call has already sent, without
// waiting: its sentences are queued, and at its end the next call is
// asked ahead. A failure is left for next to meet when it reads.
func (s *source) drain(ctx context.Context) error {
	for s.pump != nil && s.stashed == nil {
		select {
		case pc := <-s.pump.out:
			if err := s.take(ctx, pc); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

// await waits for a line or a silence to end, taking what the open
// remote call sends meanwhile, so its end is known (and the next call
// asked) while the listener still has lines to hear.
func (s *source) await(ctx context.Context, done <-chan error) error {
	for {
		var out chan piece
		var limit <-chan time.Time
		var timer *time.Timer
		if s.pump != nil && s.stashed == nil {
			out = s.pump.out
			timer = time.NewTimer(time.Until(s.call.opened.Add(callLimit)))
			limit = timer.C
		}
		select {
		case err := <-done:
			stopTimer(timer)
			return err
		case <-limit:
			s.cut()
			if err := s.askAhead(ctx); err != nil {
				s.e.log.Debug("asking ahead", "err", err)
			}
		case pc := <-out:
			stopTimer(timer)
			if err := s.take(ctx, pc); err != nil {
				// The line plays on; what failed is met at the next line.
				s.e.log.Debug("asking ahead", "err", err)
			}
		}
	}
}

func stopTimer(t *time.Timer) {
	if t != nil {
		t.Stop()
	}
}

// take is one piece of the open call read ahead: its text queued, its
// end met (and the next call asked), or its failure kept for next.
func (s *source) take(ctx context.Context, pc piece) error {
	switch {
	case errors.Is(pc.err, io.EOF):
		s.accept(s.speech.Flush())
		s.finishCall()
		return s.askAhead(ctx)
	case pc.err != nil:
		s.stashed = &pc
		return nil
	}
	s.took(pc.text)
	return nil
}

// askAhead opens the phase's next call while the last one's lines are
// still queued: another body call, or the wind-down once the queued lines
// reach the point where the phase leads onward (the lines past it are
// dropped, as when that point comes while a body call is open). Once the
// phase's last call has ended, it is the next phase's first (askNext).
func (s *source) askAhead(ctx context.Context) error {
	if s.ended {
		s.askNext(ctx)
		return nil
	}
	if !s.remote || s.filler == nil || s.stream != nil || s.fillNext || len(s.queue) == 0 || s.ahead > 0 {
		return nil // (lines of two calls ahead would lose which call wrote them)
	}
	b := s.e.budget(s.phase)
	if !s.windDown && s.issued+len(s.queue) >= b.WindDownAt {
		keep := b.WindDownAt - s.issued
		if keep <= 0 || s.phase == Breathing {
			// The lead is due now: next opens it. In breathing the clock
			// moves the lead as the breaths go (replan): asked only then.
			return nil
		}
		s.queue = s.queue[:keep]
		s.windDown = true
	}
	s.ahead, s.aheadOf = len(s.queue), s.call
	return s.open(ctx, b)
}

// askNext opens the next phase's first call while this phase's last line
// is still to be said, with the budget the next phase is planned to have
// when it begins, on time. The next phase takes it (takeAsked); the
// budget it then has decides what of the reply it says.
func (s *source) askNext(ctx context.Context) {
	next, ok := s.phase.Next()
	if !ok || !s.remote || s.filler == nil || s.e.asked != nil || s.more() {
		return // (asked once the phase's last line is handed out: not minutes ahead)
	}
	e := s.e
	e.mu.Lock()
	mine := e.guide == s.guide && e.st.Practice != PracticeBreathe
	e.mu.Unlock()
	if !mine {
		return
	}
	// The phase needs no more of its call: what the chain lacks is known.
	s.closeStream()
	e.mu.Lock()
	rec := e.st.Phases[s.phase]
	b := e.plan.plan(next, e.st.Elapsed+max(rec.Budget.Target-rec.Elapsed, 0), e.capacity(next))
	n := newSource(e, next, e.st.Phases[next].Spoken)
	n.before = s.pending(rec.Spoken)
	e.mu.Unlock()
	if err := n.open(ctx, b); err != nil {
		e.log.Debug("asking the next phase's first lines ahead", "err", err)
		return
	}
	n.before = nil // said by the time the phase asks again
	e.asked = n
}

// takeAsked is the source asked ahead for phase p, if the guide that
// asked is still in charge; any other is closed.
func (e *Engine) takeAsked(p Phase) *source {
	s := e.asked
	e.asked = nil
	if s == nil {
		return nil
	}
	if s.phase == p && s.guide == e.current() {
		return s
	}
	s.closeStream()
	return nil
}
