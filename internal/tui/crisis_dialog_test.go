package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/crisis"

	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/prompts"
)

// A crisis intention typed into the form gets the help message, as text:
// whole, unwrapped, with no markup, inside the screen.
func TestCrisisDialogShowsTheHelpAsText(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {80, 20}, {100, 30}} {
		b := &fakeBackend{fail: &crisis.Error{Rule: "want to die"}}
		m := New(Options{Backend: b, Form: true, Crisis: prompts.Crisis, Now: func() time.Time { return testNow }})
		m = sized(m, size[0], size[1])
		m, _ = press(m, "tab", "k", "m", "s")
		m, cmd := press(m, "enter")
		m = run(t, m, cmd)
		if m.dialog != dialogCrisis {
			t.Fatalf("%dx%d: dialog %d, want the crisis dialog", size[0], size[1], m.dialog)
		}
		view := m.View().Content
		screen := screenText(m)
		if strings.Contains(screen, "**") {
			t.Errorf("%dx%d: the dialog shows markup:\n%s", size[0], size[1], screen)
		}
		if w, h := lipgloss.Width(view), lipgloss.Height(view); w > size[0] || h > size[1] {
			t.Errorf("%dx%d: the view is %dx%d", size[0], size[1], w, h)
		}
		for _, line := range strings.Split(strings.TrimSpace(prompts.Crisis), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.Contains(screen, line) {
				t.Errorf("%dx%d: the dialog does not show %q whole:\n%s", size[0], size[1], line, screen)
			}
		}
		for _, want := range []string{"findahelpline.com", "Press any key to go back."} {
			if !strings.Contains(screen, want) {
				t.Errorf("%dx%d: the dialog does not show %q:\n%s", size[0], size[1], want, screen)
			}
		}
		if len(b.started) != 0 {
			t.Errorf("a session started: %+v", b.started)
		}
		m, _ = press(m, "x")
		if m.dialog != dialogNone || m.screen != screenForm {
			t.Errorf("%dx%d: a key left dialog %d on screen %d, want the form back", size[0], size[1], m.dialog, m.screen)
		}
	}
}
