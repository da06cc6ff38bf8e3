package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// recoveredMsg says how a summarize, discard or clean-up went.
type recoveredMsg struct {
	action  string // "summarized", "discarded", "cleaned"
	summary engine.Summary
	cleaned int
	err     error
}

// offerRecovery looks at a fresh list of sessions. The first time, it
// notes every session left running by a lull that stopped, and whether
// stale sessions are to be offered a clean-up; then, on the home screen
// with nothing else asked, it asks about the next one.
func (m *Model) offerRecovery(infos []SessionInfo) {
	r := &m.recovery
	if !r.checked {
		r.checked = true
		r.askStale = true
		for _, in := range infos {
			// One this screen closed without saving was left running by
			// no one: the listener has been told what is on disk.
			if _, told := m.unsaved[in.ID]; in.LeftRunning() && !told {
				r.offers = append(r.offers, in.ID)
			}
		}
	}
	if m.screen != screenHome || m.dialog != dialogNone {
		return
	}
	for len(r.offers) > 0 {
		id := r.offers[0]
		r.offers = r.offers[1:]
		for _, in := range infos {
			if in.ID == id && in.LeftRunning() { // still as it was left
				r.offer = in
				m.target = id
				m.dialog = dialogLeftRunning
				return
			}
		}
	}
	if !r.askStale {
		return
	}
	r.askStale = false
	r.stale = staleSessions(infos, m.now())
	if len(r.stale) > 0 {
		m.dialog = dialogStale
	}
}

// staleSessions are those waiting longer than engine.StaleAfter. One left
// running has its own offer and is not among them.
func staleSessions(infos []SessionInfo, now time.Time) []SessionInfo {
	var out []SessionInfo
	for _, in := range infos {
		if in.Idle(now) == engine.Stale && !in.LeftRunning() {
			out = append(out, in)
		}
	}
	return out
}

func (m Model) onRecoveryKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	b, id := m.backend, m.target
	if m.dialog == dialogStale {
		switch {
		case key.Matches(msg, m.keys.CleanUp):
			m.dialog = dialogNone
			var ids []string
			for _, in := range m.recovery.stale {
				ids = append(ids, in.ID)
			}
			return m, m.working("Cleaning up…", func() tea.Msg {
				n, err := b.CleanUp(ids)
				return recoveredMsg{action: "cleaned", cleaned: n, err: err}
			})
		case key.Matches(msg, m.keys.Keep):
			m.dialog = dialogNone
			return m, m.status.set("Kept as they are.", levelInfo, 3*time.Second)
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, m.keys.Reopen):
		m.dialog = dialogNone
		return m, m.starting("Opening…", func() (Run, error) { return b.Resume(id) })
	case key.Matches(msg, m.keys.Summarize):
		m.dialog = dialogNone
		return m, m.working("Summarizing…", func() tea.Msg {
			sum, err := b.Summarize(id)
			return recoveredMsg{action: "summarized", summary: sum, err: err}
		})
	case key.Matches(msg, m.keys.Discard):
		m.dialog = dialogNone
		return m, m.working("Discarding…", func() tea.Msg {
			return recoveredMsg{action: "discarded", err: b.Discard(id)}
		})
	case key.Matches(msg, m.keys.Later):
		m.dialog = dialogNone
		status := m.status.set("Left as it is: it waits in your list, marked left running.", levelInfo, 4*time.Second)
		return m, tea.Batch(status, m.loadSessions()) // and on to the next offer
	case key.Matches(msg, m.keys.Quit):
		// Decide later, and leave now: q quits wherever it is pressed.
		m.dialog = dialogNone
		return m, tea.Quit
	}
	return m, nil
}

func (m Model) onRecovered(msg recoveredMsg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch {
	case msg.err != nil && msg.action == "cleaned" && msg.cleaned > 0:
		cmd = m.status.set(fmt.Sprintf("Cleaned up %s; not the others: %s", sessionsWord(msg.cleaned), friendly(msg.err)), levelWarn, 10*time.Second)
	case msg.err != nil:
		cmd = m.status.set(friendly(msg.err), levelError, 10*time.Second)
	case msg.action == "summarized":
		s := msg.summary
		cmd = m.status.set(fmt.Sprintf("Summarized: %d sentences, %s, kept. Marked completed (partial).",
			s.Sentences, human.Clock(s.Duration)), levelInfo, 6*time.Second)
	case msg.action == "discarded":
		cmd = m.status.set("Discarded: marked abandoned. Its words stay saved.", levelInfo, 6*time.Second)
	case msg.action == "cleaned":
		cmd = m.status.set(fmt.Sprintf("Cleaned up %s: marked abandoned. Their words stay saved.", sessionsWord(msg.cleaned)), levelInfo, 6*time.Second)
	}
	return m, tea.Batch(cmd, m.loadSessions())
}

func sessionsWord(n int) string {
	if n == 1 {
		return "1 session"
	}
	return fmt.Sprintf("%d sessions", n)
}

// where says how far a session came and when: "sensory, 3:42 of 10:00,
// last active 2 hours ago".
func where(in SessionInfo, now time.Time) string {
	return fmt.Sprintf("%s, %s of %s, last active %s", in.Phase, human.Clock(spokenSoFar(in)), human.Clock(in.Length), human.Ago(in.LastActive, now))
}

// recoveryDialog is the box for a left-running session or for the stale
// ones; compact is the one or two lines used when the box does not fit.
func (m Model) recoveryDialog(width int) (box, compact string) {
	s := m.styles
	keyRow := func(k, what string) string {
		return s.Accent.Render(fmt.Sprintf("%-4s", k)) + " " + s.Text.Render(what)
	}
	now := m.now()
	if m.dialog == dialogStale {
		stale := m.recovery.stale
		title := fmt.Sprintf("%s waited more than a week", sessionsWord(len(stale)))
		if len(stale) == 1 {
			title = "A session has waited more than a week"
		}
		var lines []string
		for i, in := range stale {
			if i == 3 {
				lines = append(lines, s.Muted.Render(fmt.Sprintf("… and %d more", len(stale)-3)))
				break
			}
			lines = append(lines, s.Text.Render(truncate(sessionItem{in}.title(), 36))+
				s.Muted.Render(fmt.Sprintf(" · %s, last active %s", in.Status, human.Ago(in.LastActive, now))))
		}
		body := strings.Join(lines, "\n") + "\n\n" +
			s.Muted.Render("Cleaning up marks them abandoned: they leave the list of\nsessions to resume, and their words stay saved.") + "\n\n" +
			keyRow("c", "clean up (discard them)") + "\n" + keyRow("esc", "keep them")
		return s.Dialog.Render(s.Heading.Render(title) + "\n\n" + body),
			s.Heading.Render(wrap(title, width)) + "\n" + s.Muted.Render(wrap("c clean up · esc keep", width))
	}
	in := m.recovery.offer
	title := "A session was left running when lull stopped"
	more := ""
	if n := len(m.recovery.offers); n > 0 {
		more = "\n" + s.Muted.Render(fmt.Sprintf("(%d more after this one)", n))
	}
	body := s.Text.Render(truncate(sessionItem{in}.title(), 60)) + "\n" +
		s.Muted.Render(where(in, now)+".") + more + "\n\n" +
		keyRow("r", "resume where it stopped") + "\n" +
		keyRow("s", "summarize: keep what was spoken, mark it completed (partial)") + "\n" +
		keyRow("d", "discard: mark it abandoned (its words stay saved)") + "\n" +
		keyRow("esc", "decide later") + "\n" +
		keyRow("q", "decide later, and quit")
	// Narrow: which session, where it stopped, and the keys, wrapped.
	compact = s.Heading.Render(wrap(title, width)) + "\n" +
		s.Text.Render(truncate(sessionItem{in}.title(), width)) + "\n" +
		s.Muted.Render(wrap(where(in, now)+".", width)) + "\n" +
		s.Muted.Render(wrap("r resume · s summarize · d discard · esc later · q quit", width))
	return s.Dialog.Render(s.Heading.Render(title) + "\n\n" + body), compact
}

// fits reports whether a dialog box fits the width.
func fits(box string, width int) bool { return lipgloss.Width(box) <= width }
