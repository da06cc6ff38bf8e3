package tui

import tea "charm.land/bubbletea/v2"

// working says what is under way and does work off the UI loop; what
// work returns arrives as a message when it is done. work must not read
// the model: it captures what it needs before.
func (m *Model) working(doing string, work func() tea.Msg) tea.Cmd {
	return tea.Batch(m.status.set(doing, levelInfo, 0), work)
}

// starting is working on a run's beginning (the backend's Start, Resume,
// Replay or Restore): the run arrives as a runStartedMsg.
func (m *Model) starting(doing string, start func() (Run, error)) tea.Cmd {
	return m.working(doing, func() tea.Msg {
		r, err := start()
		return runStartedMsg{run: r, err: err}
	})
}
