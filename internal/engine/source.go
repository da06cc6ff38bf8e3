package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/speech"
)

// GuideError is a guide's failure that the engine could not ride out.
type GuideError struct {
	Guide string
	Err   error
}

func (e *GuideError) Error() string { return fmt.Sprintf("guide %s: %v", e.Guide, e.Err) }
func (e *GuideError) Unwrap() error { return e.Err }

// source feeds one phase with checked sentences: it opens the guide's
// calls — the body, then the wind-down — splits their text and drops what
// the safety check flags. It runs on the engine's goroutine only.
type source struct {
	e        *Engine
	guide    Guide // the guide in charge when the source began
	phase    Phase
	sleep    bool     // the session drifts toward sleep: see lineDelivery
	start    int      // sentences the phase had spoken when this source began
	issued   int      // sentences handed out: spoken or on their way
	handed   []string // the texts handed out by this source, from index start
	stream   Stream
	call     *call
	windDown bool // the open (or next) call leads onward
	yielded  int  // sentences the open call has given
	speech   speech.Speech
	queue    []string
	ended    bool // the wind-down call is done: the phase's natural end
	reopened bool // a call that failed mid-stream was followed by a fresh one
	// ahead counts the queued lines that an earlier call wrote, before the
	// open call's own: the open call was asked ahead (ahead.go); aheadOf
	// is the call that wrote them.
	ahead   int
	aheadOf *call

	// A remote guide's calls are watched for what they fail to say (see
	// filler.go): filler is the guide that speaks in their place, nil when
	// the guide is not remote or there is none.
	remote   bool
	filler   Guide
	note     string   // said to the guide in its next call: its last reply was unusable
	retried  bool     // the open call asks again after an unusable reply
	fillNext bool     // the next call is the filler's: the guide's retry was unusable too
	pump     *pump    // reads the open remote call in the background, so a stall is noticed
	stashed  *piece   // a failure drain met, for next to read
	before   []string // the phase before's lines still to be said, for a first call asked ahead
	stalled  bool     // the filler speaks: the guide has said nothing since it stalled
	// lastStage is the part of the breath the last line handed out spoke
	// to, in breathing (-1: none); see follows.
	lastStage BreathStage
	// busyUntil is where on the output's clock the line now playing ends
	// (0: none plays); closed says resolution's close has been chosen.
	busyUntil time.Duration
	closed    bool
}

// newSource feeds phase p from sentence spoken on. Callers hold e.mu.
func newSource(e *Engine, p Phase, spoken int) *source {
	s := &source{e: e, phase: p, sleep: e.st.Sleep, start: spoken, issued: spoken, lastStage: -1, guide: e.guide}
	if _, ok := e.guide.(Remote); ok {
		s.remote = true
		if e.filler != nil && e.filler != e.guide {
			s.filler = e.filler
		}
	}
	return s
}

// more reports whether the phase wants another sentence.
func (s *source) more() bool {
	if s.closed {
		return len(s.queue) > 0 // the close is chosen: it is what is queued
	}
	if s.ended {
		// The last call's lines, written ahead, as far as the phase has room.
		return len(s.queue) > 0 && s.issued < s.e.budget(s.phase).Sentences
	}
	return s.issued < s.e.budget(s.phase).Sentences
}

// wants reports whether a line read ahead still fits the phase: the clock
// may have re-budgeted it while the line waited. The close, once chosen,
// is what fits.
func (s *source) wants(l Line) bool {
	return s.closed || l.Index < s.e.budget(s.phase).Sentences
}

// next returns the phase's next sentence, or io.EOF at its natural end.
// w says when the line is wanted on the output's clock, for a remote
// guide that is slow to give it (see stall.go).
func (s *source) next(ctx context.Context, w wait) (Line, error) {
	for {
		if err := s.e.gate.wait(ctx); err != nil {
			return Line{}, err
		}
		b := s.e.budget(s.phase)
		if !s.windDown && s.issued >= b.WindDownAt {
			// Time to lead onward: whatever the body call had left is dropped.
			s.closeStream()
			s.queue, s.ahead = nil, 0
			s.windDown = true
		}
		if err := s.drain(ctx); err != nil {
			return Line{}, err
		}
		if len(s.queue) > 0 && !s.holdsClose() {
			text := s.queue[0]
			s.queue = s.queue[1:]
			c := s.call
			if s.ahead > 0 {
				s.ahead--
				c = s.aheadOf
				if s.ahead == 0 && s.stream == nil && len(s.queue) > 0 {
					// The open call's lines are next, and it has ended: ask on.
					if err := s.askAhead(ctx); err != nil {
						return Line{}, err
					}
				}
			}
			return s.hand(text, c, b), nil
		}
		if s.ended && !s.closed && s.phase == Resolution && s.ahead == 0 {
			s.chooseClose() // after any lines written ahead of it
			continue
		}
		if s.ended {
			return Line{}, io.EOF
		}
		if s.stream == nil {
			if err := s.open(ctx, b); err != nil {
				return Line{}, err
			}
		}
		chunk, err := s.read(ctx, w)
		switch {
		case errors.Is(err, errStalled):
			if line, ok := s.fillStall(ctx, b); ok {
				return line, nil
			}
			w = w.later(stallAfter) // nothing fits now: wait on, and look again
		case errors.Is(err, io.EOF):
			s.accept(s.speech.Flush())
			s.finishCall()
			if err := s.askAhead(ctx); err != nil {
				return Line{}, err
			}
		case err != nil && s.holdsClose() && len(s.queue) > 0 && ctx.Err() == nil:
			// The close broke off: what came of it is said, chosen to fit.
			s.e.log.Warn("guide call failed in resolution's close; saying what came", slog.Any("err", err))
			s.accept(s.speech.Flush())
			s.closeStream()
			s.ended = true
			s.chooseClose()
		case err != nil:
			gave := s.yielded
			s.closeStream()
			if ctx.Err() != nil {
				return Line{}, ctx.Err()
			}
			if gave > 0 && !s.reopened {
				// Lines of this call were already out, so the guide could not
				// retry it: one fresh call carries on from what was said.
				s.reopened = true
				s.speech = speech.Speech{}
				s.e.log.Warn("guide call failed mid-stream; opening a fresh one", slog.Any("err", err))
				continue
			}
			return Line{}, &GuideError{Guide: s.e.guideName(), Err: err}
		case errors.Is(err, errCallLimit):
			s.cut()
			if err := s.askAhead(ctx); err != nil {
				return Line{}, err
			}
		default:
			s.took(chunk)
		}
	}
}

// took queues what a chunk of the open call completes.
func (s *source) took(chunk string) {
	if s.call.firstText.IsZero() && chunk != "" {
		s.call.firstText = time.Now()
	}
	s.call.chars += len(strings.TrimSpace(chunk))
	s.accept(s.speech.Feed(chunk))
}

// hand gives out the phase's next line, from call c.
func (s *source) hand(text string, c *call, b Budget) Line {
	line := Line{Text: text, Phase: s.phase, Index: s.issued, call: c,
		Delivery: lineDelivery(s.phase, s.sleep, s.issued, b.Sentences)}
	if s.phase == Breathing {
		s.lastStage = stageOf(c, text)
	}
	s.issued++
	s.handed = append(s.handed, text)
	if c != nil {
		c.said = append(c.said, text)
		if !c.filler {
			s.e.setWaiting(false) // the guide's own words again
			s.stalled = false
		}
	}
	return line
}

// accept queues the sentences that pass the screen, and books what the
// speech cleaner removed on the way. Only those count as given by the
// call: a guide that writes nothing but flagged or removed lines has said
// nothing, and is not asked again and again.
func (s *source) accept(sentences []string) {
	s.e.removed(s.phase, s.speech.Removals())
	for _, text := range s.screen(sentences, s.call != nil && s.call.filler) {
		s.queue = append(s.queue, text)
		s.yielded++
	}
}

// screen is what of a call's sentences may be said: those that pass the
// safety check, and are not a remote guide saying again what was said
// (repeat.go). Every guide's words pass the check, the filler's too.
func (s *source) screen(sentences []string, filler bool) []string {
	var out []string
	for _, text := range sentences {
		if s.remote && !filler && s.e.repeats(text, slices.Concat(s.handed, s.queue, out)) {
			s.e.repeated(s.phase, text)
			continue
		}
		if v := s.e.screen.Sentence(text, Place{Phase: s.phase, Sleep: s.sleep}); v.Flagged() {
			s.e.dropped(s.phase, v)
			if s.call != nil {
				s.call.dropped++
			}
			continue
		}
		out = append(out, text)
	}
	return out
}

// pending are the sentences handed out but not yet spoken: the one playing.
// A call asked ahead (ahead.go) counts the lines still queued as well.
// A phase's first call asked ahead counts the last lines of the phase
// before it (before), which are still to be said.
func (s *source) pending(spoken int) []string {
	from := min(max(spoken-s.start, 0), len(s.handed))
	return slices.Concat(s.before, s.handed[from:], s.queue)
}

// open starts the phase's next call: the guide's, or the filler's when
// it writes the share of a call the guide could not.
func (s *source) open(ctx context.Context, b Budget) error {
	req := s.e.request(s.phase, b, s.issued+len(s.queue), s.windDown, s.pending)
	g := s.e.current() // one guide writes the call: its name, tags and pauses
	filling := s.fillNext && s.filler != nil
	if filling {
		g = s.filler
	} else {
		req.Note, s.note = s.note, ""
	}
	s.fillNext = false
	cuer, _ := g.(Cuer)
	pauser, _ := g.(Pauser)
	s.call = &call{guide: g.Name(), cuer: cuer, pauser: pauser, phase: s.phase, windDown: s.windDown, opened: time.Now(), filler: filling}
	st, err := g.Stream(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &GuideError{Guide: g.Name(), Err: err}
	}
	s.stream = st
	s.yielded = 0
	s.speech = speech.Speech{}
	if s.filler != nil && !filling {
		s.pump = startPump(ctx, st, s.e.log)
	}
	return nil
}

// finishCall decides what follows a call that ran to its end: another body
// call while the body still has room, the wind-down once the body has
// nothing more to say, and the phase's end after the wind-down. A remote
// guide's call that gave nothing usable is asked again, then filled (see
// unusable).
func (s *source) finishCall() {
	gave := s.yielded
	c := s.call
	s.closeStream()
	s.reopened = false
	if gave > 0 {
		s.retried = false
	} else if s.unusable(c) {
		return // the same call again, or the filler's
	}
	switch {
	case s.windDown:
		s.ended = true // resolution's close is chosen in next, knowing what plays
	case gave == 0:
		s.windDown = true
	}
}

// closeStream ends the open call, whether it ran to its end or is cut
// short, and books its receipt.
func (s *source) closeStream() {
	if s.stream == nil {
		return
	}
	if s.pump != nil {
		s.pump.stop() // the stream is read no more before it is closed
		s.pump = nil
	}
	s.stashed = nil
	if err := s.stream.Close(); err != nil {
		s.e.log.Debug("closing guide stream", slog.Any("err", err))
	}
	switch r, ok := s.stream.(Receipted); {
	case ok:
		s.e.received(s.phase, r.Receipt(), s.call.said, s.call.filled)
	case s.call.filler:
		s.e.saidElsewhere(s.call.said)
	default:
		s.e.saidElsewhere(s.call.filled)
	}
	s.stream = nil
}
