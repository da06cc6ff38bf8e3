package llm

import (
	"context"
	"errors"
	"time"

	"lull/engine"
)

// attemptState is one try at a call: the HTTP stream, its text cleaned
// and split into sentences as they would be spoken, moderation in batches, and the watchdog that fails a call
// whose model has gone quiet. The watchdog sleeps while the buffer is
// full: a paused listener is not a silent server.
type attemptState struct {
	s         *stream
	ctx       context.Context // the call's; the attempt's own is made in call
	watch     *time.Timer
	split     engine.Speech
	unchecked []string
	pushed    int
	receipt   engine.Receipt
}

// moderationBatch is how many sentences wait to be moderated together
// while speech has some in hand.
const moderationBatch = 4

func (a *attemptState) call() error {
	g := a.s.g
	ctx, cancel := context.WithCancelCause(a.ctx)
	defer cancel(nil)
	a.watch = time.AfterFunc(g.cfg.Watchdog, func() { cancel(errWatchdog) })
	defer a.watch.Stop()

	api, stateless := g.mode()
	var err error
	if api == apiChat {
		err = a.chat(ctx)
	} else {
		err = a.responses(ctx, stateless)
	}
	a.s.book(a.receipt)
	if cause := context.Cause(ctx); errors.Is(cause, errWatchdog) && a.ctx.Err() == nil {
		return &Failure{Kind: kindWatchdog, Message: "the model sent no text for " + g.cfg.Watchdog.String()}
	}
	return err
}

// alive is called for every event from the server.
func (a *attemptState) alive() { a.watch.Reset(a.s.g.cfg.Watchdog) }

// text takes a piece of the model's output.
func (a *attemptState) text(ctx context.Context, delta string) error {
	a.unchecked = append(a.unchecked, a.cleaned(a.split.Feed(delta))...)
	if len(a.unchecked) == 0 {
		return nil
	}
	if !a.s.g.cfg.Moderate || len(a.unchecked) >= moderationBatch || len(a.s.out) == 0 {
		return a.flush(ctx)
	}
	return nil
}

// end takes the rest of the output once the call has finished. A call cut
// by its token limit drops the sentence it was in the middle of.
func (a *attemptState) end(ctx context.Context, truncated bool) error {
	rest := a.split.Flush
	if truncated {
		rest = a.split.Cut
	}
	a.unchecked = append(a.unchecked, a.cleaned(rest())...)
	return a.flush(ctx)
}

// cleaned books what the speech cleaner removed on the way to sentences.
func (a *attemptState) cleaned(sentences []string) []string {
	rs := a.split.Removals()
	a.receipt.Removed += len(rs)
	engine.LogRemovals(a.s.g.log, a.s.req.Phase, rs)
	return sentences
}

// flush moderates what is waiting and puts what passes in the buffer,
// waiting while it is full.
func (a *attemptState) flush(ctx context.Context) error {
	batch := a.unchecked
	a.unchecked = nil
	if len(batch) == 0 {
		return nil
	}
	if a.s.g.cfg.Moderate {
		a.watch.Stop() // the moderation request has its own timeout
		flagged, err := a.s.g.moderate(ctx, batch)
		a.alive()
		if err != nil {
			return err
		}
		kept := batch[:0:0]
		for i, text := range batch {
			if flagged[i] {
				a.receipt.Withheld++
				continue
			}
			kept = append(kept, text)
		}
		batch = kept
	}
	for _, text := range batch {
		a.watch.Stop()
		select {
		case a.s.out <- text:
			a.pushed++
		case <-ctx.Done():
			return ctx.Err()
		}
		a.alive()
	}
	return nil
}
