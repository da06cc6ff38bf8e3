package tui

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// leftSessions are what a start after a crash finds: one session left
// running by a lull that was killed, one running in another lull, one
// paused since yesterday morning, two that waited over a week, and a
// completed one from long ago.
func leftSessions() []SessionInfo {
	day := 24 * time.Hour
	return []SessionInfo{
		{ID: "2026-11-23-1330-left", Intention: "calm before a talk", Status: engine.Running, Phase: engine.Sensory, Progress: 0.37, Length: 10 * time.Minute, LastActive: testNow.Add(-25 * time.Minute)},
		{ID: "2026-11-23-1350-open", Intention: "sleep", Status: engine.Running, Phase: engine.Breathing, Progress: 0.12, Length: 20 * time.Minute, LastActive: testNow.Add(-10 * time.Second), Open: true, Holder: 4242},
		{ID: "2026-11-22-0800-inac", Intention: "unwind", Status: engine.Paused, Phase: engine.Relaxation, Progress: 0.66, Length: 15 * time.Minute, LastActive: testNow.Add(-30 * time.Hour)},
		{ID: "2026-11-14-2200-stl1", Intention: "rest after a long week", Status: engine.Paused, Phase: engine.Atmosphere, Progress: 0.05, Length: 30 * time.Minute, LastActive: testNow.Add(-9 * day)},
		{ID: "2026-11-01-0700-stl2", Status: engine.Interrupted, Phase: engine.Breathing, Progress: 0.2, Length: 10 * time.Minute, Created: time.Date(2026, 11, 1, 7, 0, 0, 0, time.Local), LastActive: testNow.Add(-22 * day)},
		{ID: "2026-10-01-0700-done", Intention: "sleep", Status: engine.Completed, Phase: engine.Resolution, Progress: 1, Length: 15 * time.Minute, LastActive: testNow.Add(-53 * day)},
	}
}

func startHome(t *testing.T, b *fakeBackend) Model {
	t.Helper()
	m := New(Options{Backend: b, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	return run(t, m, m.loadSessions())
}

func screenText(m Model) string { return ansi.Strip(m.View().Content) }

// The first list after start offers the session a killed lull left
// running — not the one another lull is running — then the clean-up of the
// stale ones.
func TestStartOffersTheSessionLeftRunning(t *testing.T) {
	b := &fakeBackend{infos: leftSessions()}
	m := startHome(t, b)
	if m.dialog != dialogLeftRunning || m.target != "2026-11-23-1330-left" {
		t.Fatalf("dialog %d about %q", m.dialog, m.target)
	}
	v := screenText(m)
	for _, want := range []string{"A session was left running when lull stopped", "calm before a talk",
		"sensory, 3:42 of 10:00, last active 25 minutes ago", "r    resume", "s    summarize: keep what was spoken",
		"d    discard", "esc  decide later", "r resume • s summarize • d discard • esc decide later"} {
		if !strings.Contains(v, want) {
			t.Errorf("the offer does not say %q:\n%s", want, v)
		}
	}

	m, cmd := press(m, "s")
	m = run(t, m, cmd)
	m = run(t, m, m.loadSessions()) // the list reloads after each answer
	if !slices.Equal(b.ended, []string{"summarized 2026-11-23-1330-left"}) {
		t.Fatalf("ended %v", b.ended)
	}
	if !strings.Contains(m.status.text, "Summarized: 23 sentences, 3:42, kept. Marked completed (partial).") {
		t.Errorf("status %q", m.status.text)
	}
	// Then the stale ones, once: the one left running is not among them.
	if m.dialog != dialogStale || len(m.recovery.stale) != 2 {
		t.Fatalf("after the offer: dialog %d, %d stale", m.dialog, len(m.recovery.stale))
	}
	v = screenText(m)
	for _, want := range []string{"2 sessions waited more than a week", "rest after a long week · paused, last active 9 days ago",
		"Session of 1 Nov, 07:00 · interrupted, last active 3 weeks ago", "c    clean up (discard them)", "esc  keep them"} {
		if !strings.Contains(v, want) {
			t.Errorf("the clean-up offer does not say %q:\n%s", want, v)
		}
	}
	m, cmd = press(m, "c")
	m = run(t, m, cmd)
	if want := []string{"summarized 2026-11-23-1330-left", "cleaned 2026-11-14-2200-stl1", "cleaned 2026-11-01-0700-stl2"}; !slices.Equal(b.ended, want) {
		t.Errorf("ended %v, want %v", b.ended, want)
	}
	if m.dialog != dialogNone || !strings.Contains(m.status.text, "Cleaned up 2 sessions") {
		t.Errorf("dialog %d, status %q", m.dialog, m.status.text)
	}
	// Nothing is asked again on the next list.
	m = run(t, m, m.loadSessions())
	if m.dialog != dialogNone {
		t.Errorf("asked again: dialog %d", m.dialog)
	}
}

func TestLeftRunningResumeOpensIt(t *testing.T) {
	b := &fakeBackend{infos: leftSessions()}
	m := startHome(t, b)
	m, cmd := press(m, "r")
	m = run(t, m, cmd)
	t.Cleanup(func() { _ = m.Close() })
	if !slices.Equal(b.resumed, []string{"2026-11-23-1330-left"}) || m.screen != screenSession || m.dialog != dialogNone {
		t.Fatalf("resumed %v; screen %d dialog %d", b.resumed, m.screen, m.dialog)
	}
}

func TestLeftRunningDiscardAndDecideLater(t *testing.T) {
	infos := leftSessions()
	second := infos[0]
	second.ID, second.Intention = "2026-11-23-1100-lft2", "before the exam"
	infos = append(infos, second)
	b := &fakeBackend{infos: infos}
	m := startHome(t, b)
	if !strings.Contains(screenText(m), "(1 more after this one)") {
		t.Errorf("the first of two offers does not say another follows:\n%s", screenText(m))
	}
	m, cmd := press(m, "esc") // decide later: on to the next
	m = run(t, m, cmd)
	if m.dialog != dialogLeftRunning || m.target != "2026-11-23-1100-lft2" {
		t.Fatalf("after esc: dialog %d about %q", m.dialog, m.target)
	}
	m, cmd = press(m, "d")
	m = run(t, m, cmd)
	m = run(t, m, m.loadSessions())
	if !slices.Equal(b.ended, []string{"discarded 2026-11-23-1100-lft2"}) {
		t.Errorf("ended %v", b.ended)
	}
	if !strings.Contains(m.status.text, "Discarded: marked abandoned") {
		t.Errorf("status %q", m.status.text)
	}
	m, _ = press(m, "esc") // keep the stale ones
	if m.dialog != dialogNone || len(b.ended) != 1 {
		t.Fatalf("esc on the clean-up: dialog %d, ended %v", m.dialog, b.ended)
	}
	// The one put off stays in the list, marked, and Enter resumes it.
	m = run(t, m, m.loadSessions())
	if m.dialog != dialogNone {
		t.Errorf("the session put off was offered again in the same run")
	}
	if v := screenText(m); !strings.Contains(v, "left running · sensory") {
		t.Errorf("the list does not mark it left running:\n%s", v)
	}
}

// A failure (another lull took the session in between) is shown, and the
// offers go on.
func TestLeftRunningFailureIsShown(t *testing.T) {
	b := &fakeBackend{infos: leftSessions()}
	m := startHome(t, b)
	b.fail = &lockedError{"session 2026-11-23-1330-left is open in another lull (pid 4243); close it there first"}
	m, cmd := press(m, "s")
	m = run(t, m, cmd)
	m = run(t, m, m.loadSessions())
	if !strings.Contains(m.status.text, "pid 4243") || m.status.level != levelError {
		t.Errorf("status %q", m.status.text)
	}
	if m.dialog != dialogStale {
		t.Errorf("the clean-up offer did not follow: dialog %d", m.dialog)
	}
}

type lockedError struct{ s string }

func (e *lockedError) Error() string { return e.s }

func TestIdleLabels(t *testing.T) {
	m := homeModel(t, leftSessions(), nil)
	m.dialog = dialogNone
	m = sized(m, 100, 60)
	v := screenText(m)
	for _, want := range []string{
		"left running · sensory · 37%",
		"running elsewhere (pid 4242) · breathing",
		"paused · inactive · relaxation",
		"paused · stale · atmosphere",
		"interrupted · stale · breathing",
		"completed · 15 min",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("the list does not say %q:\n%s", want, v)
		}
	}
}

func TestRecoveryGoldens(t *testing.T) {
	for _, dark := range []bool{true, false} {
		suffix := "_dark"
		if !dark {
			suffix = "_light"
		}
		left := homeModel(t, leftSessions(), nil)
		stale := left
		stale.dialog = dialogNone
		stale.offerRecovery(leftSessions()) // no offers left: the clean-up
		idle := stale
		idle.dialog = dialogNone
		for name, m := range map[string]Model{"left_running_dialog": left, "stale_dialog": stale, "home_idle": idle} {
			t.Run(name+suffix, func(t *testing.T) {
				golden(t, name+suffix, styled(m, dark).View().Content)
			})
		}
	}
}

func TestRecoveryDialogsInSmallTerminals(t *testing.T) {
	for _, size := range [][2]int{{0, 0}, {20, 6}, {40, 10}, {60, 15}, {80, 24}} {
		m := homeModel(t, leftSessions(), nil)
		m = sized(m, size[0], size[1])
		v := m.View().Content
		if h := size[1]; h > 0 && strings.Count(v, "\n")+1 > h {
			t.Errorf("%dx%d: %d lines", size[0], size[1], strings.Count(v, "\n")+1)
		}
		if size[0] >= 60 && !strings.Contains(ansi.Strip(v), "left running") {
			t.Errorf("%dx%d does not say it:\n%s", size[0], size[1], ansi.Strip(v))
		}
	}
}

// q quits from the offer, as it does everywhere, leaving the session to
// decide about later.
func TestLeftRunningQuits(t *testing.T) {
	b := &fakeBackend{infos: leftSessions()}
	m := startHome(t, b)
	if m.dialog != dialogLeftRunning {
		t.Fatalf("dialog %d", m.dialog)
	}
	_, cmd := press(m, "q")
	if cmd == nil {
		t.Fatal("q did nothing on the offer")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Errorf("q on the offer did not quit")
	}
	if len(b.ended) != 0 {
		t.Errorf("q ended sessions: %v", b.ended)
	}
}

// A session this screen closed without saving is on disk as running, but
// no lull left it: the listener was told what is there, and it is not
// offered as left running.
func TestUnsavedCloseIsNotOfferedAsLeftRunning(t *testing.T) {
	b := &fakeBackend{infos: leftSessions()}
	m := New(Options{Backend: b, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	m.unsaved = map[string]error{"2026-11-23-1330-left": errors.New("not saved: no space left on device")}
	m = run(t, m, m.loadSessions())
	if m.dialog == dialogLeftRunning {
		t.Errorf("the session closed unsaved was offered as left running")
	}
}
