package tui

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// sleepState is a sleep session whose sound plays on for tail after its
// words.
func sleepState(t *testing.T, id string, tail time.Duration) engine.State {
	t.Helper()
	st, err := engine.NewState(id, engine.Options{Length: 5 * time.Minute, Intention: "sleep", Sleep: true, SleepTail: tail}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// While the sound plays on after a sleep session's words, the screen says
// so quietly and offers q alone; q stops it and leaves, saying nothing of
// saving: the session was saved complete.
func TestDriftingScreenIsQuietAndQStopsIt(t *testing.T) {
	sr := newScriptedRun(t)
	sr.st = sleepState(t, sr.st.ID, 30*time.Minute)
	sr.set(engine.Progress{Status: engine.Running, Phase: engine.Resolution})
	r := &closeCounted{scriptedRun: sr}
	m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	sr.set(engine.Progress{Status: engine.Completed, Phase: engine.Resolution})
	next, _ := m.Update(eventsMsg{gen: m.gen, events: []engine.Event{
		{Kind: engine.EventCompleted, Phase: engine.Resolution},
	}})
	m = next.(Model)
	view := ansi.Strip(m.View().Content)
	for _, want := range []string{"Drifting · the sound plays on for 30 min · q stops it", "◌ drifting", "q stop the sound"} {
		if !strings.Contains(view, want) {
			t.Errorf("as the words end, the screen lacks %q:\n%s", want, view)
		}
	}
	for _, not := range []string{"The session is complete", "space", "cancel", "enter"} {
		if strings.Contains(view, not) {
			t.Errorf("while drifting, the screen shows %q:\n%s", not, view)
		}
	}
	next, _ = m.Update(eventsMsg{gen: m.gen, events: []engine.Event{
		{Kind: engine.EventDrifting, Phase: engine.Resolution, Status: engine.Running, Duration: 30 * time.Minute},
	}})
	m = next.(Model)
	if got := ansi.Strip(m.View().Content); got != view {
		t.Errorf("the drifting event changed the screen:\n%s\nwas:\n%s", got, view)
	}
	next, _ = m.Update(eventsMsg{gen: m.gen, events: []engine.Event{
		{Kind: engine.EventDrifting, Phase: engine.Resolution, Status: engine.Running, Duration: 90 * time.Second},
	}})
	m = next.(Model)
	if view := ansi.Strip(m.View().Content); !strings.Contains(view, "plays on for 2 min") {
		t.Errorf("told 90 s are left, the screen says:\n%s", view)
	}

	m, cmd := press(m, "q")
	if strings.Contains(ansi.Strip(m.View().Content), "Saving") {
		t.Error("q while drifting says it is saving")
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			if c != nil {
				msg = c()
			}
		}
	}
	closed, ok := msg.(closedMsg)
	if !ok || !closed.quit {
		t.Fatalf("q while drifting: %#v, want the run closed and lull gone", msg)
	}
	if r.closes.Load() != 1 {
		t.Errorf("q while drifting closed the run %d times", r.closes.Load())
	}
}

// closeCounted counts its closes.
type closeCounted struct {
	*scriptedRun
	closes atomic.Int32
}

func (r *closeCounted) Close() error { r.closes.Add(1); return nil }

// A sleep session that runs to its end — its words, then the sound after
// them — lets lull go by itself, the session complete; its screen never
// says "complete" as a waking session's does.
func TestSleepSessionLeavesByItself(t *testing.T) {
	for _, tail := range []time.Duration{30 * time.Minute, 0} {
		r := startTestRun(sleepState(t, "20261123-220000-slep", tail))
		m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }})
		tm := startModel(t, m, 80, 24)
		tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
		if st := r.Snapshot().Status; st != engine.Completed {
			t.Errorf("tail %v: lull left a sleep session %s", tail, st)
		}
		final, _ := tm.FinalModel(t).(Model)
		if strings.Contains(ansi.Strip(final.View().Content), "The session is complete") {
			t.Errorf("tail %v: the last screen is a waking session's end:\n%s", tail, ansi.Strip(final.View().Content))
		}
	}
}
