package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"time"
)

// prepared is a line made ready to play.
type prepared struct {
	line Line
	u    Utterance     // nil: text only, the estimate passes as silence
	d    time.Duration // how long it is spoken
}

// runPhase speaks phase p from its current sentence until its budget is
// spent or its wind-down has run out, after lead of silence (the
// session's opening hold; 0: none). The next sentence is fetched and
// synthesized while the current one plays, the first while the lead
// does; the silence after a line is chosen once that is done, knowing
// whether another line follows and how long it is (see restAfter).
func (e *Engine) runPhase(ctx context.Context, p Phase, lead time.Duration) error {
	src := e.takeAsked(p)
	if src == nil {
		e.mu.Lock()
		src = newSource(e, p, e.st.Phases[p].Spoken)
		e.mu.Unlock()
	}
	defer src.closeStream() // a call the phase no longer needs is cut short
	defer e.setWaiting(false)
	ahead, err := e.lead(ctx, src, lead)
	if err != nil {
		return err
	}
	for {
		cur := ahead
		ahead = nil
		if cur != nil && !src.wants(cur.line) {
			break // the clock re-budgeted the phase while this line waited
		}
		if cur == nil {
			if !src.more() {
				break
			}
			var err error
			now := e.speaker.Position()
			if cur, err = e.nextPrepared(ctx, src, e.waitFor(p, now, now)); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return err
			}
		}
		if err := e.gate.wait(ctx); err != nil {
			return err
		}
		if p == Breathing {
			if err := e.align(ctx, cur.line); err != nil {
				return err
			}
			e.countWorded(cur.line)
		}
		e.heard(cur.line)
		e.publish(Event{Kind: EventSentence, Phase: p, Index: cur.line.Index, Text: cur.line.Text, Duration: cur.d})
		end := e.speaker.Position() + cur.d // where the line ends: nothing else plays
		played := e.play(ctx, cur)

		var lookErr error
		if src.more() {
			src.busyUntil = end
			// The silence the line would have as things stand: the next is
			// wanted after it.
			planned := e.restAfter(cur.line, nil, false)
			ahead, lookErr = e.nextPrepared(ctx, src, e.waitFor(p, end, end+planned))
			src.busyUntil = 0
			if errors.Is(lookErr, io.EOF) {
				lookErr = nil
			}
		} else {
			src.askNext(ctx) // the phase's last line plays: the next phase's first is asked for
		}
		if err := src.await(ctx, played); err != nil {
			return err
		}
		entry := e.spoken(cur)
		last := lookErr == nil && (ahead == nil || !src.wants(ahead.line))
		// A line that came late has had part of its silence already.
		waited := max(e.speaker.Position()-end, 0)
		silence := max(e.restAfter(cur.line, ahead, last)-waited, 0)
		var rested <-chan error
		if last {
			rested = e.lastRest(ctx, p, silence)
		} else {
			rested = e.rest(ctx, silence)
		}
		e.checkpoint(entry) // while the rest plays: saving takes no time from it
		if err := src.await(ctx, rested); err != nil {
			return err
		}
		e.account(p)
		if lookErr != nil {
			return lookErr
		}
	}
	return nil
}

// align holds the silence until the line may begin within the part of
// the breath it speaks to: "breathe in" on the inhale, "breathe out" on
// the exhale (see untilCue). The phase's first line starts the pacer, on
// the same output clock.
func (e *Engine) align(ctx context.Context, l Line) error {
	e.mu.Lock()
	now := e.speaker.Position()
	start := !e.pacing
	if start {
		e.pacing, e.anchor = true, now
	}
	wait := e.breath.untilCue(now-e.anchor, e.cue(l))
	e.mu.Unlock()
	if pc, ok := e.speaker.(Pacer); ok && start {
		pc.Pace(now, e.breath)
	}
	if wait <= 0 {
		return nil
	}
	return e.hold(ctx, Breathing, wait)
}

// cue is the part of the breath a breathing line speaks to: as the guide
// that wrote it tags it, when it does; else guessed from its first words
// (a model's lines).
func (e *Engine) cue(l Line) BreathStage { return stageOf(l.call, l.Text) }

// nextPrepared is the phase's next line, synthesized; w says when it is
// wanted (see stall.go).
func (e *Engine) nextPrepared(ctx context.Context, src *source, w wait) (*prepared, error) {
	line, err := src.next(ctx, w)
	if err != nil {
		return nil, err
	}
	return e.prepare(ctx, line)
}

// prepare synthesizes a line. A voice that fails does not stop the
// session: the line goes on as text, and the listener is told once.
func (e *Engine) prepare(ctx context.Context, line Line) (*prepared, error) {
	u, err := e.speaker.Prepare(ctx, line)
	if n, ok := e.speaker.(Notifier); ok {
		for _, text := range n.Notices() {
			e.mu.Lock()
			e.note(EventNotice, text)
			e.mu.Unlock()
		}
	}
	if err == nil && line.Phase == Breathing {
		if pace := e.fitToStage(line, u.Duration()); pace > 0 {
			line.Delivery.Pace = pace
			if quicker, err := e.speaker.Prepare(ctx, line); err == nil {
				u = quicker
			}
		}
	}
	if err == nil {
		return &prepared{line: line, u: u, d: u.Duration()}, nil
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	e.mu.Lock()
	if !e.voiceLost {
		e.voiceLost = true
		e.note(EventNotice, fmt.Sprintf("The voice failed (%v); the session goes on as text.", err))
	}
	e.mu.Unlock()
	return &prepared{line: line, d: EstimateLine(line)}, nil
}

// maxBreathQuicken is how much quicker than the phase's pace a breathing
// line may be said to fit inside its part of the breath.
const maxBreathQuicken = 1.3

// fitToStage is the pace at which a breathing line, d long at its pace,
// ends inside its part of the breath ("Hold, for two." within a two-second
// hold), so the next part's line can begin on time; 0 when it fits as it is.
func (e *Engine) fitToStage(l Line, d time.Duration) float64 {
	room := e.breath.Length(e.cue(l)) - 200*time.Millisecond
	if room <= 0 || d <= room {
		return 0
	}
	return l.Delivery.PaceOr1() * min(float64(d)/float64(room), maxBreathQuicken)
}

// play voices a prepared line off the engine's goroutine, so the next
// line can be prepared meanwhile.
func (e *Engine) play(ctx context.Context, cur *prepared) <-chan error {
	return e.async(func() error {
		if cur.u != nil {
			return e.speaker.Play(ctx, cur.u)
		}
		return e.speaker.Rest(ctx, cur.d)
	})
}

// rest holds a silence off the engine's goroutine.
func (e *Engine) rest(ctx context.Context, d time.Duration) <-chan error {
	return e.async(func() error { return e.speaker.Rest(ctx, d) })
}

// async runs a speaker call on its own goroutine; a panic there becomes
// the call's error.
func (e *Engine) async(f func() error) <-chan error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				e.log.Error("speaker panic", "panic", r, "stack", string(debug.Stack()))
				done <- fmt.Errorf("speaker panicked: %v", r)
			}
		}()
		done <- f()
	}()
	return done
}

// spoken records a line that has been heard and returns its history entry,
// for the checkpoint.
func (e *Engine) spoken(cur *prepared) Entry {
	p := cur.line.Phase
	e.account(p)
	e.mu.Lock()
	rec := &e.st.Phases[p]
	rec.Spoken++
	if cur.line.call != nil && cur.line.call.filler {
		rec.Filled++
	}
	e.st.Position = Position{Phase: p, Sentence: rec.Spoken}
	entry := Entry{At: e.now(), Phase: p, Role: RoleGuide, Text: cur.line.Text}
	e.st.History = append(e.st.History, entry)
	e.plan.learn(cur.line, cur.d)
	rec.Budget = e.plan.replan(p, rec.Budget, rec.Spoken, rec.Elapsed+rec.Budget.Rest, e.capacity(p))
	e.mu.Unlock()
	return entry
}
