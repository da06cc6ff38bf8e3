package engine

import (
	"context"
	"time"
)

// Guide writes the words of a session, one phase at a time, as a stream of
// text — the built-in guide and an LLM alike. The engine splits the stream
// into sentences, checks each one, and decides when a phase has had enough.
type Guide interface {
	// Name is how the guide is recorded in the session ("builtin", "openai").
	Name() string
	// Stream starts the text for one call within a phase. A phase may take
	// several calls: the body, then the wind-down that leads onward.
	Stream(ctx context.Context, req Request) (Stream, error)
}

// Request is what a guide is asked for.
type Request struct {
	Phase     Phase
	WindDown  bool   // lead toward the next phase's focus (in resolution: the close)
	Budget    Budget // the phase's budget as it stands
	Spoken    int    // sentences of this phase spoken or pending
	Intention string // sealed; empty when none was given
	Seed      int64
	Length    time.Duration
	History   []Entry // everything said so far, oldest first
	// Pending are sentences already handed out but not yet spoken (the one
	// playing while the next is fetched): count them as said.
	Pending []string
}

// Stream is text arriving in pieces of any size.
type Stream interface {
	// Next returns the next piece of text, or io.EOF when the call is done.
	Next(ctx context.Context) (string, error)
	Close() error
}

// Capacity is implemented by guides with a finite store of sentences; the
// budget never asks a phase for more than the guide can say without
// repeating itself, and stretches the silences instead.
type Capacity interface {
	Capacity(p Phase, intention string) int
}
