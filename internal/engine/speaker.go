package engine

import (
	"context"
	"time"
)

// Line is a sentence on its way to being spoken.
type Line struct {
	Text  string
	Phase Phase
	Index int // the sentence's index within its phase
	// Delivery shades the phase's voice for this line: resolution quickens
	// across the phase, a sleep session slows and softens toward its end.
	Delivery Delivery
	call     *call // the guide call it came from, for its timing
}

// Delivery is how a line is voiced beyond its phase's style. The zero
// value is the phase's own style.
type Delivery struct {
	Pace   float64 // speaking-rate factor against the phase's style; 0 means 1
	Soften float64 // decibels below the session's voice level; 0 means none
}

// PaceOr1 is the rate factor, 1 when unset.
func (d Delivery) PaceOr1() float64 {
	if d.Pace <= 0 {
		return 1
	}
	return d.Pace
}

// Utterance is a prepared line. Its duration is known before it plays.
type Utterance interface {
	Duration() time.Duration
}

// Speaker gives the session its sound: voice, silences and chimes on one
// output clock. Prepare may run while another utterance plays.
type Speaker interface {
	// Prepare synthesizes a line ahead of playback.
	Prepare(ctx context.Context, l Line) (Utterance, error)
	// Play voices an utterance and returns once it has been heard. It
	// freezes while paused.
	Play(ctx context.Context, u Utterance) error
	// Rest holds d of silence on the voice track, in output time. It
	// freezes while paused.
	Rest(ctx context.Context, d time.Duration) error
	// Chime strikes the bowl and returns at once; it rings under what follows.
	Chime()
	// Pause silences the whole output; Resume continues at the same sample.
	Pause()
	Resume()
	// Position is the output time played since the speaker opened. It
	// stands still while paused.
	Position() time.Duration
}

// SoftChimer is implemented by a speaker whose bowl can ring softly. A
// sleep session's bells still mark its phases, but softly: a reader heard
// the full bowl, with the voice off the loudest sound of the session, as
// a call to wake. Run sets it for every session, so a speaker kept for
// the next one rings as that one should.
type SoftChimer interface {
	SoftChimes(on bool)
}

// BellRester is implemented by a speaker that can strike the chime
// within a silence on its own timeline: before, the strike, after, all
// queued at once (see bell.go). A speaker without it rests, chimes and
// rests again.
type BellRester interface {
	RestStriking(ctx context.Context, before, after time.Duration) error
}

// Notifier is implemented by a speaker that may have something to tell the
// listener mid-session — a voice failed and another took over. The engine
// asks after preparing each line and passes each notice on once.
type Notifier interface {
	Notices() []string
}

// Pacer is implemented by a speaker that sounds the breathing pacer — a
// soft tone that rises with each inhale and falls with each exhale — on the
// same output clock as Position.
type Pacer interface {
	// Pace starts the rhythm at output position anchor.
	Pace(anchor time.Duration, b BreathPattern)
	StopPacing()
}

// Finisher is implemented by a speaker whose ambient sound should fade
// away over the session's last moments, as the last chime rings out.
type Finisher interface {
	FadeOut(d time.Duration)
}

// Store keeps a session on disk. The engine checkpoints after every spoken
// sentence, every transition and every pause.
type Store interface {
	// Save writes the whole state atomically.
	Save(st State) error
	// Transcribe appends one entry to the human-readable transcript.
	Transcribe(e Entry) error
}
