package tui

import (
	"time"

	"lull/engine"
)

// Backend is everything the TUI asks of the rest of lull. Every call may
// touch the disk or the sound card, so the TUI only calls it from commands.
type Backend interface {
	// List returns the saved sessions, resumable first, and a line for each
	// one that could not be read.
	List() ([]SessionInfo, []string)
	Delete(id string) error
	// Start creates a session and starts it running.
	Start(opts engine.Options) (Run, error)
	// Resume locks a saved session and runs it on from where it stopped.
	Resume(id string) (Run, error)
	// Choices are what the new-session form offers.
	Choices() Choices
}

// SessionInfo is one row of the home screen.
type SessionInfo struct {
	ID         string
	Intention  string
	Status     engine.Status
	Phase      engine.Phase
	Progress   float64 // 0–1
	Length     time.Duration
	Created    time.Time
	LastActive time.Time
}

// Choices fill the new-session form.
type Choices struct {
	Lengths     []int // minutes
	Length      int   // the default
	Voices      []string
	Voice       string
	Soundscapes []string
	Soundscape  string
	// Guides are who may write the session: "openai" when an LLM is set
	// up, and "builtin"; Model names the LLM's model for the form.
	Guides []string
	Guide  string
	Model  string
}

// Run is a session under way. The engine's methods are safe from any
// goroutine; Close pauses, stops, saves and lets the session go.
type Run interface {
	ID() string
	Subscribe() *engine.Subscription
	Snapshot() engine.State
	Progress() engine.Progress
	Pause() error
	Resume() error
	Abandon() error
	// Notices are things to tell the listener once: a backup was loaded,
	// there is no sound card.
	Notices() []string
	Close() error
	// After the guide failed and the session is interrupted: run again on
	// the same guide, or carry on with the built-in one.
	Retry() error
	ContinueBuiltin() error

	// Sound, live: the volume level (0–12, 10 is lull's own) after a
	// step, whether the voice is heard, the soundscape switched to.
	Louder() int
	Softer() int
	ToggleVoice() bool
	NextSoundscape() string
}
