package tui

import (
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// StopMsg asks lull to stop for a while, as Ctrl-Z does: lull was sent
// SIGTSTP from outside.
type StopMsg struct{}

// resumedMsg says lull is back from being suspended and has the terminal
// again.
type resumedMsg struct {
	gen    int
	paused bool // the suspension paused the session
	err    error
}

// stop pauses a session that is speaking — saved before lull stops — then
// hands the terminal back to the shell and stops lull until the shell
// brings it back (fg). The session stays paused: the listener goes on with
// space when ready. With no shell to come back to, the pause is all.
func (m Model) stop() (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	paused := false
	if m.run != nil && !m.closing && m.sess.status == engine.Running {
		m.sess.ask(engine.Paused)
		cmds = append(cmds, m.act(m.run.Pause))
		paused = true
	}
	if m.suspend == nil {
		text := "lull cannot be suspended here: there is no shell to return to."
		if paused {
			text = "Paused. " + text
		}
		return m, tea.Batch(append(cmds, m.status.set(text, levelInfo, 8*time.Second))...)
	}
	gen := m.gen
	back := func(err error) tea.Msg { return resumedMsg{gen: gen, paused: paused, err: err} }
	// In sequence: the pause is saved before lull stops.
	return m, tea.Sequence(append(cmds, tea.Exec(suspension(m.suspend), back))...)
}

func (m Model) onResumed(msg resumedMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		return m, m.status.set("Could not take the terminal back: "+msg.err.Error(), levelError, 0)
	}
	if msg.paused && msg.gen == m.gen && m.sess.status == engine.Paused {
		return m, m.status.set("Paused while lull was suspended. Space goes on.", levelInfo, 10*time.Second)
	}
	return m, nil
}

// suspension runs lull's own stop the way Bubble Tea runs another program:
// the terminal handed back (screen restored, cooked mode) until it
// returns, then taken again and redrawn. Not tea.Suspend: it stops the
// process with SIGTSTP, which lull catches (to pause first), so lull
// would not stop.
type suspension func() error

func (s suspension) Run() error        { return s() }
func (suspension) SetStdin(io.Reader)  {}
func (suspension) SetStdout(io.Writer) {}
func (suspension) SetStderr(io.Writer) {}
