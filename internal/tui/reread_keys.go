package tui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// rereadMsg is a finished session loaded to read again.
type rereadMsg struct {
	session Reread
	err     error
}

// openReread loads a finished session off the UI goroutine.
func (m Model) openReread(id string) tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		r, err := b.Reread(id)
		return rereadMsg{session: r, err: err}
	}
}

func (m Model) onReread(msg rereadMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		cmd := m.status.set(friendly(msg.err), levelError, 8*time.Second)
		return m, cmd
	}
	if m.screen != screenHome || m.dialog != dialogNone {
		return m, nil // the listener went elsewhere meanwhile
	}
	m.reread = newRereadView(msg.session, m.styles)
	m.setState(screenReread)
	return m, nil
}

// replay begins a replay of a completed session, as a new session.
func (m *Model) replay(info SessionInfo) tea.Cmd {
	if info.Status.Resumable() {
		return m.status.set("Only a completed session can be replayed; press enter to resume this one.", levelInfo, 5*time.Second)
	}
	b, id := m.backend, info.ID
	return m.starting("Beginning the replay…", func() (Run, error) { return b.Replay(id) })
}

func (m Model) onRereadKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Back), key.Matches(msg, m.keys.Quit):
		m.setState(screenHome)
		return m, nil
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
		return m, nil
	case key.Matches(msg, m.keys.Replay):
		if !m.reread.Replayable() {
			cmd := m.status.set("Only a completed session can be replayed.", levelInfo, 4*time.Second)
			return m, cmd
		}
		cmd := m.replay(SessionInfo{ID: m.reread.ID()})
		return m, cmd
	}
	return m, m.reread.Update(msg)
}

// rereadHelp is the keys of a session read again.
func (k KeyMap) rereadHelp(replayable bool) screenKeys {
	scroll := key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "scroll"))
	pages := key.NewBinding(key.WithKeys("pgup", "pgdown"), key.WithHelp("pgup/pgdn", "page"))
	back := key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc/q", "back to the list"))
	short := []key.Binding{scroll, back, k.Help}
	full := [][]key.Binding{{scroll, pages}, {back, k.Help}}
	narrow := []key.Binding{brief(scroll, ""), brief(back, "back"), k.Help}
	if replayable {
		short = []key.Binding{scroll, k.Replay, back, k.Help}
		full[1] = append([]key.Binding{k.Replay}, full[1]...)
		narrow = []key.Binding{brief(scroll, ""), k.Replay, brief(back, "back"), k.Help}
	}
	return screenKeys{short: short, full: full, narrow: narrow}
}
