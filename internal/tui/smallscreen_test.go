package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/crisis"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// everyScreen is every screen and dialog lull draws, at w×h, named.
func everyScreen(t *testing.T, w, h int) map[string]Model {
	t.Helper()
	at := func(m Model) Model { return sized(m, w, h) }
	out := map[string]Model{}

	out["home"] = at(homeModel(t, sampleSessions(), nil))
	out["home empty"] = at(homeModel(t, nil, nil))
	withProblems := homeModel(t, sampleSessions(), []Problem{{Text: "2026-11-01-0900-bad1: session.yaml: yaml: line 3: did not find expected key", ID: "2026-11-01-0900-bad1"}})
	withProblems.home.SetPractice("This week 3 sessions · 42 min · 4-day streak · mood +1.2 on average")
	out["home with problems"] = at(withProblems)
	withProblems.help.ShowAll = true
	out["home with problems, all keys"] = at(withProblems)

	form, ask := press(at(homeModel(t, sampleSessions(), nil)), "n")
	form = run(t, form, ask)
	for i := range fieldCount {
		name := fmt.Sprintf("form field %d", form.form.focus)
		out[name] = form
		if i < fieldCount-1 {
			form, _ = press(form, "tab")
		}
	}
	refused, _ := press(form, "shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab", "3")
	out["form length refused"] = refused

	out["session"] = sessionModel(sessionState(), w, h)
	running := sessionState()
	running.Status = engine.Running
	waiting := sessionModel(running, w, h)
	waiting.sess.progress.Waiting = true
	out["session waiting"] = waiting
	opening := sessionModel(running, w, h)
	opening.sess.started, opening.sess.words = false, newTranscript()
	out["session opening"] = opening
	out["breathing"] = breathingModel(engine.DefaultBreath.At(2*time.Second), w, h)
	helpShown := sessionModel(sessionState(), w, h)
	helpShown.help.ShowAll = true
	out["session help"] = helpShown
	out["session voice off"] = soundModel(w, h, "auto", soundNow{true, "flite", false, 0, 1, 10})
	out["sit timed"] = sitModel(t, 20, w, h)
	out["sit open-ended"] = sitModel(t, 0, w, h)
	sitHelp := sitModel(t, 0, w, h)
	sitHelp.help.ShowAll = true
	out["sit help"] = sitHelp

	completed := sessionState()
	completed.Status = engine.Completed
	completed.MoodBefore = 2
	completed.Summary = &engine.Summary{Duration: 10*time.Minute + 2*time.Second, Sentences: 71,
		Tokens: engine.Tokens{In: 48210, Out: 2934}, Cost: 0.0240}
	end := sessionModel(completed, w, h)
	end.run = finishedRun(t, false, 2)
	out["end"] = end
	moodGiven, _ := press(end, "4")
	out["end mood given"] = moodGiven
	typing, _ := press(moodGiven, "tab", "w", "a", "r", "m")
	out["end typing"] = typing
	unsaved := sessionModel(completed, w, h)
	unsaved.sess.unsaved = "session 2026-11-23-1200-k3f9 was not saved: writing session.yaml.tmp: no space left on device.\nOn disk it is still at Sensory, 3:42 of 10:00.\nFree some space on its disk, then resume it with:\n  lull resume 2026-11-23-1200-k3f9"
	out["end unsaved"] = unsaved

	interrupted := sessionState()
	interrupted.Status = engine.Interrupted
	stopped := sessionModel(interrupted, w, h)
	stopped.sess.problem = "The server closed the connection before it answered."
	stopped.sess.todo = "Check the network, or that the server is running, then try again."
	out["interrupted"] = stopped
	switching := sessionModel(interrupted, w, h)
	switching.sess.sw = newModelSwitch("gpt-4.1-mini", []string{"localhost:11434", "OpenAI"}, switching.styles)
	switching.sess.switching = true
	out["interrupted switch"] = switching

	lastWords := sessionState()
	lastWords.Status = engine.Completed
	lastWords.Sleep, lastWords.SleepTail = true, 45*time.Minute
	drifting := sessionModel(lastWords, w, h)
	drifting.sess.apply(engine.Event{Kind: engine.EventCompleted, Phase: engine.Resolution})
	out["drifting"] = drifting

	del, _ := press(at(homeModel(t, filterSessions(), nil)), "down", "d")
	out["delete dialog"] = del
	cancel := sessionModel(sessionState(), w, h)
	cancel.dialog, cancel.cancelPaused = dialogCancel, true
	out["cancel dialog"] = cancel
	left := at(startHome(t, &fakeBackend{infos: leftSessions()}))
	out["left running dialog"] = left
	stale, cmd := press(left, "s")
	stale = run(t, stale, cmd)
	stale = run(t, stale, stale.loadSessions())
	out["stale dialog"] = stale
	slept := at(homeModel(t, append(sampleSessions(), sleptSession(8*time.Hour)), nil))
	out["sleep mood dialog"] = slept
	salvage := New(Options{Backend: salvageBackend(), Now: func() time.Time { return testNow }})
	salvage = at(run(t, salvage, salvage.loadSessions()))
	salvage, cmd = press(salvage, "u")
	out["salvage dialog"] = at(run(t, salvage, cmd))
	crisisForm := New(Options{Backend: &fakeBackend{fail: &crisis.Error{Rule: "want to die"}}, Form: true, Crisis: prompts.Crisis, Now: func() time.Time { return testNow }})
	crisisForm = at(crisisForm)
	crisisForm, _ = press(crisisForm, "tab", "k", "m", "s")
	crisisForm, cmd = press(crisisForm, "enter")
	out["crisis dialog"] = run(t, crisisForm, cmd)

	reread, _ := rereadHome(t)
	reread, cmd = press(reread, "enter")
	out["reread"] = at(run(t, reread, cmd))
	out["stats"] = statsModel(t, samplePractice(), w, h)
	b := pattern478.At(2 * time.Second)
	out["breathe"] = practiceModel(t, &b, w, h)
	return out
}

// Issue 26: at 40×12 text was cut without a "…". Every screen lays itself
// out in the room it has — no line wider, no more lines than the rows
// above the keys — so the frame never cuts it silently; and the key line
// fits whole.
func TestNothingIsCutSilently(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {40, 12}} {
		w, h := size[0], size[1]
		for name, m := range everyScreen(t, w, h) {
			cw, _ := m.contentSize()
			footer := m.footer(cw)
			room := m.bodyHeight(footer)
			body := m.body(room)
			for _, part := range []struct{ what, text string }{{"body", body}, {"footer", footer}} {
				for _, l := range strings.Split(part.text, "\n") {
					if lw := lipgloss.Width(l); lw > cw {
						t.Errorf("%dx%d %s: a %s line is %d wide in %d: %q\n%s", w, h, name, part.what, lw, cw, ansi.Strip(l), ansi.Strip(m.View().Content))
					}
				}
			}
			if bh := lipgloss.Height(body); bh > room {
				t.Errorf("%dx%d %s: the body is %d rows in %d: its last %d are cut\n%s", w, h, name, bh, room, bh-room, ansi.Strip(m.View().Content))
			}
		}
	}
}

// Issue 26: at 40×12 "enter begin" fell off the form's key line. On every
// screen the keys that matter most stay in the key line at 40×12 (the
// rest are behind "?"), and a line that leaves keys out ends in "…".
func TestEssentialKeysStayOnSmallScreens(t *testing.T) {
	essential := map[string][]string{
		"home":                {"enter resume", "n new", "q quit", "? help"},
		"form field 0":        {"enter begin", "tab next", "esc back"},
		"form field 8":        {"enter begin", "tab next", "esc back"},
		"session":             {"space pause", "q quit", "? help"},
		"breathing":           {"space pause", "q quit", "? help"},
		"end":                 {"1–5", "tab note", "enter save", "q quit"},
		"end typing":          {"enter save", "esc done"},
		"interrupted":         {"r retry", "m model", "b built-in", "q quit"},
		"interrupted switch":  {"enter try", "tab server", "esc back"},
		"drifting":            {"q stop the sound"},
		"breathe":             {"space pause", "q quit", "? help"},
		"reread":              {"esc/q back"},
		"stats":               {"↑/↓", "esc/t back", "q quit"},
		"delete dialog":       {"y yes", "n no"},
		"left running dialog": {"r resume", "s summarize", "d discard"},
		"stale dialog":        {"c clean up", "esc keep"},
		"sleep mood dialog":   {"1–5", "esc skip"},
		"home empty":          {"n new session", "q quit"},
		"session voice off":   {"space pause", "q quit"},
		"form length refused": {"enter begin"},
		"end mood given":      {"enter save", "q quit"},
		"session help":        {"space pause/resume", "q quit (saves)", "esc pause & list", "c cancel session", "v voice on/off", "a next soundscape"},
		"home with problems":  {"enter resume", "n new"},
		"session opening":     {"space pause", "q quit"},
		"session waiting":     {"space pause", "q quit"},
		"salvage dialog":      {"enter begin there"},
		"cancel dialog":       {"y yes", "n no"},
		"end unsaved":         {"enter your sessions", "q quit"},
		"form field 1":        {"enter begin"},
		"form field 7":        {"enter begin"},
	}
	screens := everyScreen(t, 40, 12)
	for name, keys := range essential {
		m, ok := screens[name]
		if !ok {
			t.Errorf("no screen %q", name)
			continue
		}
		cw, _ := m.contentSize()
		footer := ansi.Strip(m.footer(cw))
		for _, k := range keys {
			if !strings.Contains(footer, k) {
				t.Errorf("40x12 %s: the key help lacks %q:\n%s", name, k, footer)
			}
		}
	}
	for name, m := range screens {
		cw, _ := m.contentSize()
		short := m.helpKeys()
		if m.help.ShowAll || len(short.short) == 0 {
			continue
		}
		line := ansi.Strip(keyLine(m.help.Styles, short, cw))
		shown := 0
		for _, kb := range short.short {
			if strings.Contains(line, kb.Help().Key+" "+kb.Help().Desc) {
				shown++
			}
		}
		if shown < len(enabled(short.short)) && !strings.HasSuffix(line, "…") && len(short.narrow) == 0 {
			t.Errorf("40x12 %s: keys are left out of %q with no sign of them", name, line)
		}
	}
}

// The crisis message on a screen too short for it scrolls: ↓ reads on to
// its last words, any other key goes back.
func TestCrisisMessageScrollsOnASmallScreen(t *testing.T) {
	m := everyScreen(t, 40, 12)["crisis dialog"]
	if m.dialog != dialogCrisis {
		t.Fatalf("dialog %d", m.dialog)
	}
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "↓ more") || strings.Contains(v, "lull will be here when you come back") {
		t.Fatalf("the start of the message does not say there is more:\n%s", v)
	}
	for range 30 {
		m, _ = press(m, "down")
	}
	v = ansi.Strip(m.View().Content)
	if !strings.Contains(strings.Join(strings.Fields(v), " "), "lull will be here when you come back.") || strings.Contains(v, "↓ more") {
		t.Errorf("↓ does not reach the message's last words:\n%s", v)
	}
	m, _ = press(m, "up")
	if m.dialog != dialogCrisis {
		t.Fatal("↑ closed the message")
	}
	m, _ = press(m, "x")
	if m.dialog != dialogNone || m.crisisTop != 0 {
		t.Errorf("another key did not go back (dialog %d, top %d)", m.dialog, m.crisisTop)
	}
}

// The practice on a screen too short for it scrolls with ↑/↓ and says so.
func TestStatsScrollOnASmallScreen(t *testing.T) {
	m := everyScreen(t, 40, 12)["stats"]
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "↓ more below") || !strings.Contains(v, "This week") {
		t.Fatalf("the practice at 40×12 does not say there is more:\n%s", v)
	}
	for range 40 {
		m, _ = press(m, "down")
	}
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "This week") || !strings.Contains(v, "↑ more above") {
		t.Errorf("↓ does not scroll the practice:\n%s", v)
	}
	m, _ = press(m, "esc")
	if m.screen != screenHome {
		t.Errorf("esc left screen %d", m.screen)
	}
}
