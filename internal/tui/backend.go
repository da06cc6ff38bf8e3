package tui

import (
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/practice"
)

// Backend is everything the TUI asks of the rest of lull. Every call may
// touch the disk or the sound card, so the TUI only calls it from commands.
type Backend interface {
	// List returns the saved sessions, resumable first, and a problem for
	// each one that could not be read.
	List() ([]SessionInfo, []Problem)
	// Salvage says what an unreadable session's folder holds and where it
	// can begin again; Restore begins it there and runs it.
	Salvage(id string) (Salvaged, error)
	Restore(id string, at engine.Phase) (Run, error)
	Delete(id string) error
	// Summarize ends a session that will not run on — left running by a
	// lull that stopped, paused or interrupted — as completed and partial,
	// keeping what was spoken.
	Summarize(id string) (engine.Summary, error)
	// Discard abandons a session that will not run on; its words stay
	// saved.
	Discard(id string) error
	// CleanUp abandons stale sessions and says so in their history. It
	// returns how many it cleaned up, and what stopped the others.
	CleanUp(ids []string) (int, error)
	// Start creates a session and starts it running.
	Start(opts engine.Options) (Run, error)
	// Resume locks a saved session and runs it on from where it stopped.
	Resume(id string) (Run, error)
	// Choices are what the new-session form offers. Finding them probes
	// the voices: the model asks off the UI goroutine (choices.go).
	Choices() Choices
	// Models are what the model switch offers: the model a session would
	// use, and the servers, the current one first. Nothing is probed.
	Models() (model string, providers []string)
	// Remark keeps with a finished session what the listener said of it.
	Remark(id string, r Remark) error
	// Practice is the listener's practice over time, as of now.
	Practice() practice.Report
	// Reread loads a finished session to read again, read-only: it is
	// not locked, and nothing is written.
	Reread(id string) (Reread, error)
	// Replay begins a new session that speaks a completed session's
	// saved words again, paced afresh, calling no model.
	Replay(id string) (Run, error)
}

// Problem is a session that could not be read.
type Problem struct {
	Text string
	// ID is set when lull could neither read the session nor rebuild it
	// from its transcript, and the listener can look at what is left.
	ID string
}

// Salvaged is what is left of an unreadable session, for a person.
type Salvaged struct {
	ID    string
	Found []string // a line per file, and what the transcript shows
	// From are the phases it can begin again at, in order: each phase
	// the transcript reaches, the earlier ones kept as spoken.
	From []engine.Phase
}

// SessionInfo is one row of the home screen.
type SessionInfo struct {
	ID         string
	Intention  string
	Status     engine.Status
	Phase      engine.Phase
	Progress   float64 // 0–1
	Partial    bool    // completed before its end: summarized partway
	Length     time.Duration
	Created    time.Time
	LastActive time.Time
	// Practice is engine.PracticeBreathe for a breathing practice; Stage
	// is where the session stands as the list says it ("sensory",
	// "breathe 4-7-8"), empty for its phase.
	Practice string
	Stage    string
	// Open says a lull has the session open now, Holder its pid. Only
	// sessions whose status says running are asked.
	Open   bool
	Holder int
	// A sleep session, and what the listener said after it: lull asks
	// once how they slept (MoodAsked).
	Sleep     bool
	MoodAfter int
	MoodAsked bool
	// Unheard says lull render wrote the session to a file and nobody
	// heard it play: nobody slept to it, and it is not asked about.
	Unheard bool
	// ReplayOf is the session whose words this one replays, if any.
	ReplayOf string
	// ResumesOn is who a resume would write it with: "built-in
	// guide", or a model at its server. A resume never moves a session
	// to another guide unasked, and the list says so.
	ResumesOn string
	// Newer is the schema version of a session a newer lull made: listed,
	// never written (lull refuses to resume it); 0 for the others.
	Newer int
}

// LeftRunning reports a session whose status says running while no lull
// has it open: the lull that ran it stopped without saving it paused.
func (i SessionInfo) LeftRunning() bool { return engine.LeftRunning(i.Status, i.Open) }

// Idle is how long the session has waited for the listener: inactive
// after a day, stale after a week. A session open in a lull is not idle.
func (i SessionInfo) Idle(now time.Time) engine.Idle {
	return engine.IdlenessUnlessOpen(i.Status, i.Open, i.LastActive, now)
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
	// Providers are the servers the LLM guide may switch to, the current
	// one first; fewer than two: nothing to choose.
	Providers []string
	// SleepTail is how long a sleep session's soundscape plays on after
	// its words; ProposesSleep says whether an intention asks for a sleep
	// session (the form then turns Sleep on).
	SleepTail     time.Duration
	ProposesSleep func(intention string) bool
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
	// End completes a sit now, with its last bell (engine.Engine.End).
	End() error
	Abandon() error
	// Notices are things to tell the listener once: a backup was loaded,
	// there is no sound card.
	Notices() []string
	// Unsaved is nil when the session's last save reached the disk;
	// otherwise an error that says so, what is on disk and how to go on.
	// It reads the disk: call it from a command.
	Unsaved() error
	// Close's error, if any, says itself what was not saved.
	Close() error
	// Done is closed when the run has stopped: a sleep session's, once
	// the sound after its words has ended too.
	Done() <-chan struct{}
	// After the guide failed and the session is interrupted: run again on
	// the same guide, or carry on with the built-in one.
	Retry() error
	ContinueBuiltin() error
	// RetryWith runs it again on the LLM guide with another model, at
	// another provider when one is named ("" keeps the server).
	RetryWith(provider, model string) error
	// Stopped says in plain words why the guide stopped the session and
	// what the listener can do; it waits for the run to stop.
	Stopped() (what, do string)

	// Sound, live: the volume level (0–12, 10 is lull's own) after a
	// step, whether the voice is heard, the soundscape switched to.
	Louder() int
	Softer() int
	ToggleVoice() bool
	NextSoundscape() string
	// The voice's pace, a factor of the normal one, after a step
	// (engine.VoiceRateStep, within its bounds); the soundscape's own
	// level (0–12) after a step, apart from the voice's.
	Slower() float64
	Faster() float64
	SoundscapeSofter() int
	SoundscapeLouder() int
	// Tuning is the voice's pace and the soundscape's level as they play.
	Tuning() (rate float64, soundscape int)
	// Sound is the sound as it plays: the voice speaking now ("none":
	// text only; a voice that fails hands over to the next), whether it
	// is heard, and the volume level.
	Sound() (voice string, heard bool, level int)
}
