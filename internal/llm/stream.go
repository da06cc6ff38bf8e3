package llm

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/redact"
)

// stream is one call of the guide as the engine sees it: whole sentences,
// each checked, produced in the background at most Lookahead ahead of
// speech. Retries happen inside it while nothing of the call was handed
// out; after that a failure is the engine's to handle.
type stream struct {
	g      *Guide
	req    engine.Request
	out    chan string // checked sentences, ready to hand out
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	err     error // why the call ended, once done; nil at its natural end
	receipt engine.Receipt
	handed  bool // a sentence has left the buffer: no more retries

	// unchained: a chained request got a 400 that did not say why, or the
	// model's context overflowed, so this call's tries go without the
	// chain, the history or a recap as input (run's goroutine only).
	unchained bool
	terse     bool // it was the terse 400: a try that works without the chain shows the server cannot chain
}

// Stream starts one call in the background.
func (g *Guide) Stream(ctx context.Context, req engine.Request) (engine.Stream, error) {
	ctx, cancel := context.WithCancel(ctx)
	s := &stream{
		g:      g,
		req:    req,
		out:    make(chan string, g.cfg.Lookahead),
		cancel: cancel,
		done:   make(chan struct{}),
	}
	go s.run(ctx)
	return s, nil
}

// Next hands out the next sentence, ending in a blank line so the
// engine's splitter knows it is whole.
func (s *stream) Next(ctx context.Context) (string, error) {
	select {
	case text, ok := <-s.out:
		if !ok {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.err != nil {
				return "", s.err
			}
			return "", io.EOF
		}
		s.mu.Lock()
		s.handed = true
		s.mu.Unlock()
		return text + "\n\n", nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Close stops the call — the HTTP request is cancelled through its
// context — and waits until the receipt is final.
func (s *stream) Close() error {
	s.cancel()
	<-s.done
	return nil
}

// Receipt is what the call cost and left at the provider.
func (s *stream) Receipt() engine.Receipt {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.receipt
	r.Stored = append([]string(nil), r.Stored...)
	return r
}

func (s *stream) wasHanded() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handed
}

// run makes the call, retrying what can be retried.
func (s *stream) run(ctx context.Context) {
	defer close(s.done)
	defer close(s.out)
	defer func() {
		if r := recover(); r != nil {
			s.g.log.Error("LLM stream panicked", slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
			s.finish(&Failure{Kind: "panic", Message: "the LLM stream failed unexpectedly"})
		}
	}()
	g := s.g
	switches := 0  // a server may make the guide change course at most twice
	overflows := 0 // and say the call is too long at most maxOverflows times
	for attempt := 1; ; attempt++ {
		a := &attemptState{s: s, ctx: ctx}
		err := a.call()
		if err == nil && s.terse {
			// The chain was what the server refused: go on without it.
			g.goStateless("the server answered a chained request with 400 and took the history instead")
		}
		if err == nil || ctx.Err() != nil {
			return // the natural end, or closed: Next says io.EOF
		}
		var se *ssestream.StreamError
		if errors.As(err, &se) { // its raw text, for a developer's eyes only
			g.log.Debug("LLM error event", slog.String("data", redact.Text(string(se.Event.Data))))
		}
		f := classify(err)
		if f.Kind == kindNetwork && f.Server == "" {
			f.Server = redact.URL(g.cfg.BaseURL) // Explain says where it could not reach
		}
		if f.overflow() && a.pushed == 0 && !s.wasHanded() {
			if overflows >= maxOverflows {
				g.log.Warn("LLM call too long for the model, even from a recap", slog.String("error", f.Error()))
				s.finish(f)
				return
			}
			overflows++
			// A chained call starts a new chain from a recap; one that
			// sent its history sends less, unless it cannot.
			if !a.chained && !g.shrink(a.sent) && g.budget() <= minBudget {
				g.log.Warn("LLM call too long for the model, even from the shortest recap", slog.String("error", f.Error()))
				s.finish(f)
				return
			}
			s.unchained = true
			g.log.Warn("LLM context exceeded; trying again from a recap", slog.Bool("chained", a.chained), slog.Int("tokens_sent", a.sent))
			attempt-- // not the server's fault: the same try, shorter
			continue
		}
		switch {
		case f.Kind == kindChainRefused && switches < 2:
			g.goStateless(f.Message)
			attempt-- // not the server's fault: the same try, without the chain
			switches++
			continue
		case f.Kind == kindNoResponses && switches < 2:
			g.goChat()
			attempt--
			switches++
			continue
		case f.Kind == kindUnsupported && g.drop(f.Param, a.optional):
			attempt-- // the same try, without what the server does not take
			continue
		case f.Kind == kindStatus && f.Status == http.StatusBadRequest && a.chained && !s.unchained:
			// A terse 400 to a chained request may be about the chain:
			// one more try without it tells.
			g.log.Warn("LLM server refused a chained request; trying once without the chain", slog.String("error", f.Error()))
			s.unchained, s.terse = true, true
			attempt--
			continue
		}
		g.recapNext.Store(true) // whatever comes next should say where the listener is
		if a.pushed > 0 || s.wasHanded() {
			s.finish(f) // lines of this call are out: the engine decides
			return
		}
		wait, ok := f.wait(attempt, g.cfg)
		if !ok || attempt >= g.cfg.Attempts {
			g.log.Warn("LLM call failed for good", slog.Int("attempts", attempt), slog.String("error", f.Error()))
			s.finish(f)
			return
		}
		g.log.Warn("LLM call failed; retrying", slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.String("error", f.Error()))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return
		}
	}
}

// finish records why the call failed for good.
func (s *stream) finish(f *Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = f
}

// stored records a response the server keeps, at once: a call closed or
// cut mid-stream still knows what there is to delete.
func (s *stream) stored(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.receipt.Stored = append(s.receipt.Stored, id)
}

// book adds one attempt's receipt to the call's (its stored responses
// are in already: stored).
func (s *stream) book(r engine.Receipt) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.receipt.Tokens = s.receipt.Tokens.Add(r.Tokens)
	s.receipt.Cost += r.Cost
	s.receipt.Withheld += r.Withheld
	s.receipt.Removed += r.Removed
	if r.ResponseID != "" || r.Completed {
		s.receipt.ResponseID, s.receipt.Completed = r.ResponseID, r.Completed
	}
}

// errWatchdog is why a call that went quiet was stopped.
var errWatchdog = errors.New("no text from the model")
