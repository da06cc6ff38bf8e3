package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// A session summarized partway is partial on the home list, with where it
// stood and how far it came, not "completed".
func TestHomeListsAPartialSessionWithItsProgress(t *testing.T) {
	m := homeModel(t, []SessionInfo{{
		ID: "2026-11-20-0700-zz12", Intention: "unwind", Status: engine.Completed, Partial: true,
		Phase: engine.Sensory, Progress: 0.53, Length: 15 * time.Minute, LastActive: testNow.Add(-time.Hour),
	}}, nil)
	view := ansi.Strip(m.View().Content)
	if !strings.Contains(view, "partial · sensory · 53%") || strings.Contains(view, "completed") {
		t.Errorf("home view:\n%s", view)
	}
}
