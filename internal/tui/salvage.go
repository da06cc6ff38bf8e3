package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/human"
)

// salvage is the third recovery level on screen: a session whose file,
// backup and transcript all failed to load. The dialog lists what its
// folder holds and asks where to begin again.
type salvage struct {
	what Salvaged
	at   int // index into what.From
}

// salvagedMsg carries what Backend.Salvage found.
type salvagedMsg struct {
	what Salvaged
	err  error
}

// lookAtUnreadable asks the backend about the first unreadable session.
func (m Model) lookAtUnreadable() tea.Cmd {
	id, ok := m.home.salvageable()
	if !ok {
		return nil
	}
	b := m.backend
	return func() tea.Msg {
		what, err := b.Salvage(id)
		return salvagedMsg{what: what, err: err}
	}
}

func (m Model) onSalvaged(msg salvagedMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		return m, m.status.set(friendly(msg.err), levelError, 10*time.Second)
	}
	if m.screen != screenHome || m.dialog != dialogNone {
		return m, nil
	}
	for i, f := range msg.what.Found {
		msg.what.Found[i] = human.Line(f) // what the files hold, quoted
	}
	m.salvage = salvage{what: msg.what, at: max(len(msg.what.From)-1, 0)}
	m.target = msg.what.ID
	m.dialog = dialogSalvage
	return m, nil
}

func (m Model) onSalvageKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	sv := &m.salvage
	switch {
	case key.Matches(msg, m.keys.Later):
		m.dialog = dialogNone
		return m, nil
	case key.Matches(msg, m.keys.Delete):
		m.dialog = dialogDelete // asks first, like any delete
		return m, nil
	case key.Matches(msg, m.keys.Begin) && len(sv.what.From) > 0:
		m.dialog = dialogNone
		b, id, at := m.backend, sv.what.ID, sv.what.From[sv.at]
		return m, m.starting("Beginning again at "+at.Title()+"…", func() (Run, error) { return b.Restore(id, at) })
	case msg.String() == "left":
		sv.at = max(sv.at-1, 0)
	case msg.String() == "right":
		sv.at = min(sv.at+1, max(len(sv.what.From)-1, 0))
	}
	return m, nil
}

// salvageDialog lays out what was found and the choice of where to begin,
// in width × height cells: boxed where it fits, else plain, and on a
// short screen the choice first and what was found after it.
func (m Model) salvageDialog(width, height int) string {
	s, sv := m.styles, m.salvage
	w := min(width-4, 76)
	wrapped := lipgloss.NewStyle().Width(max(w-4, 20))
	heading := s.Heading.Render("This session cannot be read, nor rebuilt.")
	var found []string
	for _, f := range sv.what.Found {
		found = append(found, s.Muted.Render(wrapped.Render(f)))
	}
	var choice, brief []string
	if len(sv.what.From) == 0 {
		choice = append(choice, s.Text.Render("Nothing in it can be resumed. d deletes it; esc leaves it."))
		brief = choice
	} else {
		phases := make([]string, len(sv.what.From))
		for i, p := range sv.what.From {
			phases[i] = p.Title()
		}
		choice = append(choice, s.Text.Render("Begin again at:"), choiceWindow(phases, sv.at, max(w-4, 20), s),
			s.Muted.Render(wrapped.Render("What was spoken before it is kept; the phase begins afresh.")))
		brief = []string{s.Text.Render("Begin again at:") + " " + choiceWindow(phases, sv.at, max(width-16, 8), s)}
	}
	lines := append(append(append([]string{heading, ""}, found...), ""), choice...)
	box := s.Dialog.Render(strings.Join(lines, "\n"))
	if fits(box, width) && lipgloss.Height(box) <= height {
		return box
	}
	return fitRows(width, height, s, lines, append(append([]string{heading}, brief...), found...))
}

func (k KeyMap) salvageHelp(canBegin bool) screenKeys {
	begin := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "begin there"))
	change := key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "phase"))
	leave := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave it"))
	if !canBegin {
		return screenKeys{short: []key.Binding{k.Delete, leave}, full: [][]key.Binding{{k.Delete, leave}}}
	}
	return screenKeys{short: []key.Binding{change, begin, k.Delete, leave}, full: [][]key.Binding{{change, begin}, {k.Delete, leave}}}
}
