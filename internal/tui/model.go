// Package tui is lull's terminal interface: one root model, plain
// sub-views (home list, new-session form, session screen, dialogs) and the
// commands that talk to the rest of lull off the UI goroutine.
package tui

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// screen is what fills the terminal.
type screen int

const (
	screenHome screen = iota
	screenForm
	screenSession
	screenStats  // the listener's practice over time
	screenReread // a finished session, read-only
)

// dialog is a question asked over the current screen.
type dialog int

const (
	dialogNone dialog = iota
	dialogDelete
	dialogCancel
	dialogCrisis // an intention that signals crisis: help, not a session
	// A session left running by a lull that stopped: resume, summarize,
	// discard or decide later.
	dialogLeftRunning
	dialogStale   // sessions that waited over a week: clean up or keep
	dialogSalvage // a session that can be neither read nor rebuilt: where to begin again

	// How did you sleep: asked once, the next time lull opens, after a
	// sleep session.
	dialogSleepMood
)

// Options configure the model.
type Options struct {
	Backend Backend
	// Run, when set, opens straight on this session (lull new/resume);
	// Notices are said about it once, before its own.
	Run     Run
	Notices []string
	// Form opens straight on the new-session form (lull new).
	Form bool
	// Now is the clock for "last active" (tests fix it).
	Now     func() time.Time
	NoColor bool
	// Crisis is shown instead of a session when an intention signals
	// that the listener may be in danger.
	Crisis string
	// Suspend stops lull until the shell brings it back (fg) and returns
	// then; the terminal is handed back meanwhile. Nil when no shell can
	// bring lull back: Ctrl-Z then only pauses.
	Suspend func() error
	// TimeScale is how many times faster than real time the session's
	// clock runs (LULL_TIME_SCALE); 0 is real time.
	TimeScale float64
}

// Model is the root of the TUI.
type Model struct {
	backend Backend
	keys    KeyMap
	styles  *Styles
	isDark  bool
	noColor bool
	now     func() time.Time
	help    help.Model
	suspend func() error

	width, height int
	screen        screen
	dialog        dialog
	showHelp      bool
	direct        bool // opened straight on a session or the form (lull new, lull resume): esc on the form quits

	home homeView
	form formView
	sess sessionView
	// reread is the finished session read again.
	reread rereadView

	stats statsView // the listener's practice over time

	run       Run
	notes     []string // to say about the run opened straight on, with its notices
	sub       *engine.Subscription
	followCtx context.Context // ends when the view lets go of the run
	runCancel context.CancelFunc
	gen       int // tags messages from the current run; older ones are dropped
	closing   bool
	unsaved   map[string]error // by session id, what closing it could not save: said again as lull exits

	status statusLine
	target string // the session a dialog is about
	crisis string
	// crisisTop is the first row of the crisis message shown, on a
	// screen too short for all of it.
	crisisTop int

	recovery recovery
	salvage  salvage

	// cancelPaused says the cancel dialog paused the session as it
	// opened: "no" resumes it.
	cancelPaused bool
	// left is the session this screen last let go of, while it was
	// paused or interrupted: lull says how to resume it once it exits.
	left       engine.State
	sleepAsked bool        // the last sleep session has been looked at (asked about once per lull)
	sleepAsk   SessionInfo // the sleep session the question is about

	scale float64 // the session clock's speed (Options.TimeScale)
	// The ticks that read the session's clock: tickSeq tags the ones
	// armed last, idling says they are the slow ones of a session that
	// does not move (cadence.go).
	tickSeq int
	idling  bool
	// frame is the screen last drawn; still says the last message
	// changed nothing on it (frame.go).
	frame *frame
	still bool
}

// recovery is what the home screen offers once lull starts: each session
// left running by a lull that stopped, then a clean-up of stale sessions.
type recovery struct {
	checked  bool          // the first list has been looked at
	offers   []string      // left-running sessions still to offer, in list order
	offer    SessionInfo   // the one the dialog is about
	askStale bool          // the stale sessions are still to be offered
	stale    []SessionInfo // the ones the clean-up dialog is about
}

// New builds the root model.
func New(o Options) Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	st := NewStyles(true, o.NoColor)
	m := Model{
		backend: o.Backend,
		keys:    DefaultKeyMap(),
		styles:  &st,
		isDark:  true,
		noColor: o.NoColor,
		now:     o.Now,
		help:    help.New(),
		crisis:  o.Crisis,
		suspend: o.Suspend,
		scale:   o.TimeScale,
		frame:   &frame{},
	}
	m.help.Styles = st.Help
	m.home = newHomeView(m.styles, m.now)
	if o.Run != nil {
		m.direct = true
		m.notes = o.Notices
		m.attach(o.Run)
	} else if o.Form {
		m.direct = true
		m.openForm()
	}
	return m
}

func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	switch m.screen {
	case screenHome:
		cmds = append(cmds, m.loadSessions())
	case screenSession:
		cmds = append(cmds, m.follow(), m.tick(), m.showNotices(), m.readSound())
	}
	return tea.Batch(cmds...)
}

// setState is the one place the screen changes.
func (m *Model) setState(s screen) {
	m.screen = s
	m.dialog = dialogNone
	m.showHelp = false
	m.help.ShowAll = false
	m.resize()
}

// openForm opens the new-session form with the backend's choices; it is
// called before the program runs (lull new), never from Update, which
// asks for them off its goroutine (see choices.go).
func (m *Model) openForm() {
	var c Choices
	if m.backend != nil {
		c = m.backend.Choices()
	}
	m.openFormWith(c)
}

func (m *Model) openFormWith(c Choices) {
	m.form = newFormView(c, m.styles)
	m.setState(screenForm)
}

// attach makes r the session on screen.
func (m *Model) attach(r Run) {
	if m.runCancel != nil {
		m.runCancel()
	}
	m.gen++
	m.run = r
	ctx, cancel := context.WithCancel(context.Background())
	m.runCancel = cancel
	m.sess = newSessionView(r.Snapshot())
	m.sess.progress = r.Progress()
	m.sess.clock = m.sess.progress.Elapsed
	m.followCtx = ctx
	m.sub = r.Subscribe()
	m.setState(screenSession)
}

func (m *Model) resize() {
	w, h := m.contentSize()
	m.home.SetSize(w, h)
	m.form.SetSize(w, h)
	m.stats.SetSize(w, h)
	m.reread.SetSize(w, h)
	m.help.SetWidth(w)
	// The fields on the session screen scroll their text within the
	// width they are drawn in.
	m.sess.end.note.SetWidth(noteWidth(w))
	m.sess.sw.SetWidth(w)
}

// tallScreen is the fewest rows on which the session screen spares one
// to name the voice and the volume while all is well.
const tallScreen = 16

// roomy reports whether the terminal has space for margins.
func (m Model) roomy() bool { return m.width >= 40 && m.height >= 12 }

// contentSize is the area inside the margins, above the help line.
func (m Model) contentSize() (int, int) {
	if !m.roomy() {
		return max(m.width, 0), max(m.height-1, 0)
	}
	return max(m.width-4, 0), max(m.height-4, 0)
}

func (m *Model) restyle(isDark bool) {
	m.isDark = isDark
	st := NewStyles(isDark, m.noColor)
	m.styles = &st
	m.help.Styles = st.Help
	m.home.SetStyles(m.styles, m.now)
	m.form.SetStyles(m.styles)
	m.reread.SetStyles(m.styles)
}

func (m Model) View() tea.View {
	if v, ok := m.frame.reuse(m); ok {
		return v
	}
	w, _ := m.contentSize()
	s := m.styles
	footer := m.footer(w)
	bodyHeight := m.bodyHeight(footer)
	// The screens lay themselves out in their room: this only makes sure.
	body := lipgloss.NewStyle().MaxHeight(bodyHeight).MaxWidth(max(w, 1)).Render(m.body(bodyHeight))
	gap := bodyHeight - lipgloss.Height(body)
	content := body
	if gap > 0 {
		content += strings.Repeat("\n", gap)
	}
	content += "\n" + footer
	if m.roomy() {
		content = s.App.Render(content)
	}
	// Whatever happens above, never draw past the terminal's edges.
	content = lipgloss.NewStyle().MaxWidth(max(m.width, 1)).MaxHeight(max(m.height, 1)).Render(content)
	v := tea.NewView(content)
	v.AltScreen = true
	v.WindowTitle = m.title()
	m.frame.keep(v)
	return v
}

// body is the screen, or the dialog over it, as it lays itself out in
// the height rows above the footer.
func (m Model) body(height int) string {
	w, h := m.contentSize()
	s := m.styles
	if m.dialog != dialogNone {
		return m.dialogView(w, h)
	}
	switch m.screen {
	case screenHome:
		// The list leaves the rows the key help takes, all of it too.
		home := m.home
		home.SetSize(w, min(h, height))
		return home.View()
	case screenForm:
		return m.form.View(w, s)
	case screenSession:
		return m.sess.View(w, max(height, 1), s)
	case screenStats:
		return m.stats.View(w, s)
	case screenReread:
		return m.reread.View(w)
	}
	return ""
}

func (m Model) title() string {
	if m.screen == screenSession {
		return "lull · " + m.sess.statusWord()
	}
	return "lull"
}

// footer is the status line over the key help.
func (m Model) footer(width int) string {
	keys := m.helpKeys()
	line := keyLine(m.help.Styles, keys, width)
	if m.help.ShowAll {
		line = keyColumns(m.help.Styles, keys.full, width)
	}
	msg := m.status.View(m.styles, width)
	if msg == "" && m.screen == screenSession && m.dialog == dialogNone {
		msg = m.sess.soundLine(width, m.height >= tallScreen, m.styles)
	}
	if msg != "" {
		return msg + "\n" + line
	}
	return line
}

func (m Model) helpKeys() screenKeys {
	switch m.dialog {
	case dialogCrisis:
		return screenKeys{}
	case dialogDelete, dialogCancel:
		return m.keys.confirmHelp()
	case dialogLeftRunning:
		return m.keys.leftRunningHelp()
	case dialogStale:
		return m.keys.staleHelp()
	case dialogSalvage:
		return m.keys.salvageHelp(len(m.salvage.what.From) > 0)
	case dialogSleepMood:
		return m.keys.sleepMoodHelp()
	}
	switch m.screen {
	case screenForm:
		return m.keys.formHelp(m.direct)
	case screenSession:
		if m.sess.switching {
			return m.keys.switchHelp(len(m.sess.sw.providers) > 1)
		}
		if m.sess.sitting && !m.sess.status.Finished() {
			return m.keys.sitHelp(m.sess.progress.Length == 0)
		}
		if m.sess.practice && !m.sess.status.Finished() {
			return m.keys.breatheHelp()
		}
		if m.sess.asksAfter() {
			return m.keys.endHelp(m.sess.end.typing)
		}
		return m.keys.sessionHelp(m.sess.status, m.sess.drifting, m.height >= tallScreen)
	case screenStats:
		return m.keys.statsHelp(m.stats.scrolls(m.styles))
	case screenReread:
		return m.keys.rereadHelp(m.reread.Replayable())
	default:
		selected, _ := m.home.Selected()
		return m.keys.homeHelp(m.home.loaded && m.home.Empty(), selected)
	}
}

// Unsaved is what closing sessions in this screen could not save, to be
// said again once the screen is gone; nil when every close saved.
func (m Model) Unsaved() error {
	var errs []error
	for _, id := range slices.Sorted(maps.Keys(m.unsaved)) {
		errs = append(errs, m.unsaved[id])
	}
	return errors.Join(errs...)
}

// Session is the session on screen, nil when there is none.
func (m Model) Session() Run { return m.run }

// Close pauses, saves and lets go of any session still open, for when the
// program ends some other way than through q.
func (m Model) Close() error {
	if m.run == nil {
		return nil
	}
	return m.run.Close()
}
