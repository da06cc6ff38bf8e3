package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// openSwitch opens the model switch on the interrupted screen, with the
// model the run was on.
func (m Model) openSwitch() (tea.Model, tea.Cmd) {
	current, providers := m.backend.Models()
	model := m.run.Snapshot().Model
	if model == "" {
		model = current
	}
	m.sess.sw = newModelSwitch(model, providers, m.styles)
	w, _ := m.contentSize()
	m.sess.sw.SetWidth(w)
	m.sess.switching = true
	return m, nil
}

// onSwitchKey edits the model; Enter runs the session on it, Esc goes back
// to the interrupted screen's choices.
func (m Model) onSwitchKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	res, cmd := m.sess.sw.Update(msg, m.keys)
	switch res {
	case editBack:
		m.sess.switching = false
		return m, nil
	case editSubmit:
		if m.sess.status != engine.Interrupted {
			m.sess.switching = false
			return m, nil
		}
		provider, model := m.sess.sw.Choice()
		if model == "" {
			return m, m.status.set("Type the model's name, like gpt-4.1-mini.", levelWarn, 4*time.Second)
		}
		m.sess.switching = false
		m.sess.problem, m.sess.todo = "", ""
		r := m.run
		words := "Trying " + model
		if provider != "" {
			words += " at " + provider
		}
		return m, tea.Batch(m.status.set(words+"…", levelInfo, 4*time.Second),
			m.act(func() error { return r.RetryWith(provider, model) }))
	}
	return m, cmd
}
