package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// After lull new or lull resume, esc on a session does what the help
// says — "esc pause & list" — as it does when the session was opened from
// the list: it pauses, saves, and opens the sessions. It quit to the shell.
func TestEscAfterLullNewPausesAndOpensTheList(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-escd", engine.Options{Length: 20 * time.Minute}, testNow)
	r := startHeldRun(st)
	t.Cleanup(func() { r.Close() })
	if got := waitStatus(r, engine.Running); got != engine.Running {
		t.Fatalf("the run is %s", got)
	}
	m := sized(New(Options{Backend: &fakeBackend{infos: sampleSessions()}, Run: r, Now: func() time.Time { return testNow }}), 80, 24)
	m.help.ShowAll = true
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "esc   pause & list") {
		t.Fatalf("the full help does not say what esc does:\n%s", v)
	}
	m, cmd := press(m, "esc")
	m = feedFirst(t, m, cmd, closed)
	if m.screen != screenHome {
		t.Fatalf("esc after lull new left screen %d, want the list", m.screen)
	}
	if got := r.Snapshot().Status; got != engine.Paused {
		t.Errorf("esc left the session %s, want paused", got)
	}
	if !strings.Contains(m.status.text, "Enter resumes it") {
		t.Errorf("back on the list the status line says %q", m.status.text)
	}
	// From the list, q leaves lull and the session is offered for resuming.
	_, cmd = press(m, "q")
	if !isQuit(cmd) {
		t.Error("q on the list after esc does not quit")
	}
}

// On the list, enter's help says what enter does to the session selected:
// a paused one is resumed, a finished one opened to read.
func TestHomeEnterHelpFollowsTheSelection(t *testing.T) {
	m := homeModel(t, sampleSessions(), nil)
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "enter resume") {
		t.Errorf("on a paused session the help does not say enter resumes:\n%s", v)
	}
	m, _ = press(m, "down", "down") // the completed one
	if sel, _ := m.home.Selected(); sel.Status != engine.Completed {
		t.Fatalf("selected %s", sel.Status)
	}
	v := ansi.Strip(m.View().Content)
	if strings.Contains(v, "enter resume") || !strings.Contains(v, "enter read it") {
		t.Errorf("on a completed session the help does not say enter reads it:\n%s", v)
	}
}

// The form's esc goes back to the list when the list opened it, and
// leaves lull after lull new: the help says which.
func TestFormEscHelpSaysWhereItGoes(t *testing.T) {
	direct := sized(New(Options{Backend: &fakeBackend{}, Form: true, Now: func() time.Time { return testNow }}), 80, 24)
	if v := ansi.Strip(direct.View().Content); !strings.Contains(v, "esc quit") {
		t.Errorf("after lull new the form's help does not say esc quits:\n%s", v)
	}
	_, cmd := press(direct, "esc")
	if !isQuit(cmd) {
		t.Error("esc on the form after lull new does not quit")
	}
	fromList, ask := press(homeModel(t, sampleSessions(), nil), "n")
	fromList = run(t, fromList, ask)
	if fromList.screen != screenForm {
		t.Fatalf("n opened screen %d", fromList.screen)
	}
	if v := ansi.Strip(fromList.View().Content); !strings.Contains(v, "esc back") {
		t.Errorf("from the list the form's help does not say esc goes back:\n%s", v)
	}
}

// An intention over the rule's 120 characters was cut at 120 in silence
// (the field held no more), while the README said it is refused. The
// field keeps what was typed or pasted, counts it against the most it may
// hold while it has the focus, says in red by how much it is over, and
// Begin refuses it with the rule's words; cut back to 120, it begins.
func TestFormSaysAnIntentionIsTooLong(t *testing.T) {
	b := &fakeBackend{}
	m := sized(New(Options{Backend: b, Form: true, Now: func() time.Time { return testNow }}), 80, 24)
	m, _ = press(m, "tab", "c", "a", "l", "m")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "4/120") {
		t.Errorf("the field does not count its characters:\n%s", v)
	}
	long := strings.Repeat("calm and slow ", 10) // 140 characters, 139 once its end is trimmed
	next, _ := m.Update(tea.PasteMsg{Content: long})
	m = next.(Model)
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"143/120", "At most 120 characters: 23 too many."} {
		if !strings.Contains(v, want) {
			t.Errorf("a long intention: the form does not say %q:\n%s", want, v)
		}
	}
	m, cmd := press(m, "enter")
	m = run(t, m, cmd)
	if len(b.started) != 0 || m.screen != screenForm || m.form.focus != fieldIntention {
		t.Fatalf("a 143-character intention began a session (%d) or left the field (%d)", len(b.started), m.form.focus)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "it holds at most 120") {
		t.Errorf("enter did not say why it did not begin:\n%s", v)
	}
	for range 23 {
		m, _ = press(m, "backspace")
	}
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "too many") || !strings.Contains(v, "120/120") {
		t.Errorf("cut back to 120 the form still refuses:\n%s", v)
	}
	m, cmd = press(m, "enter")
	run(t, m, cmd)
	if len(b.started) != 1 || len([]rune(b.started[0].Intention)) != 120 {
		t.Fatalf("cut back to 120: started %+v", b.started)
	}
	m.form.focus = fieldLength
	_ = b.runs[0].Close()
}
