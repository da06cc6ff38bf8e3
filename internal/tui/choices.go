package tui

import tea "charm.land/bubbletea/v2"

// The choices the new-session form offers are asked of the backend off
// the UI goroutine: finding them probes the voices, which can start a
// voice engine several times over.

// formChoicesMsg carries the choices for the new-session form.
type formChoicesMsg struct{ c Choices }

// askFormChoices asks the backend for the form's choices.
func (m Model) askFormChoices() tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		var c Choices
		if b != nil {
			c = b.Choices()
		}
		return formChoicesMsg{c}
	}
}
