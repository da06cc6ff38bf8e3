package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/human"
)

// A sit (lull sit) is a silent, unguided session: a soundscape, a bell at
// its start, a bell every so often if the listener asked for one, and a
// double bell at its end. Like a breathing practice it is a session whose
// only phase is breathing (beginPractice, completePractice), so it saves,
// pauses, resumes and recovers like any session, and its minutes count.
//
// A sit's Pattern is its interval bell, as ParseBell reads it ("5m"; ""
// for no bell between the first and the last). A sit of Length 0 is
// open-ended: it goes on until the listener ends it (End), or until
// MaxSitLength.

// PracticeSit is a silent sit with bells (lull sit).
const PracticeSit = "sit"

// A sit's bounds: a timed sit lasts 1 to 240 whole minutes, and an
// open-ended one ends itself at MaxSitLength; its interval bell rings
// every 1 minute at the least.
const (
	MinSitLength = time.Minute
	MaxSitLength = 240 * time.Minute
	MinSitBell   = time.Minute
	// endBellGap is the time between the two strokes of a sit's last bell.
	endBellGap = 3 * time.Second
)

// EventBell marks a sit's bell as it rings: Index is 0 for the first
// bell, n for the nth interval bell, -1 for the last; Duration is the
// sit's time at the bell.
const EventBell EventKind = "bell"

// ParseBell reads a sit's interval bell: whole minutes, "5" or "5m" (or
// a duration in whole minutes, "1h"); its name is how it is saved, "5m".
func ParseBell(s string) (time.Duration, string, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	d, err := time.ParseDuration(t)
	if err != nil {
		var n int
		if _, serr := fmt.Sscanf(t, "%d", &n); serr != nil || fmt.Sprint(n) != t || n < 0 || n > 100000 {
			return 0, "", fmt.Errorf("bell %q: give minutes, like 5 or 5m", strings.TrimSpace(s))
		}
		d = time.Duration(n) * time.Minute
	}
	if d%time.Minute != 0 || d < MinSitBell || d > MaxSitLength {
		return 0, "", fmt.Errorf("bell %q: a bell rings every whole number of minutes from %d to %d",
			strings.TrimSpace(s), int(MinSitBell.Minutes()), int(MaxSitLength.Minutes()))
	}
	return d, fmt.Sprintf("%dm", int(d.Minutes())), nil
}

// checkSitLength refuses a sit's length outside its bounds: 0 is an
// open-ended sit.
func checkSitLength(d time.Duration) error {
	if d == 0 {
		return nil
	}
	if d%time.Minute != 0 || d < MinSitLength || d > MaxSitLength {
		return fmt.Errorf("a sit lasts a whole number of minutes from %d to %d, not %s",
			int(MinSitLength.Minutes()), int(MaxSitLength.Minutes()), human.Duration(d))
	}
	return nil
}

// CheckSitBell refuses a sit's bell that does not read, or that would
// not ring before its end: the one check, for the session file and the
// command line alike.
func CheckSitBell(bell string, length time.Duration) error {
	if bell == "" {
		return nil
	}
	d, name, err := ParseBell(bell)
	if err != nil {
		return err
	}
	if name != bell {
		return fmt.Errorf("bell %q is saved as %q", bell, name)
	}
	if length > 0 && d >= length {
		return fmt.Errorf("a bell every %s would not ring within a sit of %s: make it shorter than the sit",
			human.Duration(d), human.Duration(length))
	}
	return nil
}

// sitBell is the sit's interval bell; 0 when it has none. Callers hold e.mu.
func (e *Engine) sitBell() time.Duration {
	d, _, err := ParseBell(e.st.Pattern)
	if err != nil {
		return 0
	}
	return d
}

// sitStop is where a sit's time runs out: its length, or MaxSitLength
// for an open-ended one, less the last bell's two strokes and ring.
// Callers hold e.mu.
func (e *Engine) sitStop() time.Duration {
	length := e.st.Length
	if length == 0 {
		length = MaxSitLength
	}
	return length - endBellGap - closingTail
}

// ring strikes a sit's bell and says so: at, the sit's time it belongs
// to, or (at < 0) the time sat now. An interval bell is the bell of its
// minute even when it rings a moment late (a busy machine, a clock run
// hundreds of times fast that moves in steps of seconds). Callers do not
// hold e.mu.
func (e *Engine) ring(index int, at time.Duration) {
	e.speaker.Chime()
	e.mu.Lock()
	if at < 0 {
		at = e.st.Elapsed
	}
	e.publish(Event{Kind: EventBell, Phase: Breathing, Index: index, Duration: at})
	e.mu.Unlock()
}

// sit runs a sit from where it stands: a bell as it begins (or begins
// again), the interval bells on the sit's own clock — which stands still
// while paused, so a pause keeps the schedule — and the last bell when
// its time is up or the listener ends it.
func (e *Engine) sit(ctx context.Context) error {
	sctx, end := context.WithCancel(ctx)
	defer end()
	e.mu.Lock()
	if e.sitEnded {
		e.mu.Unlock()
		return e.completeSit(ctx)
	}
	e.endSit = end
	every := e.sitBell()
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.endSit = nil
		e.mu.Unlock()
	}()
	e.ring(0, -1)
	// rung is the last interval bell rung: those before where the sit
	// resumes were heard in an earlier run. A bell the output's clock
	// passed while the engine was busy rings late rather than never.
	rung := time.Duration(0)
	if every > 0 {
		e.mu.Lock()
		rung = e.st.Elapsed / every
		e.mu.Unlock()
	}
	for {
		if err := e.gate.wait(sctx); err != nil && ctx.Err() != nil {
			return err
		}
		e.account(Breathing)
		e.mu.Lock()
		el, stop, ended := e.st.Elapsed, e.sitStop(), e.sitEnded
		e.mu.Unlock()
		if ended || el >= stop {
			break
		}
		next, bell := stop, 0
		if every > 0 {
			if k := rung + 1; k*every < stop {
				next, bell = k*every, int(k)
			}
		}
		err := e.hold(sctx, Breathing, max(next-el, 0))
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if sctx.Err() != nil {
			break // ended
		}
		if err != nil {
			return err
		}
		if bell > 0 {
			rung = time.Duration(bell)
			e.ring(bell, time.Duration(bell)*every)
			e.checkpoint()
		}
	}
	return e.completeSit(ctx)
}

// completeSit strikes the last bell twice and completes the sit as a
// breathing practice completes.
func (e *Engine) completeSit(ctx context.Context) error {
	e.mu.Lock()
	at := min(e.st.Elapsed, e.sitStop()) // a sit whose time ran out ends at its stop, however late the clock saw it
	e.mu.Unlock()
	e.ring(-1, at)
	if err := e.hold(ctx, Breathing, endBellGap); err != nil {
		return err
	}
	return e.completePractice(ctx)
}

// End completes a running sit now, with its last bell: the way an
// open-ended sit ends (a timed one may end early too). A paused sit is
// resumed to ring it. Quitting, by contrast, pauses and saves.
func (e *Engine) End() error {
	e.mu.Lock()
	if e.st.Practice != PracticeSit {
		e.mu.Unlock()
		return errors.New("only a sit ends on request: cancel a session instead")
	}
	// A run that has not reached its wait yet (a resume still ringing its
	// first bell) ends as it gets there: sit reads sitEnded first.
	if !e.running || e.sitEnded || (e.st.Status != Running && e.st.Status != Paused) {
		e.mu.Unlock()
		return errors.New("the sit is not sitting here")
	}
	e.sitEnded = true
	end, paused := e.endSit, e.st.Status == Paused
	e.mu.Unlock()
	if end != nil {
		end()
	}
	if paused {
		return e.Resume()
	}
	return nil
}
