package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"
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
	phase    Phase
	sleep    bool     // the session drifts toward sleep: see lineDelivery
	start    int      // sentences the phase had spoken when this source began
	issued   int      // sentences handed out: spoken or on their way
	handed   []string // the texts handed out by this source, from index start
	stream   Stream
	call     *call
	windDown bool // the open (or next) call leads onward
	yielded  int  // sentences the open call has given
	speech   Speech
	queue    []string
	ended    bool // the wind-down call is done: the phase's natural end
	reopened bool // a call that failed mid-stream was followed by a fresh one
}

// newSource feeds phase p from sentence spoken on. Callers hold e.mu.
func newSource(e *Engine, p Phase, spoken int) *source {
	return &source{e: e, phase: p, sleep: e.st.Sleep, start: spoken, issued: spoken}
}

// more reports whether the phase wants another sentence.
func (s *source) more() bool {
	if s.ended {
		return false
	}
	b := s.e.budget(s.phase)
	if s.phase == Resolution && s.issued >= b.WindDownAt {
		// The close runs to its natural end: grounding is never cut.
		return s.issued < b.Sentences+6
	}
	return s.issued < b.Sentences
}

// next returns the phase's next sentence, or io.EOF at its natural end.
func (s *source) next(ctx context.Context) (Line, error) {
	for {
		if err := s.e.gate.wait(ctx); err != nil {
			return Line{}, err
		}
		b := s.e.budget(s.phase)
		if !s.windDown && s.issued >= b.WindDownAt {
			// Time to lead onward: whatever the body call had left is dropped.
			s.closeStream()
			s.queue = nil
			s.windDown = true
		}
		if len(s.queue) > 0 {
			text := s.queue[0]
			s.queue = s.queue[1:]
			line := Line{Text: text, Phase: s.phase, Index: s.issued, call: s.call,
				Delivery: lineDelivery(s.phase, s.sleep, s.issued, b.Sentences)}
			s.issued++
			s.handed = append(s.handed, text)
			if s.call != nil {
				s.call.said = append(s.call.said, text)
			}
			return line, nil
		}
		if s.ended {
			return Line{}, io.EOF
		}
		if s.stream == nil {
			if err := s.open(ctx, b); err != nil {
				return Line{}, err
			}
		}
		chunk, err := s.stream.Next(ctx)
		switch {
		case errors.Is(err, io.EOF):
			s.accept(s.speech.Flush())
			s.finishCall()
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
				s.speech = Speech{}
				s.e.log.Warn("guide call failed mid-stream; opening a fresh one", slog.Any("err", err))
				continue
			}
			return Line{}, &GuideError{Guide: s.e.guideName(), Err: err}
		default:
			if s.call.firstText.IsZero() && chunk != "" {
				s.call.firstText = time.Now()
			}
			s.accept(s.speech.Feed(chunk))
		}
	}
}

// accept queues the sentences that pass the safety check, and books what
// the speech cleaner removed on the way. Only those count as given by the
// call: a guide that writes nothing but flagged or removed lines has said
// nothing, and is not asked again and again.
func (s *source) accept(sentences []string) {
	s.e.removed(s.phase, s.speech.Removals())
	for _, text := range sentences {
		if v := s.e.safety.Check(text, Where{Phase: s.phase, Sleep: s.sleep}); v.Flagged() {
			s.e.dropped(s.phase, v)
			continue
		}
		s.queue = append(s.queue, text)
		s.yielded++
	}
}

// pending are the sentences handed out but not yet spoken: the one playing.
func (s *source) pending(spoken int) []string {
	from := min(max(spoken-s.start, 0), len(s.handed))
	return s.handed[from:len(s.handed):len(s.handed)]
}

func (s *source) open(ctx context.Context, b Budget) error {
	req := s.e.request(s.phase, b, s.issued, s.windDown, s.pending)
	g := s.e.current() // one guide writes the call: its name, tags and pauses
	cuer, _ := g.(Cuer)
	pauser, _ := g.(Pauser)
	s.call = &call{guide: g.Name(), cuer: cuer, pauser: pauser, phase: s.phase, windDown: s.windDown, opened: time.Now()}
	st, err := g.Stream(ctx, req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &GuideError{Guide: s.e.guideName(), Err: err}
	}
	s.stream = st
	s.yielded = 0
	s.speech = Speech{}
	return nil
}

// finishCall decides what follows a call that ran to its end: another body
// call while the body still has room, the wind-down once the body has
// nothing more to say, and the phase's end after the wind-down.
func (s *source) finishCall() {
	gave := s.yielded
	s.closeStream()
	s.reopened = false
	switch {
	case s.windDown:
		s.ended = true
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
	if err := s.stream.Close(); err != nil {
		s.e.log.Debug("closing guide stream", slog.Any("err", err))
	}
	if r, ok := s.stream.(Receipted); ok {
		s.e.received(s.phase, r.Receipt(), s.call.said)
	}
	s.stream = nil
}
