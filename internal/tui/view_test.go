package tui

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// updating reports whether -update was given (the flag is registered by
// charmbracelet/x/exp/golden, which teatest brings in).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// golden compares a view, ANSI stripped, with testdata/<name>.golden.
// golden compares a view, colours and all, with testdata/name.golden: a
// light and a dark golden differ where their styles do. A failure shows
// the text without its colours, and says when only the colours differ.
func golden(t *testing.T, name, view string) {
	t.Helper()
	got := strings.Join(trimRight(strings.Split(view, "\n")), "\n") + "\n"
	path := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/tui -update to create it)", err)
	}
	if got != string(want) {
		if ansi.Strip(got) == ansi.Strip(string(want)) {
			t.Errorf("%s differs from %s in its colours only:\n--- got ---\n%q\n--- want ---\n%q", name, path, got, want)
			return
		}
		t.Errorf("%s differs from %s:\n--- got ---\n%s--- want ---\n%s", name, path, ansi.Strip(got), ansi.Strip(string(want)))
	}
}

func trimRight(lines []string) []string {
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

func sized(m Model, w, h int) Model {
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(Model)
}

func styled(m Model, dark bool) Model {
	m.restyle(dark)
	return m
}

func homeModel(t *testing.T, infos []SessionInfo, problems []Problem) Model {
	t.Helper()
	m := New(Options{Backend: &fakeBackend{}, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	next, _ := m.Update(sessionsMsg{infos: infos, problems: problems})
	return next.(Model)
}

// sessionState is a 10-minute session paused in its sensory phase.
func sessionState() engine.State {
	st, _ := engine.NewState("2026-11-23-1200-k3f9", engine.Options{Length: 10 * time.Minute, Intention: "calm before a talk", Seed: 7}, testNow)
	st.Status = engine.Paused
	st.Phase = engine.Sensory
	st.Position = engine.Position{Phase: engine.Sensory, Sentence: 3}
	st.Elapsed = 3*time.Minute + 42*time.Second
	lines := map[engine.Phase][]string{
		engine.Atmosphere: {"Welcome. There is nowhere else you need to be.", "Let the room grow quiet around you."},
		engine.Breathing:  {"Breathe in slowly through your nose, for a count of four.", "And let it go, long and easy, through softened lips."},
		engine.Sensory: {
			"Bring your attention to your hands, resting where they are.",
			"Notice the small warmth gathered in your palms.",
			"Feel the weight of your shoulders settle, a little lower with each breath out.",
		},
	}
	for _, p := range []engine.Phase{engine.Atmosphere, engine.Breathing, engine.Sensory} {
		rec := &st.Phases[p]
		rec.Status = engine.PhaseCompleted
		rec.Spoken = len(lines[p])
		for _, l := range lines[p] {
			st.History = append(st.History, engine.Entry{At: testNow, Phase: p, Role: engine.RoleGuide, Text: l})
		}
	}
	st.Phases[engine.Sensory].Status = engine.PhaseActive
	return st
}

func sessionModel(st engine.State, w, h int) Model {
	m := New(Options{Backend: &fakeBackend{}, Now: func() time.Time { return testNow }})
	m = sized(m, w, h)
	m.sess = newSessionView(st)
	m.sess.progress = engine.Progress{
		Status: st.Status, Phase: st.Phase, Sentence: st.Position.Sentence, Elapsed: st.Elapsed, Length: st.Length,
		PhaseElapsed: 80 * time.Second, PhaseTarget: 168 * time.Second,
	}
	m.sess.words.current = len(m.sess.words.lines) - 1
	m.sess.started = true
	m.screen = screenSession
	return m
}

// breathingModel is a session in its breathing phase, the pacer at b.
func breathingModel(b engine.Breath, w, h int) Model {
	st, _ := engine.NewState("2026-11-23-1200-k3f9", engine.Options{Length: 10 * time.Minute, Seed: 7}, testNow)
	st.Status = engine.Running
	st.Phase = engine.Breathing
	st.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
	st.Phases[engine.Breathing].Status = engine.PhaseActive
	st.Position = engine.Position{Phase: engine.Breathing, Sentence: 1}
	st.Phases[engine.Breathing].Spoken = 1
	st.Elapsed = 80 * time.Second
	st.History = append(st.History, engine.Entry{At: testNow, Phase: engine.Breathing, Role: engine.RoleGuide,
		Text: "Breathe in slowly through your nose, for a count of four."})
	m := sessionModel(st, w, h)
	m.sess.progress.Breath = &b
	return m
}

// The breathing animation is drawn from Progress.Breath alone: the line is
// widest with full lungs, narrowest with empty ones, and says the stage.
func TestBreathAnimationFollowsTheBreath(t *testing.T) {
	width := func(at time.Duration) (int, string) {
		v := ansi.Strip(breathingModel(engine.DefaultBreath.At(at), 80, 24).View().Content)
		for _, l := range strings.Split(v, "\n") {
			if n := strings.Count(l, "━"); n > 0 && !strings.Contains(l, "─") && strings.TrimSpace(strings.ReplaceAll(l, "━", "")) == "" {
				return n, v
			}
		}
		t.Fatalf("no breath line at %v:\n%s", at, v)
		return 0, ""
	}
	s := time.Second
	empty, _ := width(0)
	mid, _ := width(2 * s)
	full, v := width(4 * s)
	out, _ := width(9 * s)
	if !(empty < mid && mid < full) {
		t.Errorf("the inhale does not widen the line: %d, %d, %d", empty, mid, full)
	}
	if out >= full || out <= empty {
		t.Errorf("halfway through the exhale the line is %d wide (full %d, empty %d)", out, full, empty)
	}
	if !strings.Contains(v, "hold") {
		t.Errorf("at the top of the breath the view does not say hold:\n%s", v)
	}
	if v := ansi.Strip(sessionModel(sessionState(), 80, 24).View().Content); strings.Contains(v, "breathe in") {
		t.Error("a breath is drawn outside the breathing phase")
	}
}

func TestGoldenViews(t *testing.T) {
	completed := sessionState()
	completed.Status = engine.Completed
	completed.Summary = &engine.Summary{Duration: 10*time.Minute + 2*time.Second, Sentences: 71,
		Tokens: engine.Tokens{In: 48210, Out: 2934}, Cost: 0.0240}
	interrupted := sessionState()
	interrupted.Status = engine.Interrupted

	for _, dark := range []bool{true, false} {
		suffix := "_dark"
		if !dark {
			suffix = "_light"
		}
		views := map[string]Model{
			"home":       homeModel(t, sampleSessions(), []Problem{{Text: "2026-11-01-0900-bad1: session.yaml: yaml: line 3: did not find expected key"}}),
			"home_empty": homeModel(t, nil, nil),
			"session":    sessionModel(sessionState(), 80, 24),
			"completed":  sessionModel(completed, 80, 24),
		}
		form := homeModel(t, sampleSessions(), nil)
		next, ask := form.Update(tea.KeyPressMsg{Code: 'n', Text: "n"})
		opened := run(t, next.(Model), ask) // the choices come off the UI goroutine
		views["form"] = opened
		asleep, _ := press(opened, "tab", "s", "l", "e", "e", "p")
		views["form_sleep"] = asleep
		cancel := sessionModel(sessionState(), 80, 24)
		cancel.dialog = dialogCancel
		views["cancel_dialog"] = cancel
		views["breathing"] = breathingModel(engine.DefaultBreath.At(2*time.Second), 80, 24)
		stopped := sessionModel(interrupted, 80, 24)
		stopped.sess.problem = "The server closed the connection before it answered."
		stopped.sess.todo = "Check the network, or that the server is running, then try again."
		views["interrupted"] = stopped
		switching := sessionModel(interrupted, 80, 24)
		switching.sess.problem, switching.sess.todo = stopped.sess.problem, stopped.sess.todo
		switching.sess.sw = newModelSwitch("gpt-4.1-mini", []string{"localhost:11434", "OpenAI"}, switching.styles)
		switching.sess.switching = true
		views["interrupted_switch"] = switching
		lastWords := sessionState()
		lastWords.Status = engine.Completed
		lastWords.Sleep, lastWords.SleepTail = true, 45*time.Minute
		drifting := sessionModel(lastWords, 80, 24)
		drifting.sess.apply(engine.Event{Kind: engine.EventCompleted, Phase: engine.Resolution})
		views["drifting"] = drifting
		// A remote guide slow to give its next line: the built-in guide
		// fills, and the screen does not say the guide is speaking.
		running := sessionState()
		running.Status = engine.Running
		waiting := sessionModel(running, 80, 24)
		waiting.sess.progress.Waiting = true
		views["session_waiting"] = waiting
		helpShown := sessionModel(sessionState(), 80, 24)
		helpShown.help.ShowAll = true
		views["session_help"] = helpShown

		for name, m := range views {
			t.Run(name+suffix, func(t *testing.T) {
				golden(t, name+suffix, styled(m, dark).View().Content)
			})
		}
	}
}

var colorSGR = regexp.MustCompile(`\x1b\[[0-9;]*(38|48|58);`)

func TestLightAndDarkDifferAndNoColorHasNone(t *testing.T) {
	m := sessionModel(sessionState(), 80, 24)
	dark := styled(m, true).View().Content
	light := styled(m, false).View().Content
	if dark == light {
		t.Error("light and dark backgrounds render the same colours")
	}
	if ansi.Strip(dark) != ansi.Strip(light) {
		t.Error("light and dark differ in more than colour")
	}
	if !colorSGR.MatchString(dark) {
		t.Error("the dark view has no colour at all")
	}

	plain := New(Options{Backend: &fakeBackend{}, Now: func() time.Time { return testNow }, NoColor: true})
	plain = sized(plain, 80, 24)
	plain.sess, plain.screen = m.sess, screenSession
	for _, dark := range []bool{true, false} {
		if v := styled(plain, dark).View().Content; colorSGR.MatchString(v) {
			t.Errorf("NO_COLOR view (dark=%v) still sets colours: %q", dark, colorSGR.FindString(v))
		}
	}
}

func TestSmallTerminalsDegradeWithoutPanic(t *testing.T) {
	infos := sampleSessions()
	for _, size := range [][2]int{{0, 0}, {1, 1}, {10, 3}, {20, 6}, {40, 10}, {60, 15}, {80, 24}, {200, 60}} {
		w, h := size[0], size[1]
		for name, m := range map[string]Model{
			"home":    homeModel(t, infos, []Problem{{Text: "broken: reason", ID: "broken"}}),
			"session": sessionModel(sessionState(), w, h),
		} {
			m = sized(m, w, h)
			v := m.View().Content
			if h > 0 && strings.Count(v, "\n")+1 > max(h, 1)+1 {
				t.Errorf("%s at %dx%d: %d lines", name, w, h, strings.Count(v, "\n")+1)
			}
		}
		m := sized(homeModel(t, infos, nil), w, h)
		next, ask := m.Update(tea.KeyPressMsg{Code: 'n', Text: "n"})
		_ = run(t, next.(Model), ask).View()
	}
}

// Every view with a light and a dark golden is drawn in other colours on
// the two: a pair alike would check the light half for nothing.
func TestLightAndDarkGoldensDiffer(t *testing.T) {
	darks, err := filepath.Glob(filepath.Join("testdata", "*_dark.golden"))
	if err != nil || len(darks) == 0 {
		t.Fatalf("no dark goldens (%v)", err)
	}
	for _, dark := range darks {
		light := strings.TrimSuffix(dark, "_dark.golden") + "_light.golden"
		d, err1 := os.ReadFile(dark)
		l, err2 := os.ReadFile(light)
		if err1 != nil || err2 != nil {
			t.Errorf("%s has no light twin: %v", dark, err2)
			continue
		}
		if string(d) == string(l) {
			t.Errorf("%s and %s are the same: the light half checks nothing", dark, light)
		}
		if ansi.Strip(string(d)) != ansi.Strip(string(l)) {
			t.Errorf("%s and %s differ in more than colour", dark, light)
		}
	}
}
