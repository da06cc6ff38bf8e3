package llm

import (
	"context"
	"log/slog"
	"sync"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/safety"
)

// A model's sentences are judged here, a whole line at a time, before any
// is handed to the engine: by the local screen (package safety), which
// keeps a line whole or drops it whole; by OpenAI's moderation endpoint where the server is OpenAI's; and by
// the guard (guard.go) unless it is off. A sentence is handed out only
// when every layer that ran passes it. When a second opinion was wanted
// and could not be had, the local screen judges at its strict thresholds.
// (The engine screens every guide's sentences again: the built-in guide's
// too.)

// moderationBatch is how many sentences wait to be moderated together
// while speech has some in hand, when no guard runs.
const moderationBatch = 4

// judgesAlone reports whether the local screen is the only layer: each
// sentence is judged as soon as it is whole.
func (g *Guide) judgesAlone() bool { return g.cfg.Guard.Off && !g.cfg.Moderate }

// judgesInBatches reports whether moderation is the only second opinion:
// sentences are judged a few at a time. With a guard, a reply is judged
// whole, at its end.
func (g *Guide) judgesInBatches() bool { return g.cfg.Guard.Off && g.cfg.Moderate }

// place is where in the session the call's sentences are spoken.
func (a *attemptState) place() engine.Place {
	return engine.Place{Phase: a.s.req.Phase, Sleep: a.s.req.Sleep}
}

// judge returns what of batch every layer passes, in order, and books
// what they withheld.
func (a *attemptState) judge(ctx context.Context, batch []written) ([]string, error) {
	g := a.s.g
	texts := make([]string, len(batch))
	for i, w := range batch {
		texts[i] = w.text
	}
	others, failed := a.secondOpinions(ctx, texts)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	screen := g.screen
	if failed {
		screen = g.strict
	}
	local := make([]engine.Verdict, 0, len(batch))
	for from := 0; from < len(batch); {
		to := from + 1
		for to < len(batch) && batch[to].line == batch[from].line {
			to++
		}
		local = append(local, screen.Line(texts[from:to], a.place())...)
		from = to
	}
	var kept []string
	for i, w := range batch {
		v := local[i]
		why := v.Category + " (" + v.Rule + ")"
		if !v.Flagged() {
			why = others[i]
		}
		if why != "" {
			a.receipt.Withheld++
			g.log.Info("sentence withheld", slog.String("phase", a.s.req.Phase.String()), slog.String("why", why))
			continue
		}
		kept = append(kept, w.text)
	}
	return kept, nil
}

// secondOpinions asks the layers beyond the local screen about texts, at
// once: moderation where the server is OpenAI's, and the guard. It returns
// per text what withheld it ("" when nothing did), and whether a layer
// that was wanted failed.
func (a *attemptState) secondOpinions(ctx context.Context, texts []string) (why []string, failed bool) {
	g := a.s.g
	why = make([]string, len(texts))
	var wg sync.WaitGroup
	var mu sync.Mutex
	mark := func(i int, reason string) {
		mu.Lock()
		defer mu.Unlock()
		if why[i] == "" {
			why[i] = reason
		}
	}
	fail := func(layer string, err error) {
		if ctx.Err() != nil {
			return
		}
		g.log.Warn(layer+" failed: the local screen judges alone, at its strict thresholds", slog.String("err", err.Error()))
		mu.Lock()
		failed = true
		mu.Unlock()
	}
	if g.cfg.Moderate {
		wg.Go(func() {
			flagged, err := g.moderate(ctx, texts)
			if err != nil {
				fail("moderation", err)
				return
			}
			for i, f := range flagged {
				if f {
					mark(i, "moderation")
				}
			}
		})
	}
	switch {
	case g.cfg.Guard.Off:
	case g.guardGaveUp():
		failed = true // it failed again and again: not asked, still wanted
	default:
		wg.Go(func() {
			found, used, err := g.guard(ctx, a.place(), texts)
			priced := g.cfg
			priced.Model = g.guardModel()
			mu.Lock()
			a.receipt.Tokens = a.receipt.Tokens.Add(used) // the guard's words are the session's cost too
			a.receipt.Cost += cost(priced, used)
			mu.Unlock()
			if err != nil {
				fail("the guard", err)
				g.guardFailed()
				return
			}
			g.guardFailures.Store(0)
			for i, f := range found {
				if f != "" {
					mark(i, f)
				}
			}
		})
	}
	wg.Wait()
	return why, failed
}

// Screen is the local screen: what package safety's does for a line a
// model wrote.
type Screen interface {
	Line(sentences []string, at engine.Place) []engine.Verdict
}

// screens are the local screens a guide judges with: its config's, or
// package safety's.
func screens(cfg Config) (normal, strict Screen) {
	normal, strict = cfg.Screen, cfg.Strict
	if normal == nil || strict == nil {
		s := safety.Default()
		normal, strict = s, s.Strict()
	}
	return normal, strict
}

// guardPatience is how many replies in a row the guard may fail before it
// is asked no more in the session: a guard model that cannot answer would
// otherwise cost every reply its wait. The strict thresholds stay.
const guardPatience = 3

func (g *Guide) guardGaveUp() bool { return g.guardFailures.Load() >= guardPatience }

func (g *Guide) guardFailed() {
	if g.guardFailures.Add(1) == guardPatience {
		g.log.Warn("the guard failed on every reply of late: it is asked no more this session; the local screen judges at its strict thresholds")
	}
}
