package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/safety"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// fullDisk is a store on a disk with no space left.
type fullDisk struct{ id string }

func (d fullDisk) Save(engine.State) error {
	return fmt.Errorf("saving session %s: writing session.yaml.tmp: %w", d.id, syscall.ENOSPC)
}

func (d fullDisk) Transcribe(engine.Entry) error {
	return fmt.Errorf("writing the transcript of session %s: %w", d.id, syscall.ENOSPC)
}

// startUnsavedRun runs a session whose every save fails.
func startUnsavedRun(t *testing.T, st engine.State) *testRun {
	t.Helper()
	e, err := engine.New(st, engine.Config{Screen: safety.Default(), Guide: plainGuide{}, Speaker: newQuickSpeaker(), Store: fullDisk{id: st.ID}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &testRun{Engine: e, id: st.ID, volume: 10, voiceOn: true, scape: "brown", rate: 1, scapeLevel: 10}
	r.launch(ctx, cancel)
	return r
}

// A session that completes on a full disk must not say its words are
// saved: the end screen says it was not, what is on disk and how to go
// on, and lull says it again as it exits.
func TestCompletedButUnsavedSaysSo(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-full", engine.Options{Length: 5 * time.Minute}, testNow)
	r := startUnsavedRun(t, st)
	m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }})
	tm := startModel(t, m, 80, 30)
	waitFor(t, tm, "resume it with") // shown on the end screen alone
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	waitFor(t, tm, "No sessions yet") // it went back to the list, the error on the status line
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
	final := tm.FinalModel(t).(Model)
	if !strings.Contains(final.status.text, "was not saved") {
		t.Errorf("the list's status line says %q", final.status.text)
	}
	if err := final.Unsaved(); err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Errorf("as lull exits it says: %v", err)
	}
}

// The end screen of a completed session, saved and not.
func TestCompletedViewTellsTheTruth(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-full", engine.Options{Length: 5 * time.Minute}, testNow)
	r := startUnsavedRun(t, st)
	defer r.Close()
	m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 30)
	sub := r.Subscribe() // from the first event
	defer sub.Close()
	<-r.finished()
	m.attach(r)
	next, cmd := m.Update(eventsMsg{gen: m.gen, events: mustNext(t, sub)})
	m = drain(t, next.(Model), cmd)
	if m.sess.status != engine.Completed {
		t.Fatalf("the view is %s", m.sess.status)
	}
	view := ansi.Strip(m.View().Content)
	for _, want := range []string{"The session is complete.", "was not saved", "no space left on device",
		"On disk it is still at Atmosphere, 0:00 of 5:00.", "then resume it with:", "lull resume 2026-11-23-0930-full"} {
		if !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
			t.Errorf("the end screen does not say %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "saved with the session") {
		t.Errorf("the end screen says the words are saved:\n%s", view)
	}

	completed := sessionState()
	completed.Status = engine.Completed
	completed.Summary = &engine.Summary{Duration: 10*time.Minute + 2*time.Second, Sentences: 71}
	unsaved := sessionModel(completed, 80, 24)
	unsaved.sess.unsaved = "session 2026-11-23-1200-k3f9 was not saved: saving session 2026-11-23-1200-k3f9: writing session.yaml.tmp: no space left on device.\n" +
		"On disk it is still at Sensory, 3:42 of 10:00.\nFree some space on its disk, then resume it with:\n  lull resume 2026-11-23-1200-k3f9"
	for _, dark := range []bool{true, false} {
		name := "completed_unsaved_dark"
		if !dark {
			name = "completed_unsaved_light"
		}
		golden(t, name, styled(unsaved, dark).View().Content)
	}
}

// mustNext is the run's events so far.
func mustNext(t *testing.T, sub *engine.Subscription) []engine.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	evs, err := sub.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// drain runs the commands an update returned that answer at once (a
// check of the disk), not its timers or its wait for events.
func drain(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		return m
	}
	msg := cmd()
	batch, ok := msg.(tea.BatchMsg)
	if !ok {
		batch = tea.BatchMsg{func() tea.Msg { return msg }}
	}
	for _, c := range batch {
		if c == nil {
			continue
		}
		ch := make(chan tea.Msg, 1)
		go func() { ch <- c() }()
		select {
		case msg := <-ch:
			if _, isEvents := msg.(eventsMsg); isEvents {
				continue // this loop reads the events itself
			}
			next, _ := m.Update(msg)
			m = next.(Model)
		case <-time.After(100 * time.Millisecond):
			// a timer or a wait for events: not this step's
		}
	}
	return m
}

// What lull says as it exits is how each session stands at its last close.
func TestUnsavedIsHowEachSessionStandsNow(t *testing.T) {
	m := New(Options{Backend: &fakeBackend{}, Now: func() time.Time { return testNow }})
	step := func(msg closedMsg) {
		next, _ := m.Update(msg)
		m = next.(Model)
	}
	step(closedMsg{id: "a", err: fmt.Errorf("session a was not saved: %w.\nOn disk it is still at Atmosphere", syscall.ENOSPC)})
	step(closedMsg{id: "b", err: errors.New("session b was not saved: the disk is gone.")})
	if got := m.status.text; got != "session b was not saved: the disk is gone." {
		t.Errorf("the status line says %q", got)
	}
	step(closedMsg{id: "a"}) // resumed later, and saved this time
	if err := m.Unsaved(); err == nil || err.Error() != "session b was not saved: the disk is gone." {
		t.Errorf("Unsaved: %v", err)
	}
}

// Back on the list after leaving a session, its row says how the run left
// it — paused — and not what the list said before the run: "left running"
// for the session this lull had resumed.
func TestLeavingShowsTheSessionAsTheRunLeftIt(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-left", engine.Options{Length: 5 * time.Minute, Intention: "first light"}, testNow)
	m := homeModel(t, []SessionInfo{{ID: st.ID, Intention: "first light", Status: engine.Running, Length: 5 * time.Minute, Created: testNow, LastActive: testNow}}, nil)
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "left running") {
		t.Fatalf("the list before the run does not say left running:\n%s", v)
	}
	r := startHeldRun(st) // never completes: closing it pauses it
	if got := waitStatus(r, engine.Running); got != engine.Running {
		t.Fatalf("the run is %s", got)
	}
	m.attach(r)
	m.setState(screenSession)
	var closed *closedMsg
	msg := m.closeRun(false)()
	batch, ok := msg.(tea.BatchMsg)
	if !ok {
		batch = tea.BatchMsg{func() tea.Msg { return msg }}
	}
	for _, c := range batch {
		if c == nil {
			continue
		}
		if cm, ok := c().(closedMsg); ok {
			closed = &cm
		}
	}
	if closed == nil {
		t.Fatal("closing the run sent no closedMsg")
	}
	next, _ := m.Update(*closed) // the list is not read again yet
	v := ansi.Strip(next.(Model).View().Content)
	if strings.Contains(v, "left running") || !strings.Contains(v, "paused") {
		t.Errorf("back on the list, the session just paused is not shown paused:\n%s", v)
	}
}
