package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// [ and ] step the voice's pace, , and . the soundscape's level apart
// from the volume: each key says what it did, and the line over the keys
// names what differs from lull's own once the message has gone; back at
// lull's own, neither is named.
func TestPaceAndSoundscapeKeys(t *testing.T) {
	m := sized(New(Options{Backend: &fakeBackend{}, Now: func() time.Time { return testNow }}), 80, 24)
	st, _ := engine.NewState("2026-11-23-1200-k3f9", engine.Options{Length: 5 * time.Minute}, testNow)
	r := startHeldRun(st)
	t.Cleanup(func() { r.Close() })
	next, cmd := m.Update(runStartedMsg{run: r})
	m = next.(Model)
	m = feedFirst(t, m, cmd, func(msg tea.Msg) bool { _, ok := msg.(soundMsg); return ok })
	said := ""
	key := func(k string) {
		t.Helper()
		var cmd tea.Cmd
		m, cmd = press(m, k)
		if cmd == nil {
			t.Fatalf("%s does nothing", k)
		}
		next, _ := m.Update(cmd())
		m = next.(Model)
		said = ansi.Strip(m.View().Content)
		m.status.timeout(statusTimeoutMsg{seq: m.status.seq})
	}
	screen := func() string { return ansi.Strip(m.View().Content) }

	key("[")
	if !strings.Contains(said, "Voice pace 0.95: slower.") {
		t.Errorf("[ does not say the pace:\n%s", said)
	}
	key("[")
	if rate, _ := r.Tuning(); rate != 0.9 {
		t.Errorf("two [ : pace %v", rate)
	}
	for range 10 {
		key("[")
	}
	if rate, _ := r.Tuning(); rate != engine.MinVoiceRate || !strings.Contains(said, "Voice pace 0.80") {
		t.Errorf("many [ : pace %v, said:\n%s", rate, said)
	}
	if v := screen(); !strings.Contains(v, "Voice: espeak-ng · volume 10 of 12 · pace 0.80") {
		t.Errorf("the line over the keys does not name the pace:\n%s", v)
	}
	for range 4 {
		key("]")
	}
	if rate, _ := r.Tuning(); rate != 1 || !strings.Contains(said, "Voice pace 1.00: the normal pace.") {
		t.Errorf("back up: pace %v, said:\n%s", rate, said)
	}

	key(",")
	key(",")
	if !strings.Contains(said, "Soundscape 8 of 12: -6 dB.") {
		t.Errorf(", does not say the soundscape's level:\n%s", said)
	}
	if _, _, level := r.Sound(); level != engine.DefaultVolume {
		t.Errorf("the soundscape's key moved the volume to %d", level)
	}
	if v := screen(); !strings.Contains(v, "volume 10 of 12 · soundscape 8 of 12") || strings.Contains(v, "· pace") {
		t.Errorf("the line over the keys:\n%s", v)
	}
	key(".")
	key(".")
	key(".")
	if _, scape := r.Tuning(); scape != engine.DefaultVolume+1 || !strings.Contains(said, "Soundscape 11 of 12: +3 dB.") {
		t.Errorf("three . : soundscape %d, said:\n%s", scape, said)
	}
	key("-")
	if _, scape := r.Tuning(); scape != engine.DefaultVolume+1 {
		t.Errorf("- moved the soundscape's own level to %d", scape)
	}
}

// The full help names the keys of the pace and the soundscape's level.
func TestFullHelpNamesPaceAndSoundscapeKeys(t *testing.T) {
	m := sessionModel(sessionState(), 80, 24)
	m.help.ShowAll = true
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"[/] voice pace", ",/. soundscape level"} {
		if !strings.Contains(v, want) {
			t.Errorf("the full help lacks %q:\n%s", want, v)
		}
	}
}
