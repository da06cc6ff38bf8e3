package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"
)

// A remote guide may be slow to give the next line: a model thinking
// before its first words, a server that stalls. The listener's eyes are
// closed: a silence far longer than the phase's own is the worst thing
// they can hear. Past stallAfter beyond the line's planned silence, the
// filler speaks a fitting line of its own, and then at the phase's own
// pace while the stall goes on (a session that waits 8 s for every line
// runs long); the guide's call keeps running and its words are used when
// they come. The output's clock measures the wait, as it measures
// everything the listener hears: a paused session does not stall, and a
// render, whose timeline waits for every line, never does. The wall clock
// must agree: under LULL_TIME_SCALE the output runs many times faster
// than any model answers or retries, and a model's latency is real time.

// stallAfter is how long past a line's planned silence the listener
// waits for a remote guide before the filler speaks.
const stallAfter = 8 * time.Second

// firstAfter is stallAfter for a phase's first line, whose call was asked
// ahead while the phase before ended: it has had its time to think.
const firstAfter = 2 * time.Second

// stallPoll is how often, in real time, a read that waits looks at the
// output's clock.
const stallPoll = 100 * time.Millisecond

// errStalled says the line is overdue: the filler is to speak.
var errStalled = errors.New("the guide is slow to give the next line")

// wait is when a line is wanted, on the output's clock and the wall
// clock alike: from at the silence is longer than planned (the views say
// the guide is awaited), from due the filler speaks. Zero: no line is
// awaited in particular.
type wait struct {
	at, due         time.Duration
	atWall, dueWall time.Time
	// want is when the line is planned to begin, with no allowance: while
	// the filler speaks (source.stalled), its next line is due then.
	want     time.Duration
	wantWall time.Time
}

// later is the same wait with the filler due d later.
func (w wait) later(d time.Duration) wait {
	w.due += d
	w.dueWall = w.dueWall.Add(d)
	return w
}

// passed reports whether both clocks have passed a mark.
func passed(pos, mark time.Duration, now, wall time.Time) bool {
	return pos >= mark && !now.Before(wall)
}

// lateGrace is how late a line may be before the views say the guide is
// awaited: a model's usual second of thought is not worth a word.
const lateGrace = 2 * time.Second

// waitFor is the wait for a line whose planned silence ends at at, after
// a line that ends at end (output times). In breathing the line waits for
// its part of the breath anyway: the filler is due stallAfter after the
// last line, and its line then waits for its in-breath like any other.
func (e *Engine) waitFor(p Phase, end, at time.Duration) wait {
	due, want := at+stallAfter, at
	if p == Breathing {
		due, want = end+stallAfter, end // the line waits for its breath anyway
	}
	w := wait{at: min(at+lateGrace, due), due: due, want: want}
	pos, now := e.speaker.Position(), time.Now()
	w.atWall, w.dueWall, w.wantWall = now.Add(w.at-pos), now.Add(w.due-pos), now.Add(w.want-pos)
	return w
}

// piece is what one read of a stream returned.
type piece struct {
	text string
	err  error
}

// pump reads a stream on its own goroutine, one piece ahead at most, so
// that whoever waits for it can also watch the clock.
type pump struct {
	cancel context.CancelFunc
	out    chan piece
	done   chan struct{}
}

func startPump(ctx context.Context, st Stream, log *slog.Logger) *pump {
	ctx, cancel := context.WithCancel(ctx)
	p := &pump{cancel: cancel, out: make(chan piece), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for {
			pc := p.read(ctx, st, log)
			select {
			case p.out <- pc:
			case <-ctx.Done():
				return
			}
			if pc.err != nil {
				return
			}
		}
	}()
	return p
}

// read is one Next; a panic in the stream becomes its error.
func (p *pump) read(ctx context.Context, st Stream, log *slog.Logger) (pc piece) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("guide stream panic", "panic", r, "stack", string(debug.Stack()))
			pc = piece{err: fmt.Errorf("the guide's stream panicked: %v", r)}
		}
	}()
	text, err := st.Next(ctx)
	return piece{text, err}
}

// stop ends the reading and waits until the stream is no longer read.
func (p *pump) stop() {
	p.cancel()
	<-p.done
}

// read is the open call's next piece of text. Reading a remote guide's
// call, it returns errStalled once both clocks pass w.due with nothing
// come.
func (s *source) read(ctx context.Context, w wait) (string, error) {
	if s.pump == nil {
		return s.stream.Next(ctx)
	}
	if pc := s.stashed; pc != nil {
		s.stashed = nil
		return pc.text, pc.err
	}
	switch {
	case s.stalled || s.holdsClose() && s.closeDue(s.e.budget(s.phase)):
		// The filler speaks already: its next line keeps the phase's pace.
		// And a close with only the close's time left is not waited for:
		// the session would run over.
		w.due, w.dueWall = w.want, w.wantWall
	case s.issued == s.start && w.due > w.want+firstAfter:
		// A phase's first line follows a chime: a silence after it is
		// heard at once, and its time is the phase's.
		w.due, w.dueWall = w.want+firstAfter, w.wantWall.Add(firstAfter)
	}
	t := time.NewTicker(stallPoll)
	defer t.Stop()
	watch := w.due > 0 && s.filler != nil
	for {
		select {
		case pc := <-s.pump.out:
			return pc.text, pc.err
		case <-ctx.Done():
			return "", ctx.Err()
		case now := <-t.C:
			if now.Sub(s.call.opened) > callLimit {
				return "", errCallLimit
			}
			if !watch {
				continue
			}
			pos := s.e.speaker.Position()
			if passed(pos, w.at, now, w.atWall) {
				s.e.setWaiting(true)
			}
			if passed(pos, w.due, now, w.dueWall) {
				return "", errStalled
			}
		}
	}
}

// setWaiting records whether the session waits for its remote guide: the
// views say so instead of "speaking".
func (e *Engine) setWaiting(on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.waiting = on
}
