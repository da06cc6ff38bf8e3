package engine

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/lull-dev/lull/internal/speech"
)

// A remote guide's reply may hold nothing that can be said: empty, a
// refusal, or every sentence removed or withheld. Taken as the phase's
// natural end, one such reply once cut a four-minute phase to half a
// minute. Instead the call is asked again, once, with a note on what
// went wrong; when that reply is unusable too, the filler (the built-in
// guide) writes that call's share, from where the session is, and the
// phase goes on. A phase never ends early because of what a model did.

// unusable decides what follows call c of a remote guide, which gave
// nothing that can be said: true when another call (the retry, or the
// filler's) is to be opened in its place; false for the phase to move on,
// as it does for a guide that has nothing more to say.
func (s *source) unusable(c *call) bool {
	if !s.remote || c == nil || c.filler {
		return false
	}
	attrs := []any{slog.String("phase", s.phase.String()), slog.Bool("wind_down", s.windDown),
		slog.Int("chars", c.chars), slog.Int("withheld", c.dropped)}
	switch {
	case !s.retried:
		s.retried = true
		s.note = noteFor(c)
		s.e.log.Warn("the guide's reply had nothing to say; asking again", attrs...)
		return true
	case s.filler != nil:
		s.retried = false
		s.fillNext = true
		s.e.log.Warn("the guide's reply had nothing to say again; the built-in guide says its share", attrs...)
		return true
	}
	s.retried = false
	s.e.log.Warn("the guide's reply had nothing to say again; the phase moves on", attrs...)
	return false
}

// noteFor tells the guide why its reply could not be used, as a short
// clause: the guide says the rest in its own words (prompts/llm's note).
func noteFor(c *call) string {
	switch {
	case c.chars == 0:
		return "it was empty"
	case c.dropped > 0:
		return "the safety check withheld every sentence of it; keep to calm, gentle guidance that never strains the breath or the body"
	}
	return "it held nothing that can be spoken to the listener as guidance (no notes, headings, refusals or remarks about yourself)"
}

// fillLines is how many body lines the filler is asked for when the
// guide stalls past the body: one, or in breathing a breath's worth, to
// find one that begins on the in-breath.
func fillLines(p Phase) int {
	if p == Breathing {
		return 4
	}
	return 1
}

// stallRequest is what the filler is asked while the open call stalls:
// the call's own request — the body from where the session is, or the
// lead onward — save where a lead would not fit: in breathing (the next
// part of the breath is wanted) and in resolution's close while there is
// time for more than the close (its lead is the farewell), the body goes
// on past its planned end instead. It reports whether the lead was asked.
func (s *source) stallRequest(b Budget) (Request, bool) {
	lead := s.windDown && s.phase != Breathing && (s.phase != Resolution || s.closeDue(b))
	if !lead && s.issued >= b.WindDownAt {
		b.WindDownAt = s.issued + fillLines(s.phase)
		b.Sentences = max(b.Sentences, b.WindDownAt+1)
	}
	return s.e.request(s.phase, b, s.issued, lead, s.pending), lead
}

// closeDue reports whether resolution has time left for its close only:
// a close that stalls then is the filler's to say, farewell and all.
func (s *source) closeDue(b Budget) bool {
	return b.Sentences-s.issued <= minClose
}

// fillStall is the filler's next fitting line while the open call
// stalls, from where the session is (the filler skips what was said or
// is pending), counted as the phase's next. In breathing a line is said
// only on the part of the breath it belongs to (see follows): it waits
// for that part like any other line, so the rhythm is never broken. When the filler was
// asked for the lead, it says the whole of it in the stalled call's place,
// and the phase ends after it: the guide's call is given up.
func (s *source) fillStall(ctx context.Context, b Budget) (Line, bool) {
	if s.filler == nil {
		return Line{}, false
	}
	req, lead := s.stallRequest(b)
	lines, err := readAll(ctx, s.filler, req)
	cuer, _ := s.filler.(Cuer)
	pauser, _ := s.filler.(Pauser)
	c := &call{guide: s.filler.Name(), cuer: cuer, pauser: pauser, phase: s.phase, opened: time.Now(), filler: true, windDown: lead}
	lines = s.screen(lines, true)
	for i, text := range lines {
		if s.phase == Breathing && !s.follows(stageOf(c, text)) {
			continue
		}
		said := lines[i : i+1]
		if lead {
			said = lines[i:]
		}
		if s.call != nil {
			s.call.filled = append(s.call.filled, said...)
		}
		s.e.log.Warn("the guide is slow to give the next line; the built-in guide says one",
			slog.String("phase", s.phase.String()), slog.Int("index", s.issued), slog.Bool("lead", lead))
		line := s.hand(text, c, b)
		s.stalled = true
		if lead {
			s.takeOver(c, lines[i+1:])
		}
		return line, true
	}
	if err != nil && ctx.Err() == nil {
		s.e.log.Warn("the built-in guide could not fill a stall", slog.Any("err", err))
	}
	return Line{}, false
}

// takeOver gives up the stalled call: the filler's lead, begun with the
// line now handed out, is the rest of the phase.
func (s *source) takeOver(c *call, rest []string) {
	s.closeStream()
	s.call = c
	s.queue, s.ahead = rest, 0
	s.ended = true
	if s.phase == Resolution {
		s.chooseClose()
	}
}

// follows reports whether a breathing line on stage st may come next: on
// the in-breath, on an out-breath of its own (the built-in guide says its
// lines after the counts so, one to a breath), or on a later part of the
// breath the last line spoke to.
func (s *source) follows(st BreathStage) bool {
	if st == StageInhale || st == StageExhale {
		return true
	}
	return s.lastStage >= StageInhale && st > s.lastStage && st <= StageHoldOut
}

// readAll is a whole call of g, split into sentences.
func readAll(ctx context.Context, g Guide, req Request) ([]string, error) {
	st, err := g.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var split speech.Speech
	var out []string
	for {
		chunk, err := st.Next(ctx)
		if errors.Is(err, io.EOF) {
			return append(out, split.Flush()...), nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, split.Feed(chunk)...)
	}
}

// stageOf is the part of the breath a line of call c is said on: as its
// guide tags it, else from its first words.
func stageOf(c *call, text string) BreathStage {
	if c != nil && c.cuer != nil {
		if st, ok := c.cuer.Cue(text); ok && st >= StageInhale && st <= StageHoldOut {
			return st
		}
	}
	return CueStage(text)
}
