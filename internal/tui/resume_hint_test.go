package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lull-dev/lull/internal/engine"
)

func closed(msg tea.Msg) bool { _, ok := msg.(closedMsg); return ok }

// After q the screen keeps the session it left paused, for lull to say
// how to resume it once the terminal is back; esc back to the list says
// so on the status line. A session that ended leaves nothing to resume.
func TestQuitRemembersThePausedSessionForTheHint(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-left", engine.Options{Length: 20 * time.Minute}, testNow)
	r := startHeldRun(st)
	if got := waitStatus(r, engine.Running); got != engine.Running { // closed before it runs, it stays created
		t.Fatalf("the run is %s", got)
	}
	m := sized(New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }}), 80, 24)
	m, cmd := press(m, "q")
	m = feedFirst(t, m, cmd, closed)
	left, ok := m.Left()
	if !ok || left.ID != st.ID || left.Status != engine.Paused {
		t.Fatalf("after q the screen left %q (%s), ok %v; want %s paused", left.ID, left.Status, ok, st.ID)
	}
	if at := StoppedAt(left); !strings.HasPrefix(at, "Paused at ") || !strings.Contains(at, " of 20:00") {
		t.Errorf("the hint begins %q", at)
	}

	// Esc: back to the list, and the status line says how to go on.
	st2, _ := engine.NewState("2026-11-23-0940-list", engine.Options{Length: 10 * time.Minute}, testNow)
	r2 := startHeldRun(st2)
	if got := waitStatus(r2, engine.Running); got != engine.Running {
		t.Fatalf("the run is %s", got)
	}
	m = sized(New(Options{Backend: &fakeBackend{}, Run: r2, Now: func() time.Time { return testNow }}), 80, 24)
	m.direct = false // opened from the list
	m, cmd = press(m, "esc")
	m = feedFirst(t, m, cmd, closed)
	if m.screen != screenHome || !strings.HasPrefix(m.status.text, "Paused at ") || !strings.Contains(m.status.text, "Enter resumes it") {
		t.Errorf("back on the list (screen %d) the status line says %q", m.screen, m.status.text)
	}
	// The list, read again, has the session just left highlighted: Enter
	// resumes it, as the status line says.
	infos := sampleSessions()
	infos = append(infos[:1], append([]SessionInfo{{ID: st2.ID, Status: engine.Paused, Length: st2.Length, LastActive: testNow}}, infos[1:]...)...)
	next, _ := m.Update(sessionsMsg{infos: infos})
	m = next.(Model)
	if sel, _ := m.home.Selected(); sel.ID != st2.ID {
		t.Errorf("back on the list %q is highlighted, want %q, the session just left", sel.ID, st2.ID)
	}

	if left, ok := m.Left(); !ok || left.ID != st2.ID {
		t.Errorf("back on the list the screen forgot the session left paused: %q", left.ID)
	}

	// The same session closed again, ended (cancelled, or completed):
	// nothing is left to resume.
	next, _ = m.Update(closedMsg{id: st2.ID, st: engine.State{ID: st2.ID, Status: engine.Abandoned}})
	if left, ok := next.(Model).Left(); ok {
		t.Errorf("an abandoned session is still offered for resuming: %q", left.ID)
	}
}
