package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/lull-dev/lull/internal/engine"
)

func press(m Model, keys ...string) (Model, tea.Cmd) {
	var cmd tea.Cmd
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "space":
			msg = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
		case "tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab}
		case "right":
			msg = tea.KeyPressMsg{Code: tea.KeyRight}
		case "left":
			msg = tea.KeyPressMsg{Code: tea.KeyLeft}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "backspace":
			msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
		case "ctrl+c":
			msg = tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
		case "ctrl+u":
			msg = tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
		case "shift+tab":
			msg = tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
		default:
			r := []rune(k)[0]
			msg = tea.KeyPressMsg{Code: r, Text: k}
		}
		next, c := m.Update(msg)
		m, cmd = next.(Model), c
	}
	return m, cmd
}

// run executes a command that returns at once and feeds its message back.
func run(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		return m
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			m = runQuick(t, m, c)
		}
		return m
	}
	next, _ := m.Update(msg)
	return next.(Model)
}

// runQuick runs a command from a batch unless it is a timer or a wait.
func runQuick(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	if cmd == nil {
		return m
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		next, _ := m.Update(msg)
		return next.(Model)
	case <-time.After(50 * time.Millisecond):
		return m // a tick or an event wait: not part of this step
	}
}

func TestHomeNewOpensFormAndBack(t *testing.T) {
	m := homeModel(t, sampleSessions(), nil)
	m, ask := press(m, "n")
	m = run(t, m, ask)
	if m.screen != screenForm {
		t.Fatalf("n opened screen %d", m.screen)
	}
	m, cmd := press(m, "esc")
	if m.screen != screenHome || cmd == nil {
		t.Fatalf("esc: screen %d", m.screen)
	}
}

func TestFormStartsASessionWithTheChoices(t *testing.T) {
	b := &fakeBackend{}
	m := New(Options{Backend: b, Form: true, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	m, _ = press(m, "right", "right", "tab") // length 10 → 20, then the intention
	m, _ = press(m, "s", "l", "e", "e", "p")
	m, _ = press(m, "tab", "tab", "right")                   // sleep (on: the intention asks), then guide: openai → builtin
	m, _ = press(m, "tab", "right", "right", "tab", "right") // voice none, soundscape none
	m, cmd := press(m, "enter")
	m = run(t, m, cmd)
	if len(b.started) != 1 {
		t.Fatalf("started %d sessions", len(b.started))
	}
	got := b.started[0]
	if got.Length != 20*time.Minute || got.Intention != "sleep" || got.Guide != "builtin" || got.Voice != "none" || got.Soundscape != "none" ||
		!got.Sleep || got.SleepTail != 30*time.Minute {
		t.Errorf("started with %+v", got)
	}
	if m.screen != screenSession || m.run == nil {
		t.Errorf("screen %d after start", m.screen)
	}
	_ = m.run.Close()
}

// The Sleep field turns on by itself while the intention speaks of sleep,
// and off when it no longer does — until the listener sets it.
func TestFormSleepFollowsTheIntentionUntilSet(t *testing.T) {
	start := func(m Model) engine.Options {
		t.Helper()
		b := &fakeBackend{}
		m.backend = b
		m, cmd := press(m, "enter")
		m = run(t, m, cmd)
		if len(b.started) != 1 {
			t.Fatalf("started %d sessions", len(b.started))
		}
		_ = m.run.Close()
		return b.started[0]
	}
	form := func() Model {
		m := New(Options{Backend: &fakeBackend{}, Form: true, Now: func() time.Time { return testNow }})
		return sized(m, 80, 24)
	}
	sleepRow := func(m Model) string {
		for _, l := range strings.Split(ansi.Strip(m.View().Content), "\n") {
			if strings.Contains(l, "Sleep ") && !strings.Contains(l, "Intention") {
				return strings.TrimSpace(l)
			}
		}
		t.Fatal("the form has no Sleep row")
		return ""
	}

	m := form()
	if o := start(m); o.Sleep || o.SleepTail != 0 {
		t.Errorf("with no intention: %+v", o)
	}
	if row := sleepRow(m); !strings.Contains(row, "[off]") {
		t.Errorf("with no intention the form shows %q", row)
	}
	m, _ = press(m, "tab", "S", "l", "e", "e", "p", " ", "w", "e", "l", "l")
	if row := sleepRow(m); !strings.Contains(row, "[on]") || !strings.Contains(row, "30 min") {
		t.Errorf("the intention asks for sleep; the form shows %q", row)
	}
	if o := start(m); !o.Sleep || o.SleepTail != 30*time.Minute {
		t.Errorf("the intention asks for sleep: %+v", o)
	}
	m, _ = press(m, "ctrl+u", "c", "a", "l", "m")
	if row := sleepRow(m); !strings.Contains(row, "[off]") {
		t.Errorf("the intention no longer asks for sleep; the form shows %q", row)
	}

	// Set by the listener, it stays as they set it.
	m = form()
	m, _ = press(m, "tab", "tab", "left", "shift+tab", "s", "l", "e", "e", "p")
	if o := start(m); o.Sleep {
		t.Errorf("set off, then an intention of sleep: %+v", o)
	}
	m = form()
	m, _ = press(m, "tab", "tab", "right", "shift+tab", "c", "a", "l", "m")
	if o := start(m); !o.Sleep || o.SleepTail != 30*time.Minute {
		t.Errorf("set on, then an intention of calm: %+v", o)
	}
}

func TestFormKeysTypeIntoTheIntention(t *testing.T) {
	m := New(Options{Backend: &fakeBackend{}, Form: true})
	m = sized(m, 80, 24)
	m, _ = press(m, "tab", "q", "n", "d", "c")
	if m.screen != screenForm {
		t.Fatal("typing q, n, d, c in the form acted as commands")
	}
	if got := m.form.intention.Value(); got != "qndc" {
		t.Errorf("intention %q", got)
	}
}

func TestDeleteAsksFirst(t *testing.T) {
	b := &fakeBackend{infos: sampleSessions()}
	m := homeModel(t, b.infos, nil)
	m.backend = b
	m, _ = press(m, "d")
	if m.dialog != dialogDelete {
		t.Fatal("d did not ask")
	}
	m, _ = press(m, "n")
	if m.dialog != dialogNone || len(b.deleted) != 0 {
		t.Fatal("n did not dismiss, or deleted anyway")
	}
	m, _ = press(m, "d")
	m, cmd := press(m, "y")
	m = run(t, m, cmd)
	if len(b.deleted) != 1 || b.deleted[0] != "2026-11-23-1200-k3f9" {
		t.Errorf("deleted %v", b.deleted)
	}
}

func TestFilterOwnsKeys(t *testing.T) {
	m := homeModel(t, sampleSessions(), nil)
	m, _ = press(m, "/")
	if !m.home.Filtering() {
		t.Fatal("/ did not start filtering")
	}
	m, cmd := press(m, "q")
	if cmd != nil {
		if _, quit := cmd().(tea.QuitMsg); quit {
			t.Fatal("q while filtering quit lull")
		}
	}
	if m.home.list.FilterValue() != "q" {
		t.Errorf("filter text %q", m.home.list.FilterValue())
	}
}

func TestResumeFinishedSessionIsRefusedKindly(t *testing.T) {
	b := &fakeBackend{infos: sampleSessions()}
	m := homeModel(t, b.infos, nil)
	m.backend = b
	m, cmd := press(m, "down", "down", "enter")
	if len(b.resumed) != 0 {
		t.Error("a completed session was resumed")
	}
	// It opens read-only instead (issue 12: reread_test.go).
	if cmd == nil {
		t.Fatal("enter on a completed session does nothing")
	}
	if msg, ok := cmd().(rereadMsg); !ok {
		t.Errorf("enter on a completed session gives %T, want it read again", msg)
	}
	_ = m
}

func TestResumeErrorIsShown(t *testing.T) {
	b := &fakeBackend{infos: sampleSessions(), fail: errors.New("session x is open in another lull (pid 4242)")}
	m := homeModel(t, b.infos, nil)
	m.backend = b
	m, cmd := press(m, "enter")
	m = run(t, m, cmd)
	if m.screen != screenHome || !strings.Contains(m.status.text, "pid 4242") {
		t.Errorf("screen %d, status %q", m.screen, m.status.text)
	}
}

func TestStaleRunMessagesAreDropped(t *testing.T) {
	m := sessionModel(sessionState(), 80, 24)
	m.gen = 5
	before := len(m.sess.words.lines)
	next, _ := m.Update(eventsMsg{gen: 4, events: []engine.Event{{Kind: engine.EventSentence, Text: "old"}}})
	if len(next.(Model).sess.words.lines) != before {
		t.Error("an event from an earlier run reached the view")
	}
}

func TestStatusTimerNeverClearsANewerMessage(t *testing.T) {
	var s statusLine
	s.set("first", levelInfo, time.Second)
	s.set("second", levelInfo, time.Second)
	s.timeout(statusTimeoutMsg{seq: 1})
	if s.text != "second" {
		t.Errorf("the first message's timer cleared %q", s.text)
	}
}

// The whole flow through Bubble Tea's loop: the session runs, space pauses
// it (the clock stops), space resumes, q saves and quits.
func TestSessionPauseResumeQuitFlow(t *testing.T) {
	b := &fakeBackend{}
	st, _ := engine.NewState("2026-11-23-0930-flow", engine.Options{Length: 30 * time.Minute}, testNow)
	r := startHeldRun(st)
	b.runs = append(b.runs, r)
	m := New(Options{Backend: b, Run: r, Now: func() time.Time { return testNow }})
	tm := startModel(t, m, 80, 24)

	waitFor(t, tm, "speaking")
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	waitFor(t, tm, "paused")
	if got := waitStatus(r, engine.Paused); got != engine.Paused {
		t.Fatalf("engine status %s after space", got)
	}
	at := r.Progress().Elapsed
	time.Sleep(50 * time.Millisecond)
	if r.Progress().Elapsed != at {
		t.Error("the clock moved while paused")
	}
	tm.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	waitFor(t, tm, "speaking")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
	if got := r.Snapshot().Status; got != engine.Paused {
		t.Errorf("after q the session is %s, want paused", got)
	}
}

func TestCancelAsksThenAbandons(t *testing.T) {
	b := &fakeBackend{}
	st, _ := engine.NewState("2026-11-23-0930-cncl", engine.Options{Length: 30 * time.Minute}, testNow)
	r := startHeldRun(st)
	m := New(Options{Backend: b, Run: r, Now: func() time.Time { return testNow }})
	tm := startModel(t, m, 80, 24)
	waitFor(t, tm, "speaking")
	tm.Send(tea.KeyPressMsg{Code: 'c', Text: "c"})
	waitFor(t, tm, "Cancel this session?")
	tm.Send(tea.KeyPressMsg{Code: 'y', Text: "y"})
	waitFor(t, tm, "No sessions yet")
	if got := r.Snapshot().Status; got != engine.Abandoned {
		t.Errorf("status %s, want abandoned", got)
	}
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
}

func TestCompletedSessionShowsSummary(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-done", engine.Options{Length: 5 * time.Minute}, testNow)
	r := startTestRun(st)
	m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }})
	tm := startModel(t, m, 80, 24)
	waitFor(t, tm, "The session is complete.")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
	if r.Snapshot().Status != engine.Completed {
		t.Error("not completed")
	}
}

// A provider that fails for good, with no fallback, interrupts the
// session: the screen says why and offers r and b; b carries on with the
// built-in guide to the end.
func TestInterruptedSessionOffersRetryAndBuiltin(t *testing.T) {
	st, _ := engine.NewState("2026-11-23-0930-down", engine.Options{Length: 5 * time.Minute}, testNow)
	r := startTestRunWith(st, downGuide{})
	m := New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }})
	tm := startModel(t, m, 80, 24)
	waitFor(t, tm, "a problem of its own") // in plain words (Run.Stopped), on the screen that says the guide could not go on
	tm.Send(tea.KeyPressMsg{Code: 'r', Text: "r"})
	failures := func() int {
		n := 0
		for _, e := range r.Snapshot().History {
			if e.Role == engine.RoleSystem && strings.Contains(e.Text, "503") {
				n++
			}
		}
		return n
	}
	for deadline := time.Now().Add(time.Minute); failures() < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if got := waitStatus(r, engine.Interrupted); got != engine.Interrupted || failures() != 2 {
		t.Fatalf("after a retry on a guide still down: %s with %d failures recorded", got, failures())
	}
	tm.Send(tea.KeyPressMsg{Code: 'b', Text: "b"})
	waitFor(t, tm, "The session is complete.")
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(time.Minute))
	final := r.Snapshot()
	if final.Status != engine.Completed || final.Guide != "plain" {
		t.Errorf("status %s on guide %s", final.Status, final.Guide)
	}
}

func waitStatus(r Run, want engine.Status) engine.Status {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if got := r.Snapshot().Status; got == want {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
	return r.Snapshot().Status
}

func TestSoundKeysChangeTheSoundAndSaySo(t *testing.T) {
	b := &fakeBackend{}
	m := New(Options{Backend: b, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	st, _ := engine.NewState("2026-11-23-1200-k3f9", engine.Options{Length: 5 * time.Minute}, testNow)
	r := startTestRun(st)
	t.Cleanup(func() { r.Close() })
	next, _ := m.Update(runStartedMsg{run: r})
	m = next.(Model)

	for _, c := range []struct {
		key  tea.KeyPressMsg
		want string
	}{
		{tea.KeyPressMsg{Code: '+', Text: "+"}, "Volume 11 of 12: +3 dB."}, // not 110 %: a 3 dB step is ×1.41 in amplitude
		{tea.KeyPressMsg{Code: '-', Text: "-"}, "Volume 10 of 12: lull's own level."},
		{tea.KeyPressMsg{Code: '-', Text: "-"}, "Volume 9 of 12: -3 dB."},
		{tea.KeyPressMsg{Code: 'v', Text: "v"}, "Voice off"},
		{tea.KeyPressMsg{Code: 'v', Text: "v"}, "Voice on."},
		{tea.KeyPressMsg{Code: 'a', Text: "a"}, "Soundscape: drone."},
	} {
		next, cmd := m.Update(c.key)
		m = next.(Model)
		if cmd == nil {
			t.Fatalf("%q did nothing", c.key.Text)
		}
		msg := cmd()
		sm, ok := msg.(soundMsg)
		if !ok {
			t.Fatalf("%q gave %T", c.key.Text, msg)
		}
		next, _ = m.Update(sm)
		m = next.(Model)
		if v := ansi.Strip(m.View().Content); !strings.Contains(v, c.want) {
			t.Errorf("after %q the screen does not say %q:\n%s", c.key.Text, c.want, v)
		}
	}
}

// n asks for the form's choices off the UI goroutine: Update only returns
// the command that asks (in lull, finding them probes the voices, which
// may start espeak-ng), and the form opens when the answer comes.
func TestNewAsksForChoicesOffTheUIGoroutine(t *testing.T) {
	b := &fakeBackend{}
	m := homeModel(t, sampleSessions(), nil)
	m.backend = b
	next, ask := m.Update(tea.KeyPressMsg{Code: 'n', Text: "n"})
	m = next.(Model)
	if n := b.choicesAsked.Load(); n != 0 || ask == nil {
		t.Fatalf("n asked for the choices %d times inside Update (command %v)", n, ask != nil)
	}
	if m.screen != screenHome {
		t.Fatalf("the form opened before its choices came: screen %d", m.screen)
	}
	msg := ask()
	if n := b.choicesAsked.Load(); n != 1 {
		t.Fatalf("the command asked for the choices %d times", n)
	}
	next, _ = m.Update(msg)
	if m = next.(Model); m.screen != screenForm {
		t.Fatalf("the choices came and the form did not open: screen %d", m.screen)
	}
	// An answer that comes once the listener has gone elsewhere opens nothing.
	m.setState(screenStats)
	next, _ = m.Update(msg)
	if next.(Model).screen != screenStats {
		t.Error("a late answer opened the form over the stats")
	}
}

// A guide's failure is told apart by the engine's mark, not by its words:
// an error that happens to begin "The guide " is still shown.
func TestGuideFailedIsTheEnginesMark(t *testing.T) {
	if !GuideFailed(engine.Event{Kind: engine.EventError, GuideFailed: true, Text: "The guide stopped: EOF."}) {
		t.Error("a marked failure is not a guide's failure")
	}
	if GuideFailed(engine.Event{Kind: engine.EventError, Text: "The guide's folder is full."}) {
		t.Error("an error that only begins with the words is taken for a guide's failure")
	}
}
