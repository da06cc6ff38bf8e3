package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// hostile is text a person, a model or a hand-edited file might hold: an
// OSC that retitles the terminal, a CSI that clears it, a line break, a
// bidi override, invisible characters (a zero-width space, a byte-order
// mark, a tag), a bell, and a key.
const hostile = "\x1b]0;pwned\a ca\u200blm \x1b[2J be\ufefffore\n a \u202etalk\U000E0041\a sk-canary-5f0d2b7e9c41a3"

// sgr is a style sequence: the only escapes lull's own views write.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkPrintable fails when a view holds anything but text and styling.
func checkPrintable(t *testing.T, where, view string) {
	t.Helper()
	rest := sgr.ReplaceAllString(view, "")
	for _, bad := range []string{"\x1b", "\a", "\u202e", "\u200b", "\ufeff", "\U000E0041", "pwned", "sk-canary"} {
		if strings.Contains(rest, bad) {
			i := strings.Index(rest, bad)
			t.Errorf("%s holds %q: …%q…", where, bad, rest[max(i-30, 0):min(i+30, len(rest))])
		}
	}
}

func TestHostileTextRendersWithoutEscapes(t *testing.T) {
	// Home: a listed session's intention, and a problem quoting a file.
	infos := []SessionInfo{{ID: "2026-11-23-1200-k3f9", Intention: hostile, Status: engine.Paused, Phase: engine.Sensory,
		Progress: 0.4, Length: 10 * time.Minute, LastActive: testNow.Add(-time.Hour)}}
	home := homeModel(t, infos, []Problem{{Text: "2026-11-01-0900-bad1: " + hostile}})
	for _, dark := range []bool{true, false} {
		v := styled(home, dark).View().Content
		checkPrintable(t, "the home screen", v)
		if !strings.Contains(ansi.Strip(v), "calm before a talk") {
			t.Errorf("the home screen lost the intention's words:\n%s", ansi.Strip(v))
		}
	}

	// The dialog offered for a session left running names it by its intention.
	left := infos[0]
	left.Status = engine.Running
	offer := homeModel(t, []SessionInfo{left}, nil)
	if offer.dialog != dialogLeftRunning {
		t.Fatalf("no left-running dialog (dialog %d)", offer.dialog)
	}
	checkPrintable(t, "the left-running dialog", offer.View().Content)

	// The session screen: the intention in the header, a model's sentence
	// from the history and one as it is spoken, a notice in the status line.
	st := sessionState()
	st.Intention = hostile // as an older lull saved it
	st.History = append(st.History, engine.Entry{At: testNow, Phase: engine.Sensory, Role: engine.RoleGuide, Text: "Rest " + hostile})
	m := sessionModel(st, 80, 24)
	m.sess.apply(engine.Event{Kind: engine.EventSentence, Phase: engine.Sensory, Text: "Breathe \x1b]0;pwned\x1b\\ slowly\x1b[2J now."})
	m.status.set("note: "+hostile, levelWarn, 0)
	v := m.View().Content
	checkPrintable(t, "the session screen", v)
	if !strings.Contains(ansi.Strip(v), "Breathe slowly now.") {
		t.Errorf("the spoken sentence is not shown clean:\n%s", ansi.Strip(v))
	}

	// Interrupted: the provider's error, as the engine reported it.
	st.Status = engine.Interrupted
	stopped := sessionModel(st, 80, 24)
	stopped.sess.apply(engine.Event{Kind: engine.EventError, GuideFailed: true, Text: "The guide stopped: 401 " + hostile})
	checkPrintable(t, "the interrupted screen", stopped.View().Content)

	// The salvage dialog quotes what the folder holds.
	b := &fakeBackend{salvaged: Salvaged{ID: "2026-11-01-0900-bad1", Found: []string{"transcript.md: " + hostile}, From: []engine.Phase{engine.Atmosphere}}}
	sv := New(Options{Backend: b, Now: func() time.Time { return testNow }})
	sv = sized(sv, 80, 24)
	next, _ := sv.Update(sessionsMsg{problems: []Problem{{Text: "unreadable", ID: "2026-11-01-0900-bad1"}}})
	next, _ = next.(Model).Update(salvagedMsg{what: b.salvaged})
	if next.(Model).dialog != dialogSalvage {
		t.Fatalf("no salvage dialog")
	}
	checkPrintable(t, "the salvage dialog", next.(Model).View().Content)
}

// The form refuses what the engine's rule refuses, says why, and starts
// nothing; its length limit is the engine's.
func TestFormRefusesAnIntentionTheRuleRefuses(t *testing.T) {
	b := &fakeBackend{}
	m := New(Options{Backend: b, Form: true, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	m, _ = press(m, "tab")
	next, _ := m.Update(tea.PasteMsg{Content: "calm \u202eklat a erofeb"})
	m = next.(Model)
	if got := m.form.intention.Value(); got != "calm klat a erofeb" {
		t.Errorf("the field holds %q", got)
	}
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "bidirectional-text control (U+202E)") {
		t.Errorf("the form does not say what it took out:\n%s", v)
	}
	checkPrintable(t, "the form", m.View().Content)

	// Were one to get past the field, Begin refuses it and starts nothing.
	m.form.intention.SetValue("calm \u2066now\u2069")
	m, cmd := press(m, "enter")
	m = run(t, m, cmd)
	if len(b.started) != 0 || m.screen != screenForm {
		t.Fatalf("a session started with a bidi isolate in its intention: %+v", b.started)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "U+2066") {
		t.Errorf("the form does not say why it did not begin:\n%s", v)
	}

	// Plain words begin; extra spaces fold; the refusal goes with an edit.
	m.form.intention.SetValue("")
	m, _ = press(m, "c", "a", "l", "m", "space", "space", "n", "o", "w")
	if strings.Contains(ansi.Strip(m.View().Content), "U+2066") {
		t.Error("the refusal stayed after the intention was edited")
	}
	m, cmd = press(m, "enter")
	m = run(t, m, cmd)
	if len(b.started) != 1 || b.started[0].Intention != "calm now" {
		t.Fatalf("started %+v", b.started)
	}
	_ = m.run.Close()
}
