package llm

import (
	"context"
	"errors"
	"lull/speech"

	"lull/engine"
)

// attemptState is one try at a call: the HTTP stream, its text read line
// by line (breath tags taken off), cleaned and split into sentences as
// they would be spoken, moderation in
// batches, and the watchdog that fails a call whose model has gone quiet.
// The watchdog sleeps while the buffer is full: a paused listener is not
// a silent server.
type attemptState struct {
	s         *stream
	ctx       context.Context // the call's; the attempt's own is made in call
	watch     *watchdog
	optional  []string // the optional parameters it carried (see drop)
	lines     *linePass
	split     speech.Speech // cleans and splits, as the engine will: moderation sees what would be spoken
	chained   bool          // the request continued a stored response
	sent      int           // the request's instructions and input, in estimated tokens
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
	a.watch = newWatchdog(g.cfg.Watchdog, g.reasons.Load(), func() { cancel(errWatchdog) })
	defer a.watch.end()
	a.lines = newLinePass(a.s.req.Phase == engine.Breathing)

	api, stateless := g.mode()
	var err error
	if api == apiChat {
		err = a.chat(ctx)
	} else {
		err = a.responses(ctx, stateless)
	}
	a.s.book(a.receipt)
	if cause := context.Cause(ctx); errors.Is(cause, errWatchdog) && a.ctx.Err() == nil {
		return &Failure{Kind: kindWatchdog, Message: a.watch.reason()}
	}
	return err
}

// alive is called for every event from the server.
func (a *attemptState) alive() { a.watch.alive() }

// text takes a piece of the model's output.
func (a *attemptState) text(ctx context.Context, delta string) error {
	a.lines.feed(delta, a.take)
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
	a.lines.flush(a.take)
	rest := a.split.Flush
	if truncated {
		rest = a.split.Cut
	}
	sentences := a.cleaned(rest())
	a.tag(sentences, a.lines.current())
	a.unchecked = append(a.unchecked, sentences...)
	return a.flush(ctx)
}

// take hands a tag-free piece of a line to the speech cleaner, and
// remembers the breath tag of each sentence it completes.
func (a *attemptState) take(p piece) {
	sentences := a.cleaned(a.split.Feed(p.text))
	a.tag(sentences, p)
	a.unchecked = append(a.unchecked, sentences...)
}

func (a *attemptState) tag(sentences []string, p piece) {
	if !p.tagged {
		return
	}
	for _, text := range sentences {
		a.s.g.cues.remember(text, p.stage)
	}
}

// cleaned books what the speech cleaner removed on the way to sentences.
func (a *attemptState) cleaned(sentences []string) []string {
	rs := a.split.Removals()
	a.receipt.Removed += len(rs)
	speech.LogRemovals(a.s.g.log, a.s.req.Phase.String(), rs)
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
