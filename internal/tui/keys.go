package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/lull-dev/lull/internal/engine"
)

// KeyMap is every key the TUI answers to.
type KeyMap struct {
	// Home
	New    key.Binding
	Open   key.Binding
	Delete key.Binding
	Filter key.Binding
	Look   key.Binding // at a session that could not be read
	Stats  key.Binding // your practice over time
	Replay key.Binding // a completed session's words again, as a new session
	Up     key.Binding
	Down   key.Binding

	// Form
	Next   key.Binding
	Prev   key.Binding
	Change key.Binding
	Begin  key.Binding
	Back   key.Binding

	// Session
	Pause      key.Binding
	End        key.Binding // a sit: end it now, with its last bell
	Cancel     key.Binding
	Leave      key.Binding
	Louder     key.Binding
	Softer     key.Binding
	Voice      key.Binding
	Soundscape key.Binding
	// The voice's pace, and the soundscape's level apart from the voice's.
	Slower           key.Binding
	Faster           key.Binding
	SoundscapeSofter key.Binding
	SoundscapeLouder key.Binding
	Retry            key.Binding // interrupted: try the guide again
	Builtin          key.Binding // interrupted: carry on with the built-in guide
	Switch           key.Binding // interrupted: try another model (or provider)
	Provider         key.Binding // in the model switch: the next provider

	// A waking session's end screen; the question after a sleep session.
	MoodAfter key.Binding // 1–5: how the listener feels
	NoteField key.Binding // to the note and back

	// Dialogs
	Yes key.Binding
	No  key.Binding

	// A session left running by a lull that stopped; stale sessions.
	Reopen    key.Binding // resume it
	Summarize key.Binding // keep what was spoken, completed as partial
	Discard   key.Binding // abandon it
	Later     key.Binding // decide later
	CleanUp   key.Binding // abandon the stale sessions
	Keep      key.Binding // keep them as they are

	Help    key.Binding
	Quit    key.Binding
	Force   key.Binding
	Suspend key.Binding // pause, and hand the terminal back to the shell until fg
}

// DefaultKeyMap is lull's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		New:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new session")),
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "resume")),
		Delete: key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "delete")),
		Look:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "unreadable session")),
		Replay: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "replay")),
		Filter: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Stats:  key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "your practice")),
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),

		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous")),
		Change: key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "change")),
		Begin:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "begin")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),

		Pause:  key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "pause/resume")),
		Cancel: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "cancel session")),
		End:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "end the sit")),
		Leave:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "pause & list")),

		Louder:     key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "louder")),
		Softer:     key.NewBinding(key.WithKeys("-", "_"), key.WithHelp("-", "softer")),
		Voice:      key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "voice on/off")),
		Soundscape: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "next soundscape")),

		Slower:           key.NewBinding(key.WithKeys("["), key.WithHelp("[", "voice slower")),
		Faster:           key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "voice faster")),
		SoundscapeSofter: key.NewBinding(key.WithKeys(",", "<"), key.WithHelp(",", "soundscape softer")),
		SoundscapeLouder: key.NewBinding(key.WithKeys(".", ">"), key.WithHelp(".", "soundscape louder")),
		Retry:            key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "retry")),
		Builtin:          key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "built-in guide")),
		Switch:           key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "another model")),
		Provider:         key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next server")),

		MoodAfter: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5"), key.WithHelp("1–5", "how you feel")),
		NoteField: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "note")),

		Yes: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
		No:  key.NewBinding(key.WithKeys("n", "esc"), key.WithHelp("n", "no")),

		Reopen:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "resume")),
		Summarize: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "summarize")),
		Discard:   key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "discard")),
		Later:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "decide later")),
		CleanUp:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "clean up")),
		Keep:      key.NewBinding(key.WithKeys("esc", "n"), key.WithHelp("esc", "keep")),

		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:    key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		Force:   key.NewBinding(key.WithKeys("ctrl+c")),
		Suspend: key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend")),
	}
}

// screenKeys is the help for one screen: what applies there, nothing else.
// narrow is the short help's essential keys in brief, for a screen too
// narrow for short (keyLine); nil when short is brief already.
type screenKeys struct {
	short  []key.Binding
	full   [][]key.Binding
	narrow []key.Binding
}

func (k screenKeys) ShortHelp() []key.Binding  { return k.short }
func (k screenKeys) FullHelp() [][]key.Binding { return k.full }

// homeHelp is the list's keys; enter says what it does to the session
// selected: a finished one is read, the others resumed.
func (k KeyMap) homeHelp(empty bool, selected SessionInfo) screenKeys {
	if empty {
		return screenKeys{
			short: []key.Binding{k.New, k.Help, k.Quit},
			full:  [][]key.Binding{{k.New}, {k.Help, k.Quit}},
		}
	}
	open := k.Open
	if selected.Status.Finished() {
		open = brief(k.Open, "read it")
	}
	return screenKeys{
		short:  []key.Binding{open, k.New, k.Delete, k.Filter, k.Help, k.Quit},
		full:   [][]key.Binding{{k.Up, k.Down, open}, {k.New, k.Delete, k.Filter}, {k.Replay, k.Stats}, {k.Help, k.Quit, k.Suspend}},
		narrow: []key.Binding{open, brief(k.New, "new"), k.Quit, k.Help},
	}
}

// statsHelp is the practice screen's keys; ↑/↓ when it is too tall for
// the screen.
func (k KeyMap) statsHelp(scrolls bool) screenKeys {
	back := key.NewBinding(key.WithKeys("esc", "t"), key.WithHelp("esc/t", "your sessions"))
	if scrolls {
		scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
		return screenKeys{short: []key.Binding{scroll, back, k.Quit}, full: [][]key.Binding{{scroll, back, k.Quit}},
			narrow: []key.Binding{scroll, brief(back, "back"), k.Quit}}
	}
	return screenKeys{short: []key.Binding{back, k.Quit}, full: [][]key.Binding{{back, k.Quit}}}
}

// formHelp is the new-session form's keys; esc quits when lull opened
// on the form (lull new), and goes back to the list otherwise.
func (k KeyMap) formHelp(direct bool) screenKeys {
	back := k.Back
	if direct {
		back = brief(k.Back, "quit")
	}
	mood := key.NewBinding(key.WithKeys("1", "2", "3", "4", "5"), key.WithHelp("1–5", "your mood, on Mood"))
	return screenKeys{
		short:  []key.Binding{k.Next, k.Change, k.Begin, back},
		full:   [][]key.Binding{{k.Next, k.Prev}, {k.Change, mood}, {k.Begin, back}},
		narrow: []key.Binding{k.Begin, brief(k.Next, "next"), back},
	}
}

// sessionHelp is a session's keys; on a tall screen the full help names
// the voice's pace and the soundscape's level too.
func (k KeyMap) sessionHelp(status engine.Status, drifting, tall bool) screenKeys {
	quit := key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit (saves)"))
	if drifting {
		stop := key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "stop the sound"))
		return screenKeys{short: []key.Binding{stop}, full: [][]key.Binding{{stop}}}
	}
	if status == engine.Interrupted {
		return screenKeys{
			short:  []key.Binding{k.Retry, k.Switch, k.Builtin, quit, k.Cancel},
			full:   [][]key.Binding{{k.Retry, k.Switch, k.Builtin}, {quit, k.Cancel}},
			narrow: []key.Binding{k.Retry, brief(k.Switch, "model"), brief(k.Builtin, "built-in"), k.Quit},
		}
	}
	if status.Finished() {
		leave := key.NewBinding(key.WithKeys("enter", "esc"), key.WithHelp("enter", "your sessions"))
		return screenKeys{
			short: []key.Binding{leave, k.Quit},
			full:  [][]key.Binding{{leave, k.Quit}},
		}
	}
	full := [][]key.Binding{{k.Pause, quit, k.Leave}, {k.Louder, k.Softer, k.Cancel}, {k.Voice, k.Soundscape, k.Help}}
	if tall {
		// The voice's pace and the soundscape's level: on a small screen
		// they still answer, but the rows go to the session.
		full = [][]key.Binding{{k.Pause, quit, k.Leave}, {k.Louder, k.Softer, k.Cancel, k.pace()},
			{k.Voice, k.Soundscape, k.soundscapeLevel(), k.Help}}
	}
	return screenKeys{
		short:  []key.Binding{k.Pause, quit, k.Cancel, k.Help},
		full:   full,
		narrow: []key.Binding{brief(k.Pause, "pause"), k.Quit, k.Help},
	}
}

// pace and soundscapeLevel are the pairs of keys as the full help shows
// them: [/] the voice's pace, ,/. the soundscape's level.
func (k KeyMap) pace() key.Binding {
	return key.NewBinding(key.WithKeys("[", "]"), key.WithHelp("[/]", "voice pace"))
}

func (k KeyMap) soundscapeLevel() key.Binding {
	return key.NewBinding(key.WithKeys(",", "."), key.WithHelp(",/.", "soundscape level"))
}

// switchHelp is the model switch's: try, another server when there is
// one, back.
func (k KeyMap) switchHelp(servers bool) screenKeys {
	try := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "try this model"))
	short := []key.Binding{try, k.Back}
	narrow := []key.Binding{brief(try, "try"), k.Back}
	if servers {
		short = []key.Binding{try, k.Provider, k.Back}
		narrow = []key.Binding{brief(try, "try"), brief(k.Provider, "server"), k.Back}
	}
	return screenKeys{short: short, full: [][]key.Binding{short}, narrow: narrow}
}

// breatheHelp is the keys of a breathing practice under way: no voice or
// soundscape to speak of, so pause, quit and the volume first.
func (k KeyMap) breatheHelp() screenKeys {
	quit := key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit (saves)"))
	return screenKeys{
		short:  []key.Binding{k.Pause, quit, k.Louder, k.Softer, k.Help},
		full:   [][]key.Binding{{k.Pause, quit, k.Leave}, {k.Louder, k.Softer, k.Cancel}, {k.Soundscape, k.soundscapeLevel(), k.Help}},
		narrow: []key.Binding{brief(k.Pause, "pause"), k.Quit, k.Help},
	}
}

// sitHelp is the keys of a sit under way: pause, end it (first when it
// is open-ended: that is how it ends), quit, the sound.
func (k KeyMap) sitHelp(open bool) screenKeys {
	quit := key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit (saves)"))
	short := []key.Binding{k.Pause, k.End, quit, k.Help}
	if !open {
		short = []key.Binding{k.Pause, quit, k.End, k.Help}
	}
	return screenKeys{
		short:  short,
		full:   [][]key.Binding{{k.Pause, k.End, quit}, {k.Leave, k.Louder, k.Softer}, {k.Soundscape, k.soundscapeLevel(), k.Cancel, k.Help}},
		narrow: []key.Binding{brief(k.Pause, "pause"), brief(k.End, "end"), k.Quit, k.Help},
	}
}

func (k KeyMap) confirmHelp() screenKeys {
	return screenKeys{short: []key.Binding{k.Yes, k.No}, full: [][]key.Binding{{k.Yes, k.No}}}
}

func (k KeyMap) leftRunningHelp() screenKeys {
	return screenKeys{
		short:  []key.Binding{k.Reopen, k.Summarize, k.Discard, k.Later},
		full:   [][]key.Binding{{k.Reopen, k.Summarize}, {k.Discard, k.Later}},
		narrow: []key.Binding{k.Reopen, k.Summarize, k.Discard, brief(k.Later, "later")},
	}
}

func (k KeyMap) staleHelp() screenKeys {
	return screenKeys{short: []key.Binding{k.CleanUp, k.Keep}, full: [][]key.Binding{{k.CleanUp, k.Keep}}}
}
