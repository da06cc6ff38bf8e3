package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
	"unicode"
	"unicode/utf8"
)

// Run plays the session from where it stands to its end: the five phases
// in order, resolution always. It returns nil when the session completed,
// ErrAbandoned when it was cancelled, the context's error when the caller
// stopped it (pause first to leave it resumable), and a *GuideError when
// the guide failed for good with no fallback (the session is then
// interrupted and can Run again).
func (e *Engine) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fresh, err := e.start(cancel)
	if err != nil {
		return err
	}
	defer e.stop()
	defer e.takeAsked(-1) // a call asked ahead for a phase this run never reached
	e.speaker.Resume()    // a speaker paused by an earlier run in this process
	if s, ok := e.speaker.(SoftChimer); ok {
		s.SoftChimes(e.Snapshot().Sleep)
	}
	e.checkpoint()
	switch e.Snapshot().Practice {
	case PracticeBreathe:
		return e.ended(e.breathe(ctx, fresh))
	case PracticeSit:
		return e.ended(e.sit(ctx))
	}

	var lead time.Duration
	switch {
	case fresh:
		e.speaker.Chime()
		lead = opening // the first phase opens on it (see runPhase)
	case e.hasSpoken():
		if err := e.welcomeBack(ctx); err != nil {
			return e.ended(err)
		}
	}
	for {
		p := e.Snapshot().Phase
		if err := e.phaseWithFallback(ctx, p, lead); err != nil {
			return e.ended(err)
		}
		lead = 0
		next, ok := p.Next()
		if !ok {
			break
		}
		if err := e.gate.wait(ctx); err != nil {
			return e.ended(err)
		}
		e.transition(p, next)
	}
	return e.ended(e.complete(ctx))
}

// start moves the session to running. It reports whether this is the very
// first run.
func (e *Engine) start(cancel context.CancelFunc) (fresh bool, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.running {
		return false, errors.New("the session is already running")
	}
	fresh = e.st.Status == Created
	if e.st.Status == Running {
		// Left running by a process that died: that was an interruption.
		if err := e.setStatus(Interrupted); err != nil {
			return false, err
		}
		e.note(EventNotice, "The previous run stopped unexpectedly; resuming where it left off.")
	}
	if err := e.setStatus(Running); err != nil {
		return false, err
	}
	now := e.now()
	if fresh {
		e.st.SealedAt = now // the intention is fixed from here on
		if e.st.Intention != "" {
			e.st.History = append(e.st.History, Entry{At: now, Phase: Atmosphere, Role: RoleUser, Text: e.st.Intention})
		}
	}
	e.startRun(e.guide, now)
	e.running = true
	e.rung = false // a bell struck before an earlier run stopped is not this one's
	e.cancel = cancel
	e.accounted = e.speaker.Position()
	e.gate.open()
	rec := &e.st.Phases[e.st.Phase]
	if e.st.Practice != "" {
		e.beginPractice(now)
	} else if rec.Status == PhasePending {
		e.beginPhase(e.st.Phase, now)
	} else if rec.Status == PhaseActive {
		rec.Budget = e.plan.replan(e.st.Phase, rec.Budget, rec.Spoken, rec.Elapsed, e.capacity(e.st.Phase))
	}
	return fresh, nil
}

func (e *Engine) stop() {
	e.stopPacing() // a later run begins the rhythm afresh
	e.mu.Lock()
	e.running = false
	e.cancel = nil
	e.mu.Unlock()
	e.checkpoint()
}

// ended turns how a run stopped into what Run returns.
func (e *Engine) ended(err error) error {
	e.mu.Lock()
	abandoned := e.st.Status == Abandoned
	var gerr *GuideError
	if !abandoned && errors.As(err, &gerr) {
		e.noteEvent(Event{Kind: EventError, GuideFailed: true, Text: fmt.Sprintf("The guide stopped: %s. The session is interrupted; it can be resumed.", e.plainly(gerr.Err))})
		if serr := e.setStatus(Interrupted); serr != nil {
			e.log.Error("interrupting", "err", serr)
		}
	}
	e.mu.Unlock()
	if abandoned {
		e.forget()
		return ErrAbandoned
	}
	return err
}

// phaseWithFallback runs a phase after lead of silence; when the guide
// fails for good and a fallback exists, the failure is written down and
// the fallback carries on from the same sentence. The listener's eyes are
// closed: silence is the worst answer.
func (e *Engine) phaseWithFallback(ctx context.Context, p Phase, lead time.Duration) error {
	for {
		err := e.runPhase(ctx, p, lead)
		lead = 0 // the silence was held, whatever came of it
		var gerr *GuideError
		if !errors.As(err, &gerr) {
			return err
		}
		e.mu.Lock()
		fb := e.fallback
		if fb == nil || fb == e.guide {
			e.mu.Unlock()
			return err
		}
		why := e.plainly(gerr.Err)
		e.noteEvent(Event{Kind: EventError, GuideFailed: true, Text: fmt.Sprintf("The guide %s failed: %s.", gerr.Guide, why)})
		// The hand-over says why, in the listener's words: they may be
		// waiting on their own server.
		e.note(EventNotice, fmt.Sprintf("%s. Continuing with the %s.", sentence(why), guideWords(fb.Name())))
		e.guide = fb
		e.startRun(fb, e.now())
		e.mu.Unlock()
		e.checkpoint()
	}
}

// beginPhase marks p active and budgets it. Callers hold e.mu.
func (e *Engine) beginPhase(p Phase, now time.Time) {
	rec := &e.st.Phases[p]
	rec.Status = PhaseActive
	rec.StartedAt = now
	rec.Budget = e.plan.plan(p, e.st.Elapsed, e.capacity(p))
	e.st.Phase = p
	e.st.Position = Position{Phase: p, Sentence: rec.Spoken}
	e.publish(Event{Kind: EventPhaseStarted, Phase: p})
}

// transition closes one phase and opens the next, with a chime (struck
// here unless the last silence before it struck it: bell.go) — but in a
// sleep session's thinning phases, where a bell would wake the drifting
// listener, in silence.
func (e *Engine) transition(from, to Phase) {
	e.stopPacing()
	e.mu.Lock()
	now := e.now()
	rec := &e.st.Phases[from]
	rec.Status = PhaseCompleted
	rec.CompletedAt = now
	e.publish(Event{Kind: EventTransition, From: from, Phase: to})
	e.beginPhase(to, now)
	ring := chimesInto(to, e.st.Sleep) && !e.rung // struck already in the last silence (bell.go)
	e.rung = false
	e.mu.Unlock()
	if ring {
		e.speaker.Chime()
	}
	e.checkpoint()
}

// stopPacing ends the breathing pacer, if it runs.
func (e *Engine) stopPacing() {
	e.mu.Lock()
	was := e.pacing
	e.pacing = false
	e.mu.Unlock()
	if pc, ok := e.speaker.(Pacer); ok && was {
		pc.StopPacing()
	}
}

// complete closes the session: the last chime rings out, then the
// summary. A sleep session strikes no chime; its soundscape plays on
// after the summary, for the tail the listener chose.
func (e *Engine) complete(ctx context.Context) error {
	e.mu.Lock()
	sleep, tail := e.st.Sleep, e.st.SleepTail
	e.mu.Unlock()
	drifts := sleep && tail > 0
	if !sleep {
		e.speaker.Chime()
	}
	if err := e.ringOut(ctx, Resolution, e.closingHold(), !drifts); err != nil {
		return err
	}
	e.mu.Lock()
	now := e.now()
	// The status first: a session abandoned in this very moment stays
	// abandoned, its resolution unfinished, as Validate expects.
	err := e.setStatus(Completed)
	if err == nil {
		rec := &e.st.Phases[Resolution]
		rec.Status = PhaseCompleted
		rec.CompletedAt = now
		e.st.Summary = &Summary{
			Duration:    e.st.Elapsed,
			Sentences:   e.st.Spoken(),
			Dropped:     e.st.Dropped(),
			Tokens:      e.st.Tokens(),
			Cost:        e.st.Cost,
			CompletedAt: now,
		}
		e.publish(Event{Kind: EventCompleted, Phase: Resolution})
		if drifts {
			e.startDriftLocked(tail)
		}
	}
	e.mu.Unlock()
	e.checkpoint()
	e.forget()
	if err == nil && drifts {
		return e.drift(ctx)
	}
	return err
}

// ringOut is the last silence of a session or a practice, held in phase
// p for hold, the sound fading out over it when fade says so. Paused
// during it, the run completes once the listener resumes, not behind
// their back.
func (e *Engine) ringOut(ctx context.Context, p Phase, hold time.Duration, fade bool) error {
	if f, ok := e.speaker.(Finisher); ok && fade {
		f.FadeOut(hold)
	}
	if err := e.hold(ctx, p, hold); err != nil {
		return err
	}
	return e.gate.wait(ctx)
}

// startRun records the guide and model a run begins on. Callers hold e.mu.
func (e *Engine) startRun(g Guide, now time.Time) {
	run := Run{Guide: g.Name(), Model: modelOf(g), Server: serverOf(g), StartedAt: now}
	e.st.Guide, e.st.Model, e.st.Server = run.Guide, run.Model, run.Server
	e.st.Runs = append(e.st.Runs, run)
}

// forgetTimeout bounds how long a session's end waits for a provider to
// delete what it stored.
const forgetTimeout = 15 * time.Second

// forget asks each server to delete the responses it stored for the
// session; the ids it could not delete stay in the session.
func (e *Engine) forget() {
	e.mu.Lock()
	stored := slices.Clone(e.st.Stored)
	f := e.forgetter
	e.mu.Unlock()
	if f == nil || len(stored) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), forgetTimeout)
	defer cancel()
	done, err := Forget(ctx, f, stored)
	if err != nil {
		e.log.Warn("forgetting stored responses", slog.Int("stored", len(stored)), slog.Int("forgotten", len(done)), slog.Any("err", err))
	}
	if len(done) == 0 {
		return
	}
	e.mu.Lock()
	// A new slice, not DeleteFunc in place: a checkpoint on another
	// goroutine may be encoding the old one (see checkpoint).
	kept := make([]Stored, 0, len(e.st.Stored))
	for _, s := range e.st.Stored {
		if !slices.Contains(done, s) {
			kept = append(kept, s)
		}
	}
	e.st.Stored = kept
	e.mu.Unlock()
	e.log.Info("stored responses forgotten", slog.Int("count", len(done)))
	e.checkpoint()
}

// Forget asks f to delete the stored responses, each at the server that
// keeps it, and returns those deleted.
func Forget(ctx context.Context, f Forgetter, stored []Stored) (done []Stored, err error) {
	var servers []string
	for _, s := range stored {
		if !slices.Contains(servers, s.Server) {
			servers = append(servers, s.Server)
		}
	}
	var errs []error
	for _, server := range servers {
		var ids []string
		for _, s := range stored {
			if s.Server == server {
				ids = append(ids, s.ID)
			}
		}
		gone, err := f.Forget(ctx, server, ids)
		if err != nil {
			errs = append(errs, err)
		}
		for _, id := range gone {
			done = append(done, Stored{ID: id, Server: server})
		}
	}
	return done, errors.Join(errs...)
}

// hold keeps a silence on the output and counts it in the phase.
func (e *Engine) hold(ctx context.Context, p Phase, d time.Duration) error {
	err := e.speaker.Rest(ctx, d)
	e.account(p)
	return err
}

// account adds the output time played since the last count to the phase
// and the session.
func (e *Engine) account(p Phase) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.accountLocked(p)
}

// accountLocked is account for callers that hold e.mu. Pausing counts
// what played of the line under way, so the time saved is the time the
// screen showed: one clock for both.
func (e *Engine) accountLocked(p Phase) {
	if !e.running {
		return // nothing plays: the output's clock is another run's
	}
	pos := e.speaker.Position()
	d := max(pos-e.accounted, 0)
	e.accounted = pos
	e.st.Phases[p].Elapsed += d
	e.st.Elapsed += d
	if e.unheard {
		e.st.Rendered += d
	}
}

// sentence is s begun with a capital, as plainly's words (made to follow
// a colon) begin a sentence of their own.
func sentence(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// guideWords names a guide in a sentence: "built-in guide", "openai guide".
func guideWords(name string) string {
	if name == GuideBuiltin {
		return "built-in guide"
	}
	return name + " guide"
}
