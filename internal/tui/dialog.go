package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// dialogView asks the open question in a box over the screen.
func (m Model) dialogView(width, height int) string {
	s := m.styles
	if m.dialog == dialogCrisis {
		rows, room := m.crisisRows(width, height)
		if room == 0 {
			box := s.Text.Render(strings.Join(rows, "\n")) + "\n\n" + s.Muted.Render("Press any key to go back.")
			return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
		}
		// Too short a screen for every word: they scroll, and the last
		// row says how to read on.
		top := min(m.crisisTop, len(rows)-room)
		hint := "↑/↓ to read; any other key: back"
		if top+room < len(rows) {
			hint = "↓ more (↑/↓); any other key: back"
		}
		return s.Text.Render(strings.Join(rows[top:top+room], "\n")) + "\n" + s.Muted.Render(truncate(hint, width))
	}
	if m.dialog == dialogLeftRunning || m.dialog == dialogStale {
		box, compact := m.recoveryDialog(width)
		if !fits(box, width) || lipgloss.Height(box) > height {
			box = compact
		}
		return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
	}
	if m.dialog == dialogSleepMood {
		box := m.sleepMoodDialog(width)
		return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
	}
	if m.dialog == dialogSalvage {
		box := m.salvageDialog(width, height)
		return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
	}
	var title, subject, body string
	room := max(width-8, 10) // inside the box's border and padding
	switch m.dialog {
	case dialogDelete:
		title = "Delete this session?"
		body = "Its saved words and progress will be removed for good."
		if in, ok := m.home.find(m.target); ok {
			// Name it: a list row is easy to mistake for its neighbour.
			name, about := deleteWords(in)
			subject = truncate(name, room)
			body = truncate(about, room) + "\n\n" + body
		}
	case dialogCancel:
		title = "Cancel this session?"
		body = "It will be marked abandoned and cannot be resumed.\nIts words so far stay saved."
		if m.sess.unsaved != "" {
			body = "It will be marked abandoned and cannot be resumed.\nIts last saves did not reach the disk: lull will say what is kept."
		}
		if m.cancelPaused {
			body = "Paused while you decide; n carries on.\n\n" + body
		}
	}
	head := s.Heading.Render(title)
	if subject != "" {
		head += "\n" + s.Text.Render(subject)
	}
	box := s.Dialog.Render(head + "\n\n" + s.Text.Render(body) + "\n\n" +
		s.Accent.Render("y") + s.Muted.Render(" yes   ") + s.Accent.Render("n") + s.Muted.Render(" no"))
	if lipgloss.Width(box) > width {
		box = s.Heading.Render(title) + "\n"
		if subject != "" {
			box += s.Text.Render(truncate(subject, max(width, 2))) + "\n"
		}
		box += s.Muted.Render("y yes · n no")
	}
	return lipgloss.Place(width, max(height-2, lipgloss.Height(box)), lipgloss.Center, lipgloss.Center, box)
}

// crisisRows is the crisis message laid out in width cells, and the rows
// it may show at once in height: 0 when it fits whole with the way back.
func (m Model) crisisRows(width, height int) (rows []string, room int) {
	// The message is plain text laid out by its writer (a short table of
	// lines by country): wrap it only when the screen is narrower.
	msg := strings.TrimSpace(m.crisis)
	wrap := lipgloss.NewStyle().Width(max(min(width, lipgloss.Width(msg)), 1))
	text := wrap.Render(msg)
	if lipgloss.Height(text)+2 > height {
		// A short screen keeps every word and the way back: the blank
		// lines between paragraphs go first.
		text = wrap.Render(strings.ReplaceAll(msg, "\n\n", "\n"))
	}
	rows = strings.Split(text, "\n")
	if len(rows)+2 <= height {
		return rows, 0
	}
	return rows, min(max(height-1, 1), len(rows))
}

// scrollCrisis moves the crisis message by rows, within its ends.
func (m *Model) scrollCrisis(by int) {
	w, h := m.contentSize()
	rows, room := m.crisisRows(w, h)
	m.crisisTop = min(max(m.crisisTop+by, 0), max(len(rows)-room, 0))
}

// deleteWords name the session a delete is about, the way the list shows
// it: "calm before a talk" (or "No intention"), and "paused at sensory,
// 3:42 of 10:00 · began Mon 23 Nov, 12:00".
func deleteWords(in SessionInfo) (name, about string) {
	name = "No intention"
	if in.Intention != "" {
		name = "“" + in.Intention + "”"
	}
	about = statusLabel(in)
	switch in.Status {
	case engine.Completed:
		about += ", " + human.Clock(spokenSoFar(in))
	default:
		about += fmt.Sprintf(" at %s, %s of %s", in.Phase, human.Clock(spokenSoFar(in)), human.Clock(in.Length))
	}
	if !in.Created.IsZero() {
		about += " · began " + in.Created.Local().Format("Mon 2 Jan, 15:04")
	}
	return name, about
}

// spokenSoFar is how far into its length a listed session came.
func spokenSoFar(in SessionInfo) time.Duration {
	return time.Duration(in.Progress * float64(in.Length))
}
