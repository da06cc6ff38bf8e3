package engine

import (
	"context"
	"sync"
)

// gate holds the engine's own work — pulling text, moving to the next
// phase — while the session is paused. The speaker freezes the sound.
type gate struct {
	mu     sync.Mutex
	closed bool
	opened chan struct{} // closed when the gate opens
}

func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.closed = true
		g.opened = make(chan struct{})
	}
}

func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		g.closed = false
		close(g.opened)
	}
}

// wait returns once the gate is open or ctx ends.
func (g *gate) wait(ctx context.Context) error {
	g.mu.Lock()
	closed, opened := g.closed, g.opened
	g.mu.Unlock()
	if !closed {
		return ctx.Err()
	}
	select {
	case <-opened:
		return ctx.Err()
	case <-ctx.Done():
		return ctx.Err()
	}
}
