package engine

import (
	"context"
	"errors"
	"io"
	"time"
)

// lead holds d of silence before a phase's first line and makes that line
// ready meanwhile: its text asked of the guide, its words synthesized. So
// the first words come when the silence ends, however slow the voice or
// the guide, as long as they are ready by then; later, they come as soon
// as they are. The silence plays off the engine's goroutine, as a line
// does while the next is prepared: pausing freezes it, and a cancel stops
// the synthesis with it (the voice runs with ctx). The first line is nil
// when the phase has none or d is 0.
func (e *Engine) lead(ctx context.Context, src *source, d time.Duration) (*prepared, error) {
	if d <= 0 {
		return nil, nil
	}
	end := e.speaker.Position() + d
	held := e.rest(ctx, d)
	var first *prepared
	var err error
	if src.more() {
		first, err = e.nextPrepared(ctx, src, e.waitFor(src.phase, end, end))
		if errors.Is(err, io.EOF) {
			err = nil
		}
	}
	herr := <-held
	e.account(src.phase)
	if herr != nil {
		return nil, herr
	}
	return first, err
}
