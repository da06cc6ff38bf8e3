package llm

import (
	"context"
	"errors"
	"log/slog"

	"github.com/lull-dev/lull/internal/speech"

	"github.com/lull-dev/lull/internal/engine"
)

// attemptState is one try at a call: the HTTP stream, its text read line
// by line (breath tags taken off), cleaned and split into sentences as
// they would be spoken, judged (screen.go), and the watchdog that fails a
// call whose model has gone quiet. The watchdog sleeps while the buffer
// is full: a paused listener is not a silent server.
type attemptState struct {
	s         *stream
	ctx       context.Context // the call's; the attempt's own is made in call
	watch     *watchdog
	optional  []string // the optional parameters it carried (see drop)
	lines     *linePass
	split     speech.Speech // cleans and splits, as the engine will: the layers judge what would be spoken
	chained   bool          // the request continued a stored response
	sent      int           // the request's instructions and input, in estimated tokens
	unchecked []written     // sentences not yet judged
	wrote     int           // sentences the model wrote, judged or not
	pushed    int
	receipt   engine.Receipt
}

// written is a sentence of the reply and the line it was written on.
type written struct {
	text string
	line int
}

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

// text takes a piece of the model's output. Whole lines are judged as
// soon as the layers allow (screen.go): the local screen alone, at once;
// with moderation alone, a few at a time; with a guard, the reply whole,
// at its end.
func (a *attemptState) text(ctx context.Context, delta string) error {
	a.lines.feed(delta, a.take)
	if a.wrote > a.s.req.Most() {
		return errEnough
	}
	whole := a.wholeLines()
	g := a.s.g
	if whole > 0 && (g.judgesAlone() || g.judgesInBatches() && (whole >= moderationBatch || len(a.s.out) == 0)) {
		return a.flush(ctx, whole)
	}
	return nil
}

// wholeLines is how many of the unjudged sentences belong to lines that
// have ended: all but those of the line being read.
func (a *attemptState) wholeLines() int {
	cur := a.lines.current().line
	n := len(a.unchecked)
	for n > 0 && a.unchecked[n-1].line == cur {
		n--
	}
	return n
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
	a.hold(sentences, a.lines.current())
	return a.flush(ctx, len(a.unchecked))
}

// take hands a tag-free piece of a line to the speech cleaner, and
// remembers the breath tag of each sentence it completes.
func (a *attemptState) take(p piece) {
	sentences := a.cleaned(a.split.Feed(p.text))
	a.tag(sentences, p)
	a.hold(sentences, p)
}

// hold keeps sentences of piece p's line until they are judged.
func (a *attemptState) hold(sentences []string, p piece) {
	for _, text := range sentences {
		a.unchecked = append(a.unchecked, written{text, p.line})
		a.wrote++
	}
}

// errEnough says the model wrote past the most its call may give
// (engine.Request.Most): a model in a loop, on a server that ignores the
// output-token limit. The reply is cut there (cut).
var errEnough = errors.New("the model wrote past what was asked")

// cut ends a reply that wrote past its most: the sentences past it and
// the one being written are dropped, what came before is judged and
// given. The reply did not complete: a chain does not continue from it.
func (a *attemptState) cut(ctx context.Context) error {
	a.s.g.log.Warn("LLM reply cut: it wrote past what was asked", slog.Int("most", a.s.req.Most()))
	a.receipt.Completed = false
	if over := a.wrote - a.s.req.Most(); over > 0 {
		a.unchecked = a.unchecked[:len(a.unchecked)-min(over, len(a.unchecked))]
	}
	return a.flush(ctx, len(a.unchecked))
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

// flush judges the first n sentences waiting and puts what passes in the
// buffer, waiting while it is full.
func (a *attemptState) flush(ctx context.Context, n int) error {
	batch := a.unchecked[:n:n]
	a.unchecked = a.unchecked[n:]
	if len(batch) == 0 {
		return nil
	}
	a.watch.Stop() // the layers' requests have their own timeouts
	kept, err := a.judge(ctx, batch)
	a.alive()
	if err != nil {
		return err
	}
	for _, text := range kept {
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
