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

// practiceState is a two-minute 4-7-8 breathing practice under way.
func practiceState(t *testing.T) engine.State {
	t.Helper()
	st, err := engine.NewState("2026-11-23-1200-b4r8", engine.Options{Length: 2 * time.Minute, Seed: 7,
		Practice: engine.PracticeBreathe, Pattern: "4-7-8"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	st.Status = engine.Running
	st.Phase = engine.Breathing
	st.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
	st.Phases[engine.Breathing].Status = engine.PhaseActive
	st.Position = engine.Position{Phase: engine.Breathing}
	st.Elapsed = 42 * time.Second
	return st
}

// practiceModel is the practice on screen, the pacer at b.
func practiceModel(t *testing.T, b *engine.Breath, w, h int) Model {
	t.Helper()
	st := practiceState(t)
	m := New(Options{Backend: &fakeBackend{}, Now: func() time.Time { return testNow }})
	m = sized(m, w, h)
	m.sess = newSessionView(st)
	m.sess.progress = engine.Progress{Status: st.Status, Phase: st.Phase, Elapsed: st.Elapsed, Length: st.Length, Breath: b}
	m.sess.apply(engine.Event{Kind: engine.EventBreath, Phase: engine.Breathing, Index: 2, Text: "breath 2 of 6"})
	m.screen = screenSession
	return m
}

var pattern478 = engine.BreathPattern{Inhale: 4 * time.Second, Hold: 7 * time.Second, Exhale: 8 * time.Second}

func TestGoldenBreatheMode(t *testing.T) {
	for _, dark := range []bool{true, false} {
		suffix := "_dark"
		if !dark {
			suffix = "_light"
		}
		b := pattern478.At(2 * time.Second) // halfway through the inhale
		m := practiceModel(t, &b, 80, 24)
		golden(t, "breathe_mode"+suffix, styled(m, dark).View().Content)
	}
}

// The practice's screen is the breath alone: no transcript, no phase bar,
// the pattern, the time left and the keys of a practice.
func TestBreatheModeShowsTheBreathAlone(t *testing.T) {
	b := pattern478.At(2 * time.Second)
	v := ansi.Strip(practiceModel(t, &b, 80, 24).View().Content)
	for _, want := range []string{"paced breathing", "4-7-8", "breathe in", "breath 2 of 6", "remaining 1:18", "space pause/resume", "+ louder", "- softer", "q quit"} {
		if !strings.Contains(v, want) {
			t.Errorf("the breathing mode does not show %q:\n%s", want, v)
		}
	}
	for _, not := range []string{"Atmosphere", "Sensory", "—"} {
		if strings.Contains(v, not) {
			t.Errorf("the breathing mode shows %q (a phase bar or transcript):\n%s", not, v)
		}
	}
	if n := len(strings.Split(v, "\n")); n > 24 {
		t.Errorf("%d lines on a 24-line terminal", n)
	}
}

// The disc grows with the inhale and shrinks with the exhale: it draws
// Progress.Breath, the clock the tone is read from.
func TestBreatheDiscFollowsTheBreath(t *testing.T) {
	size := func(at time.Duration) int {
		b := pattern478.At(at)
		v := ansi.Strip(practiceModel(t, &b, 80, 24).View().Content)
		return strings.Count(v, "●") + strings.Count(v, "·")
	}
	s := time.Second
	empty, mid, full, held, out := size(0), size(2*s), size(4*s), size(8*s), size(15*s)
	if !(empty < mid && mid < full) || held != full || !(out < full && out > empty) {
		t.Errorf("the disc does not follow 4-7-8: empty %d, mid-inhale %d, full %d, holding %d, mid-exhale %d", empty, mid, full, held, out)
	}
}

// A practice pauses, resumes and quits like a session, through Bubble
// Tea's loop with a real engine: space pauses it (its clock stops), space
// resumes, q saves it paused.
func TestBreatheModePauseResumeQuit(t *testing.T) {
	st, err := engine.NewState("2026-11-23-0930-brth", engine.Options{Length: 2 * time.Minute,
		Practice: engine.PracticeBreathe, Pattern: "box"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	r := startHeldRun(st)
	m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }})
	tm := startModel(t, m, 80, 24)

	waitFor(t, tm, "● breathing")
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	waitFor(t, tm, "❚❚ paused")
	if got := waitStatus(r, engine.Paused); got != engine.Paused {
		t.Fatalf("engine status %s after space", got)
	}
	at := r.Progress().Elapsed
	time.Sleep(50 * time.Millisecond)
	if r.Progress().Elapsed != at {
		t.Error("the clock moved while paused")
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	waitFor(t, tm, "● breathing")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
	if got := r.Snapshot(); got.Status != engine.Paused || got.Practice != engine.PracticeBreathe || got.Phase != engine.Breathing {
		t.Errorf("after q the practice is %s in %s (%q), want paused in breathing", got.Status, got.Phase, got.Practice)
	}
}
