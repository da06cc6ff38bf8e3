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

// sitState is a sit of minutes (0: open-ended) with a bell every 5
// minutes, 7 minutes and 20 seconds in.
func sitState(t *testing.T, minutes int) engine.State {
	t.Helper()
	st, err := engine.NewState("2026-11-23-1200-s1t5", engine.Options{Length: time.Duration(minutes) * time.Minute,
		Practice: engine.PracticeSit, Pattern: "5m"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	st.Status = engine.Running
	st.Phase = engine.Breathing
	st.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
	st.Phases[engine.Breathing].Status = engine.PhaseActive
	st.Position = engine.Position{Phase: engine.Breathing}
	st.Elapsed = 7*time.Minute + 20*time.Second
	return st
}

func sitModel(t *testing.T, minutes, w, h int) Model {
	t.Helper()
	st := sitState(t, minutes)
	m := New(Options{Backend: &fakeBackend{}, Now: func() time.Time { return testNow }})
	m = sized(m, w, h)
	m.sess = newSessionView(st)
	m.sess.progress = engine.Progress{Status: st.Status, Phase: st.Phase, Elapsed: st.Elapsed, Length: st.Length}
	m.screen = screenSession
	return m
}

// A sit's screen is the time sat and the next bell: a timed one says the
// time left, an open-ended one does not, and says how it ends. Its state,
// sitting or paused, is there at 40×12 too: the title gives way first.
func TestSitModeShowsTheTimeSat(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {40, 12}} {
		timed := ansi.Strip(sitModel(t, 20, size[0], size[1]).View().Content)
		open := ansi.Strip(sitModel(t, 0, size[0], size[1]).View().Content)
		for _, want := range []string{"20:00", "● sitting", "7:20", "remaining 12:40", "space"} {
			if !strings.Contains(timed, want) {
				t.Errorf("%v: the timed sit does not show %q:\n%s", size, want, timed)
			}
		}
		paused := sitModel(t, 0, size[0], size[1])
		paused.sess.status = engine.Paused
		if v := ansi.Strip(paused.View().Content); !strings.Contains(v, "❚❚ paused") {
			t.Errorf("%v: a paused open-ended sit does not say so:\n%s", size, v)
		}
		for _, want := range []string{"open-ended", "● sitting", "7:20", "elapsed", "e"} {
			if !strings.Contains(open, want) {
				t.Errorf("%v: the open-ended sit does not show %q:\n%s", size, want, open)
			}
		}
		if strings.Contains(open, "remaining") || strings.Contains(open, "Atmosphere") || strings.Contains(timed, "Resolution") {
			t.Errorf("%v: a time left on an open-ended sit, or phases:\n%s\n%s", size, open, timed)
		}
	}
	full := ansi.Strip(sitModel(t, 20, 80, 24).View().Content)
	if !strings.Contains(full, "a bell every 5 minutes · the next in 2:40") {
		t.Errorf("the next bell is not said:\n%s", full)
	}
	if !strings.Contains(full, "space pause/resume") || !strings.Contains(full, "e end the sit") || !strings.Contains(full, "q quit (saves)") {
		t.Errorf("the sit's keys are not said in full:\n%s", full)
	}
}

// Tea's loop with a real engine: space pauses an open-ended sit and
// resumes it; e ends it, with its last bell, completed.
func TestSitModeEndKey(t *testing.T) {
	st, err := engine.NewState("2026-11-23-0930-s1t0", engine.Options{Practice: engine.PracticeSit, Pattern: "1m"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	sp := newQuickSpeaker()
	sp.holdAfter = 3 // the third minute is held until the sit ends
	r := startTestRunOn(st, plainGuide{}, sp)
	m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }})
	tm := startModel(t, m, 80, 24)

	waitFor(t, tm, "● sitting")
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	waitFor(t, tm, "❚❚ paused")
	if got := waitStatus(r, engine.Paused); got != engine.Paused {
		t.Fatalf("engine status %s after space", got)
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	waitFor(t, tm, "● sitting")
	sp.mu.Lock()
	sp.holdAfter = 0 // what follows the end plays
	sp.mu.Unlock()
	tm.Send(tea.KeyPressMsg{Code: 'e', Text: "e"})
	waitFor(t, tm, "The sit is complete.")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
	if got := r.Snapshot(); got.Status != engine.Completed || got.Practice != engine.PracticeSit || got.Length != 0 || got.Summary == nil {
		t.Errorf("after e the sit is %s (%q, length %v), summary %+v", got.Status, got.Practice, got.Length, got.Summary)
	}
}
