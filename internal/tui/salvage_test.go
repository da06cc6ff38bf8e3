package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

func salvageBackend() *fakeBackend {
	return &fakeBackend{
		problems: []Problem{{ID: "2026-11-20-0800-lost", Text: "session 2026-11-20-0800-lost cannot be read: session.yaml: the file is empty; session.yaml.bak: it is missing"}},
		salvaged: Salvaged{
			ID: "2026-11-20-0800-lost",
			Found: []string{
				"session.yaml, 0 bytes: the file is empty",
				"transcript.md, 2210 bytes: its opening record is damaged",
				"The transcript shows 9 sentences of atmosphere, 5 of breathing.",
			},
			From: []engine.Phase{engine.Atmosphere, engine.Breathing},
		},
	}
}

// The third recovery level: u shows what the folder holds and asks where
// to begin again; enter begins there.
func TestUnreadableSessionIsShownAndBegunAgain(t *testing.T) {
	b := salvageBackend()
	m := New(Options{Backend: b, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	m = run(t, m, m.loadSessions())
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "u to look") {
		t.Fatalf("the home screen does not say how to look at the unreadable session:\n%s", v)
	}
	m, cmd := press(m, "u")
	m = run(t, m, cmd)
	if m.dialog != dialogSalvage {
		t.Fatalf("dialog %d after u", m.dialog)
	}
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"cannot be read, nor rebuilt", "the file is empty", "5 of breathing", "[Breathing]"} {
		if !strings.Contains(v, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, v)
		}
	}
	golden(t, "salvage_dialog_dark", styled(m, true).View().Content)
	golden(t, "salvage_dialog_light", styled(m, false).View().Content)
	m, _ = press(m, "left")
	m, cmd = press(m, "enter")
	m = run(t, m, cmd)
	if !slices.Equal(b.restored, []engine.Phase{engine.Atmosphere}) || m.screen != screenSession {
		t.Errorf("restored %v, screen %d", b.restored, m.screen)
	}
	_ = m.run.Close()
}

func TestUnreadableSessionCanBeDeleted(t *testing.T) {
	b := salvageBackend()
	m := New(Options{Backend: b, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	m = run(t, m, m.loadSessions())
	m, cmd := press(m, "u")
	m = run(t, m, cmd)
	m, _ = press(m, "d")
	if m.dialog != dialogDelete {
		t.Fatalf("d did not ask first: dialog %d", m.dialog)
	}
	m, cmd = press(m, "y")
	m = run(t, m, cmd)
	if !slices.Equal(b.deleted, []string{"2026-11-20-0800-lost"}) {
		t.Errorf("deleted %v", b.deleted)
	}
}
