// Package guide holds the guides that write a session's words. The built-in
// guide composes hand-written material from prompts/ and needs no network.
package guide

import (
	"context"
	"fmt"

	"lull/engine"
	"lull/prompts"
)

// Builtin is the guide lull uses with no API key. It puts its material in a
// seeded order, so no two sessions sound alike and one session never says a
// sentence twice, and streams it like an LLM would.
//
// It keeps no state between calls: everything a call says is derived from
// its Request, because the engine may discard sentences it read ahead and
// ask again, and a session may move between guides and processes.
type Builtin struct {
	phases [len(engine.Phases)]*prompts.Phase
	safety *engine.Safety
}

var (
	_ engine.Guide    = (*Builtin)(nil)
	_ engine.Capacity = (*Builtin)(nil)
)

// NewBuiltin is a built-in guide speaking the given material. A phase the
// material lacks is an error when that phase is asked for (prompts.Builtin
// always has all five).
func NewBuiltin(m *prompts.Material) *Builtin {
	b := &Builtin{safety: engine.DefaultSafety()}
	for _, p := range engine.Phases {
		if pm, ok := m.Phase(p.String()); ok && (p != engine.Resolution || pm.Grounding != nil) {
			b.phases[p] = pm
		}
	}
	return b
}

// DefaultBuiltin is the built-in guide with the embedded material,
// remembering what the listener heard before.
func DefaultBuiltin(_ Memory) (*Builtin, error) {
	m, err := prompts.Builtin()
	if err != nil {
		return nil, err
	}
	return NewBuiltin(m), nil
}

// Name is how the guide is recorded in a session.
func (b *Builtin) Name() string { return "builtin" }

// Stream writes one call's sentences, separated by single spaces, in small
// pieces.
func (b *Builtin) Stream(ctx context.Context, req engine.Request) (engine.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sentences, err := b.Sentences(req)
	if err != nil {
		return nil, err
	}
	return newTextStream(sentences, pieceSeed(req)), nil
}

// Sentences is what one call says, whole: what Stream streams.
func (b *Builtin) Sentences(req engine.Request) ([]string, error) {
	if !req.Phase.Valid() {
		return nil, fmt.Errorf("builtin guide: unknown phase %v", req.Phase)
	}
	if b.phases[req.Phase] == nil {
		return nil, fmt.Errorf("builtin guide: no material for the %s phase", req.Phase)
	}
	pl := newPlan(b.phases[req.Phase], req, b.safety)
	return pl.call(req), nil
}

// Capacity is how many sentences the phase can say without repeating one.
func (b *Builtin) Capacity(p engine.Phase, intention string) int {
	if !p.Valid() || b.phases[p] == nil {
		return 0
	}
	m := b.phases[p]
	n := len(m.Lines) + len(m.WindDown)
	if len(m.Opening) > 0 {
		n++ // one opening of the alternatives
	}
	if m.Grounding != nil {
		n += len(m.Grounding.Steps()) // one sentence of each step
	}
	if cleanIntention(intention) != "" {
		n++
	}
	return n
}
