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

var ctrlZ = tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}

// Ctrl-Z pauses the session, saved, before lull stops; back from the
// shell the session is still paused and the screen says how to go on.
func TestCtrlZPausesThenSuspends(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-susp", engine.Options{Length: 30 * time.Minute}, testNow)
	r := startHeldRun(st)
	t.Cleanup(func() { r.Close() })
	suspended := make(chan engine.Status, 1)
	m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow },
		Suspend: func() error { suspended <- r.Snapshot().Status; return nil }})
	tm := startModel(t, m, 80, 24)
	waitFor(t, tm, "speaking")
	tm.Send(ctrlZ)
	select {
	case got := <-suspended:
		if got != engine.Paused {
			t.Errorf("lull stopped with the session %s, want paused", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Ctrl-Z never suspended lull")
	}
	// What the screen says once back is TestBackFromTheShellSaysHowToGoOn's:
	// Bubble Tea may or may not repaint the whole screen after handing the
	// terminal back, so its output stream is no place to look for it.
	if got := r.Snapshot().Status; got != engine.Paused {
		t.Errorf("back from the shell the session is %s, want paused", got)
	}
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
}

// Back from the shell, a session Ctrl-Z paused says so and how to go on;
// one the listener had paused already says nothing new.
func TestBackFromTheShellSaysHowToGoOn(t *testing.T) {
	m := sessionModel(sessionState(), 80, 24) // paused
	next, _ := m.Update(resumedMsg{gen: m.gen, paused: true})
	got := ansi.Strip(next.(Model).View().Content)
	if !strings.Contains(got, "Paused while lull was suspended. Space goes on.") {
		t.Errorf("back from the shell the screen says:\n%s", got)
	}
	next, _ = m.Update(resumedMsg{gen: m.gen, paused: false})
	if got := ansi.Strip(next.(Model).View().Content); strings.Contains(got, "suspended") {
		t.Errorf("a session paused before Ctrl-Z is said to be paused by it:\n%s", got)
	}
}

// Where no shell could bring lull back, Ctrl-Z (or SIGTSTP) only pauses,
// and says why lull did not stop.
func TestStopWithoutAShellOnlyPauses(t *testing.T) {
	for name, msg := range map[string]tea.Msg{"ctrl+z": ctrlZ, "SIGTSTP": StopMsg{}} {
		t.Run(name, func(t *testing.T) {
			st, _ := engine.NewState("2026-11-23-0930-nosh", engine.Options{Length: 30 * time.Minute}, testNow)
			r := startHeldRun(st)
			t.Cleanup(func() { r.Close() })
			// The screen learns the session runs from its first snapshot.
			if got := waitStatus(r, engine.Running); got != engine.Running {
				t.Fatalf("the session is %s, want running", got)
			}
			m := sized(New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }}), 80, 24)
			next, cmd := m.Update(msg)
			m = run(t, next.(Model), cmd)
			if got := waitStatus(r, engine.Paused); got != engine.Paused {
				t.Fatalf("the session is %s, want paused", got)
			}
			if v := ansi.Strip(m.View().Content); !strings.Contains(v, "no shell to return to") || !strings.Contains(v, "paused") {
				t.Errorf("the screen does not say it paused and why lull did not stop:\n%s", v)
			}
		})
	}
}
