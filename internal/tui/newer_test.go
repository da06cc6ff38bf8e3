package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// A session a newer lull made is listed and marked, with no promise of
// who would resume it: lull refuses to write it.
func TestNewerSessionIsMarkedInTheList(t *testing.T) {
	in := SessionInfo{ID: "2026-11-24-0700-nw01", Intention: "from the future", Status: engine.Paused, Phase: engine.Sensory,
		Length: 10 * time.Minute, LastActive: testNow, ResumesOn: "built-in guide", Newer: 2}
	m := homeModel(t, []SessionInfo{in}, nil)
	view := ansi.Strip(m.View().Content)
	if !strings.Contains(view, "made by a newer lull") {
		t.Errorf("the list does not mark the session:\n%s", view)
	}
	if strings.Contains(view, "built-in guide") {
		t.Errorf("the list promises a resume of a session lull will not write:\n%s", view)
	}
}
