package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// dialogView asks the open question in a box over the screen.
func (m Model) dialogView(width, height int) string {
	s := m.styles
	if m.dialog == dialogCrisis {
		// The message is plain text laid out by its writer (a short table
		// of lines by country): wrap it only when the screen is narrower.
		msg := strings.TrimSpace(m.crisis)
		wrap := lipgloss.NewStyle().Width(min(width, lipgloss.Width(msg)))
		text := wrap.Render(msg)
		if lipgloss.Height(text)+2 > height {
			// A short screen keeps every word and the way back: the blank
			// lines between paragraphs go first.
			text = wrap.Render(strings.ReplaceAll(msg, "\n\n", "\n"))
		}
		box := s.Text.Render(text) + "\n\n" + s.Muted.Render("Press any key to go back.")
		return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
	}
	if m.dialog == dialogLeftRunning || m.dialog == dialogStale {
		box, compact := m.recoveryDialog()
		if !fits(box, width) {
			box = compact
		}
		return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
	}
	if m.dialog == dialogSleepMood {
		box := m.sleepMoodDialog(width)
		return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
	}
	if m.dialog == dialogSalvage {
		box := m.salvageDialog(width)
		return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
	}
	var title, body string
	switch m.dialog {
	case dialogDelete:
		title = "Delete this session?"
		body = "Its saved words and progress will be removed for good."
	case dialogCancel:
		title = "Cancel this session?"
		body = "It will be marked abandoned and cannot be resumed.\nIts words so far stay saved."
		if m.sess.unsaved != "" {
			body = "It will be marked abandoned and cannot be resumed.\nIts last saves did not reach the disk: lull will say what is kept."
		}
	}
	box := s.Dialog.Render(s.Heading.Render(title) + "\n\n" + s.Text.Render(body) + "\n\n" +
		s.Accent.Render("y") + s.Muted.Render(" yes   ") + s.Accent.Render("n") + s.Muted.Render(" no"))
	if lipgloss.Width(box) > width {
		box = s.Heading.Render(title) + "\n" + s.Muted.Render("y yes · n no")
	}
	return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
}
