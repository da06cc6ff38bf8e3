package engine

import (
	"context"
	"time"
)

// Guide writes the words of a session, one phase at a time, as a stream of
// text — the built-in guide and an LLM alike. The engine splits the stream
// into sentences, checks each one, and decides when a phase has had enough.
type Guide interface {
	// Name is how the guide is recorded in the session: GuideBuiltin or
	// GuideOpenAI.
	Name() string
	// Stream starts the text for one call within a phase. A phase may take
	// several calls: the body, then the wind-down that leads onward.
	Stream(ctx context.Context, req Request) (Stream, error)
}

// The guides a session may be written by, as sessions record them and
// the config and flags name them.
const (
	GuideBuiltin = "builtin" // lull's own, offline
	GuideOpenAI  = "openai"  // an LLM through the OpenAI API or a server that speaks it
)

// Request is what a guide is asked for.
type Request struct {
	Phase     Phase
	WindDown  bool   // lead toward the next phase's focus (in resolution: the close)
	Budget    Budget // the phase's budget as it stands
	Spoken    int    // sentences of this phase spoken or pending
	Intention string // sealed; empty when none was given
	Seed      int64
	Length    time.Duration
	// Breath is the breathing phase's rhythm, whose counts the guide speaks.
	Breath BreathPattern
	// Sleep says the session ends by drifting toward sleep: nothing in it
	// may wake the listener.
	Sleep   bool
	History []Entry // everything said so far, oldest first
	// Pending are sentences already handed out but not yet spoken (the one
	// playing while the next is fetched): count them as said.
	Pending []string
	// Chain is the stored response to continue from, when the guide is the
	// provider that stored it; "" means the guide has no memory of the
	// session and must be told its history.
	Chain string
	// Unchained are sentences said (or pending) that the chained response
	// does not hold: they came from calls cut short.
	Unchained []string
	// Outline is the session's journey as the built-in guide laid it out
	// (Outliner): a remote guide is told which step the phase is at. Zero
	// when no guide outlines.
	Outline Outline
	// Note says why the guide's previous reply in this phase could not be
	// used, as a short clause ("it was empty"); "" normally.
	Note string
}

// Asked is how many sentences a call for req asks for: what remains of
// the body, or of the wind-down, in pieces of at most MaxPerCall. It never
// asks for more than the phase has room for: resolution's close too is
// asked for exactly what remains.
func (r Request) Asked() int {
	n := r.Budget.WindDownAt - r.Spoken
	if r.WindDown {
		n = r.Budget.Sentences - r.Spoken
	}
	return min(max(n, 1), MaxPerCall)
}

// Most is the most sentences a call for r may give: what it asked for,
// and as many again as a call may ask for at most. A remote guide cuts a
// reply that goes past it — a model caught in a loop writes on and on —
// while a wordy model's close, longer than asked, keeps its farewell
// (the engine fits the close to the time left).
func (r Request) Most() int { return r.Asked() + MaxPerCall }

// MaxPerCall keeps calls short, so a failure costs little and each call's
// instructions stay close to where the phase stands.
const MaxPerCall = 10

// Outline is a session's journey, for a guide that writes freely but
// should keep to the same path the built-in guide would take.
type Outline struct {
	Journey string   // its title, "Body scan"
	About   string   // one sentence on what it does
	Steps   []string // the phase's steps in order, as short phrases ("the feet", "where the breath arrives")
}

// Outliner is implemented by a guide that lays each phase out as the steps
// of a journey (the built-in guide).
type Outliner interface {
	Outline(req Request) Outline
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
	// Capacity is asked with the phase's request as it stands when the
	// phase begins (no history: what a session can say does not depend on
	// what it said).
	Capacity(req Request) int
}

// Cuer is implemented by a guide that knows which part of the breath each
// of its breathing lines belongs to (its material says so): the engine
// then times the line by that, not by guessing from its first words.
type Cuer interface {
	// Cue is the stage a breathing line speaks to; ok is false for a line
	// the guide did not write.
	Cue(text string) (stage BreathStage, ok bool)
}

// BreathLiner is implemented by a guide that says a set number of lines
// on each breath it speaks on once the rhythm is taught: the built-in
// guide says one, on the out-breath, and leaves the in-breath alone.
// Without it a worded breath has two lines, its in- and out-breath's.
type BreathLiner interface {
	LinesPerBreath() int
}

// linesPerBreath is how many lines guide g says on a worded breath; 0
// when it does not say (the planner's default then holds).
func linesPerBreath(g Guide) int {
	if l, ok := g.(BreathLiner); ok {
		return l.LinesPerBreath()
	}
	return 0
}

// Pauser is implemented by a guide whose material asks for a short
// silence after some lines: a muscle tensed, released in the next line.
type Pauser interface {
	ShortPause(text string) bool
}

// shortPause is the silence after such a line: long enough to feel the
// tension, never long enough to strain.
const shortPause = 4 * time.Second

// Remote is implemented by a guide that runs at a provider: a model behind
// an endpoint that may keep what it wrote.
type Remote interface {
	Model() string
	// Provider names the endpoint and model whose stored responses a chain
	// lives in: a chain is continued only on the same provider.
	Provider() string
}

// Receipt is what one call to a remote guide left behind: its cost, and
// the response the provider stored, if any.
type Receipt struct {
	ResponseID string   // the provider's id for the call's response; "" when none
	Completed  bool     // that response ran to its end: later calls may chain from it
	Stored     []string // responses the provider keeps until forgotten, retries' too
	Tokens     Tokens
	Cost       float64 // estimated, in US dollars; 0 when unknown or free
	Withheld   int     // sentences the provider's moderation withheld
	Removed    int     // what the guide's speech cleaner removed before moderation (Speech)
}

// Tokens counts a model's input and output.
type Tokens struct {
	In, Out int
	Cached  int // of In, those the provider served from its prompt cache
}

// Add returns the sum of two counts.
func (t Tokens) Add(u Tokens) Tokens {
	return Tokens{In: t.In + u.In, Out: t.Out + u.Out, Cached: t.Cached + u.Cached}
}

// Receipted is implemented by a stream that can say what its call cost. The
// engine asks once, when the stream is closed, whether it ran to its end or
// was cut short.
type Receipted interface {
	Receipt() Receipt
}

// Forgetter deletes stored responses at the server that keeps them
// (Stored.Server). The engine asks when a session ends (completed or
// abandoned), and keeps the ids it could not delete in the session so a
// later run can try again.
type Forgetter interface {
	Forget(ctx context.Context, server string, ids []string) (forgotten []string, err error)
}
