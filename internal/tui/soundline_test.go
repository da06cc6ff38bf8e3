package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// soundModel is the sample session, running, its sound as given.
func soundModel(w, h int, chosen string, now soundNow) Model {
	st := sessionState()
	st.Status = engine.Running
	st.Voice = chosen
	m := sessionModel(st, w, h)
	m.sess.sound = now
	return m
}

// The line over the keys names the voice speaking (auto picked it: the
// screen said nothing of which) and the volume, and where to find other
// voices; once the sound is off — the voice turned off, the volume at 0,
// no voice found — it says so for as long as it lasts, even on a small
// screen, and what brings it back.
func TestSoundLineNamesTheVoiceAndMarksSilence(t *testing.T) {
	for _, c := range []struct {
		name   string
		w, h   int
		chosen string
		now    soundNow
		want   []string // "" : no line at all
	}{
		{"playing", 80, 24, "auto", soundNow{true, "flite", true, 10, 1, 10}, []string{"Voice: flite · volume 10 of 12 · other voices: lull doctor"}},
		{"text only, chosen", 80, 24, "none", soundNow{true, "none", true, 10, 1, 10}, []string{"No voice (text only) · volume 10 of 12"}},
		{"no voice found", 80, 24, "auto", soundNow{true, "none", true, 10, 1, 10}, []string{"No voice found: the words are on screen only · voices: lull doctor"}},
		{"voice off", 80, 24, "auto", soundNow{true, "flite", false, 10, 1, 10}, []string{"Voice off: the words are on screen only · v turns it on"}},
		{"volume 0", 80, 24, "auto", soundNow{true, "flite", true, 0, 1, 10}, []string{"Volume 0: nothing is heard · + turns it up"}},
		{"both off", 80, 24, "auto", soundNow{true, "flite", false, 0, 1, 10}, []string{"Voice off, volume 0: nothing is heard · v and + bring it back"}},
		{"small, playing", 40, 12, "auto", soundNow{true, "flite", true, 10, 1, 10}, nil},
		{"small, voice off", 40, 12, "auto", soundNow{true, "flite", false, 10, 1, 10}, []string{"Voice off · v turns it on"}},
		{"small, volume 0", 40, 12, "auto", soundNow{true, "flite", true, 0, 1, 10}, []string{"Volume 0: silent · + turns it up"}},
		{"small, no voice", 40, 12, "auto", soundNow{true, "none", true, 10, 1, 10}, []string{"No voice found · lull doctor"}},
	} {
		v := ansi.Strip(soundModel(c.w, c.h, c.chosen, c.now).View().Content)
		for _, want := range c.want {
			if !strings.Contains(v, want) {
				t.Errorf("%s: the screen does not say %q:\n%s", c.name, want, v)
			}
		}
		if c.want == nil && (strings.Contains(v, "Voice") || strings.Contains(v, "volume")) {
			t.Errorf("%s: a small screen spends a row on a sound that is well:\n%s", c.name, v)
		}
	}
	// A message on the status line stands in its place for its while.
	m := soundModel(80, 24, "auto", soundNow{true, "flite", false, 10, 1, 10})
	m.status.set("Soundscape: rain.", levelInfo, 0)
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Soundscape: rain.") || strings.Contains(v, "Voice off") {
		t.Errorf("the status message and the sound line share a row:\n%s", v)
	}
}

// The mark follows the keys: v off, and it stays once the message that
// said so has gone; the volume taken to 0 likewise; both back, and the
// line names the voice again.
func TestSoundLineFollowsTheKeys(t *testing.T) {
	m := sized(New(Options{Backend: &fakeBackend{}, Now: func() time.Time { return testNow }}), 80, 24)
	st, _ := engine.NewState("2026-11-23-1200-k3f9", engine.Options{Length: 5 * time.Minute}, testNow)
	r := startHeldRun(st)
	t.Cleanup(func() { r.Close() })
	next, cmd := m.Update(runStartedMsg{run: r})
	m = next.(Model)
	m = feedFirst(t, m, cmd, func(msg tea.Msg) bool { _, ok := msg.(soundMsg); return ok })
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Voice: espeak-ng · volume 10 of 12") {
		t.Fatalf("the run's voice is not named as it opens:\n%s", v)
	}
	key := func(k string) {
		t.Helper()
		var cmd tea.Cmd
		m, cmd = press(m, k)
		next, _ := m.Update(cmd())
		m = next.(Model)
		m.status.timeout(statusTimeoutMsg{seq: m.status.seq}) // the message has had its while
	}
	key("v")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Voice off: the words are on screen only · v turns it on") {
		t.Errorf("after v the screen does not keep saying the voice is off:\n%s", v)
	}
	for range 10 {
		key("-")
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Voice off, volume 0: nothing is heard") {
		t.Errorf("at volume 0 with the voice off the screen does not say nothing is heard:\n%s", v)
	}
	key("v")
	for range 10 {
		key("+")
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Voice: espeak-ng · volume 10 of 12") {
		t.Errorf("with the sound back the line does not name the voice:\n%s", v)
	}
}
