package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// countedRun counts the listener's pauses and resumes.
type countedRun struct {
	*scriptedRun
	pauses, resumes int
}

func (r *countedRun) Pause() error  { r.pauses++; return r.scriptedRun.Pause() }
func (r *countedRun) Resume() error { r.resumes++; return r.scriptedRun.Resume() }

// The cancel dialog holds the session still while the listener decides:
// opening it pauses a playing session and says so; "no" plays on. A
// session paused before the dialog stays paused after its "no".
func TestCancelDialogPausesAndNoResumesOnlyWhatPlayed(t *testing.T) {
	sr := newScriptedRun(t)
	at := func(status engine.Status) engine.Progress {
		return engine.Progress{Status: status, Phase: engine.Sensory, Elapsed: 200 * time.Second}
	}
	sr.set(at(engine.Running))
	sr.onPause, sr.onResume = at(engine.Paused), at(engine.Running)
	r := &countedRun{scriptedRun: sr}
	m := sized(New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }}), 80, 24)
	m.sess.started = true

	m, cmd := press(m, "c")
	m = run(t, m, cmd)
	if m.dialog != dialogCancel || r.pauses != 1 || m.sess.status != engine.Paused {
		t.Fatalf("c on a playing session: dialog %d, %d pauses, shown %s; want the dialog, 1 pause, paused", m.dialog, r.pauses, m.sess.status)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Paused while you decide") {
		t.Errorf("the dialog does not say the session is paused:\n%s", v)
	}
	m, cmd = press(m, "n")
	m = run(t, m, cmd)
	if m.dialog != dialogNone || r.resumes != 1 || m.sess.status != engine.Running {
		t.Fatalf("n after the dialog paused it: dialog %d, %d resumes, shown %s; want no dialog, 1 resume, running", m.dialog, r.resumes, m.sess.status)
	}

	// Paused by the listener first: the dialog leaves it paused, and so
	// does its "no".
	m, cmd = press(m, "space")
	m = run(t, m, cmd)
	m, cmd = press(m, "c")
	m = run(t, m, cmd)
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "Paused while you decide") {
		t.Errorf("the dialog says it paused a session that was paused already:\n%s", v)
	}
	m, cmd = press(m, "n")
	m = run(t, m, cmd)
	if r.pauses != 2 || r.resumes != 1 || m.sess.status != engine.Paused {
		t.Errorf("c then n on a paused session: %d pauses, %d resumes, shown %s; want 2, 1, paused", r.pauses, r.resumes, m.sess.status)
	}
}

// Through Bubble Tea's loop with a real engine: the engine itself pauses
// under the dialog and plays on after "no".
func TestCancelDialogPausesTheEngine(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-hold", engine.Options{Length: 30 * time.Minute}, testNow)
	r := startHeldRun(st)
	m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }})
	tm := startModel(t, m, 80, 24)
	engineSays := func(want engine.Status) {
		t.Helper()
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if r.Snapshot().Status == want {
				return
			}
		}
		t.Fatalf("the engine is %s, want %s", r.Snapshot().Status, want)
	}
	waitFor(t, tm, "speaking")
	tm.Send(tea.KeyPressMsg{Code: 'c', Text: "c"})
	waitFor(t, tm, "Paused while you decide")
	engineSays(engine.Paused)
	tm.Send(tea.KeyPressMsg{Code: 'n', Text: "n"})
	waitFor(t, tm, "speaking")
	engineSays(engine.Running)
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
}
