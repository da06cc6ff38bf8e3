package tui

import (
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// scriptedRun is a session whose clock the test sets: the engine's
// progress as it would report it, including its step back to the last
// sentence spoken in full when it pauses.
type scriptedRun struct {
	*testRun // the rest of Run; its engine never runs
	mu       sync.Mutex
	st       engine.State
	progress engine.Progress
	onPause  engine.Progress // what the engine reports once paused
	onResume engine.Progress
}

func newScriptedRun(t *testing.T) *scriptedRun {
	st, _ := engine.NewState("2026-11-23-1200-clok", engine.Options{Length: 10 * time.Minute}, testNow)
	e, err := engine.New(st, engine.Config{Screen: safety.Default(), Guide: plainGuide{}, Speaker: newQuickSpeaker()})
	if err != nil {
		t.Fatal(err)
	}
	st.Status = engine.Running
	return &scriptedRun{testRun: &testRun{Engine: e, id: st.ID, closed: true}, st: st}
}

func (r *scriptedRun) set(p engine.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p.Length = r.st.Length
	r.progress = p
	r.st.Status = p.Status
}

func (r *scriptedRun) Snapshot() engine.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st
}

func (r *scriptedRun) Progress() engine.Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.progress
}

func (r *scriptedRun) Pause() error  { r.set(r.onPause); return nil }
func (r *scriptedRun) Resume() error { r.set(r.onResume); return nil }

var shownElapsed = regexp.MustCompile(`(\d+:\d\d) elapsed`)

// shown is the elapsed time, the status word and the filled cells of the
// phase bar as the screen shows them.
func shown(t *testing.T, m Model) (clock, status string, filled int) {
	t.Helper()
	v := ansi.Strip(m.View().Content)
	c := shownElapsed.FindStringSubmatch(v)
	if c == nil {
		t.Fatalf("no clock on the screen:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if strings.Contains(l, "─") || strings.Contains(l, "━") {
			filled = strings.Count(l, "━")
			break
		}
	}
	return c[1], m.sess.statusWord(), filled
}

// The engine counts time sentence by sentence: paused, its clock reads the
// end of the last sentence spoken in full, seconds behind the running
// clock the listener saw. On screen the clock freezes where it was when
// the listener paused, never steps back, and goes on after a resume only
// once the engine's count passes it.
func TestPausedClockFreezesAndNeverStepsBack(t *testing.T) {
	r := newScriptedRun(t)
	sensory := func(status engine.Status, elapsed, inPhase time.Duration) engine.Progress {
		return engine.Progress{Status: status, Phase: engine.Sensory, Elapsed: elapsed,
			PhaseElapsed: inPhase, PhaseTarget: 168 * time.Second}
	}
	r.set(sensory(engine.Running, 3*time.Minute+45*time.Second, 100*time.Second))
	// A long sentence was cut by the pause: the engine's count goes back 20 s.
	r.onPause = sensory(engine.Paused, 3*time.Minute+25*time.Second, 80*time.Second)
	r.onResume = sensory(engine.Running, 3*time.Minute+25*time.Second, 80*time.Second)

	m := sized(New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }}), 80, 24)
	m.sess.started = true // a sentence has been spoken: running shows as speaking
	tick := func() {
		t.Helper()
		next, _ := m.Update(tickMsg{gen: m.gen})
		m = next.(Model)
	}
	tick()
	clock, status, fill := shown(t, m)
	if clock != "3:45" || status == "paused" {
		t.Fatalf("running: the screen shows %s, %s", clock, status)
	}

	// Space: paused at once, before the engine has confirmed. A tick that
	// still reads the engine running must not flip it back or move it on.
	m, cmd := press(m, "space")
	if c, s, f := shown(t, m); c != "3:45" || s != "paused" || f != fill {
		t.Errorf("just paused: %s, %s, bar %d (was 3:45, paused, %d)", c, s, f, fill)
	}
	r.set(sensory(engine.Running, 3*time.Minute+47*time.Second, 102*time.Second))
	tick()
	if c, s, _ := shown(t, m); c != "3:45" || s != "paused" {
		t.Errorf("a tick before the engine paused: %s, %s; want 3:45, paused", c, s)
	}

	// The engine pauses and reports the last sentence spoken in full.
	m = run(t, m, cmd)
	next, _ := m.Update(eventsMsg{gen: m.gen, events: []engine.Event{{Kind: engine.EventStatus, Status: engine.Paused, Prev: engine.Running}}})
	m = next.(Model)
	for range 3 {
		tick()
		if c, s, f := shown(t, m); c != "3:45" || s != "paused" || f != fill {
			t.Errorf("paused, the engine at 3:25: the screen shows %s, %s, bar %d; want 3:45, paused, %d", c, s, f, fill)
		}
	}

	// Resumed: the engine's count starts again from 3:25; the screen holds
	// 3:45 until the count passes it, then follows.
	m, cmd = press(m, "space")
	m = run(t, m, cmd)
	for _, at := range []time.Duration{3*time.Minute + 30*time.Second, 3*time.Minute + 45*time.Second} {
		r.set(sensory(engine.Running, at, 100*time.Second-(3*time.Minute+45*time.Second-at)))
		tick()
		if c, s, f := shown(t, m); c != "3:45" || s != "speaking" || f < fill {
			t.Errorf("resumed, the engine at %v: %s, %s, bar %d; want 3:45, speaking, at least %d", at, c, s, f, fill)
		}
	}
	r.set(sensory(engine.Running, 3*time.Minute+50*time.Second, 105*time.Second))
	tick()
	if c, _, _ := shown(t, m); c != "3:50" {
		t.Errorf("past the frozen time the clock shows %s, want 3:50", c)
	}
}

// The listener's pause, refused by the engine (the session completed in
// between), gives the screen back to the engine's word.
func TestRefusedPauseShowsTheEnginesStatus(t *testing.T) {
	r := newScriptedRun(t)
	r.set(engine.Progress{Status: engine.Running, Phase: engine.Atmosphere, Elapsed: 20 * time.Second})
	m := sized(New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }}), 80, 24)
	m.sess.started = true
	m, _ = press(m, "space")
	next, _ := m.Update(actionMsg{gen: m.gen, err: &engine.TransitionError{From: engine.Running, To: engine.Paused}})
	m = next.(Model)
	next, _ = m.Update(tickMsg{gen: m.gen})
	m = next.(Model)
	if _, s, _ := shown(t, m); s != "speaking" {
		t.Errorf("after a refused pause the screen says %s, want speaking", s)
	}
}

// While a remote guide is slow to give its next line the engine says so
// (Progress.Waiting), and the screen says the guide is awaited — not that
// it speaks — until its words come.
func TestWaitingForTheGuideIsShown(t *testing.T) {
	r := newScriptedRun(t)
	at := func(status engine.Status, waiting bool) engine.Progress {
		return engine.Progress{Status: status, Phase: engine.Breathing, Elapsed: 90 * time.Second, Waiting: waiting}
	}
	m := sized(New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }}), 80, 24)
	m.sess.started = true
	for _, c := range []struct {
		p    engine.Progress
		want string
	}{
		{at(engine.Running, false), "speaking"},
		{at(engine.Running, true), "waiting for the guide"},
		{at(engine.Running, false), "speaking"},
	} {
		r.set(c.p)
		next, _ := m.Update(tickMsg{gen: m.gen})
		m = next.(Model)
		if _, s, _ := shown(t, m); s != c.want {
			t.Errorf("waiting %v: the screen says %q, want %q", c.p.Waiting, s, c.want)
		}
		if v := ansi.Strip(m.View().Content); !strings.Contains(v, c.want) {
			t.Errorf("waiting %v: %q is not on the screen:\n%s", c.p.Waiting, c.want, v)
		}
	}
}

// The session screen reads its clocks by the one rule (human.Clock, to
// the nearest second), as sessions show does: 599.6 s is 10:00 elapsed,
// and what remains is counted from what is shown, so the two add up.
func TestSessionClockRoundsAsShowDoes(t *testing.T) {
	for _, c := range []struct {
		elapsed        time.Duration
		shown, remains string
	}{
		{599600 * time.Millisecond, "10:00", "10:00"},
		{599400 * time.Millisecond, "9:59", "10:01"},
		{600 * time.Millisecond, "0:01", "19:59"},
	} {
		st := sessionState()
		st.Length = 20 * time.Minute
		st.Elapsed = c.elapsed
		v := ansi.Strip(sessionModel(st, 80, 24).View().Content)
		if !strings.Contains(v, c.shown+" elapsed") || !strings.Contains(v, "remaining "+c.remains) {
			t.Errorf("%v of 20:00: want %s elapsed, remaining %s; the screen shows:\n%s", c.elapsed, c.shown, c.remains, v)
		}
	}
}
