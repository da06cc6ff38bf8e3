package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The delete dialog names the session it would delete: its intention (or
// that it had none), its status and how far it came, and when it began.
func TestDeleteDialogNamesTheSession(t *testing.T) {
	infos := filterSessions()
	infos[3].Intention = ""
	for _, c := range []struct {
		down int
		want []string
	}{
		{0, []string{"“a calm sea”", "paused at sensory, 4:00 of 10:00", "began Mon 23 Nov, 21:00"}},
		{1, []string{"“rest after a long day”", "interrupted at breathing, 4:00 of 20:00", "began Sun 22 Nov, 21:00"}},
		{2, []string{"“calm”", "completed, 15:00", "began Sat 21 Nov, 21:00"}},
		{3, []string{"No intention", "completed, 15:00", "began Mon 16 Nov, 21:00"}},
	} {
		m := homeModel(t, infos, nil)
		for range c.down {
			m, _ = press(m, "down")
		}
		m, _ = press(m, "d")
		v := ansi.Strip(m.View().Content)
		for _, w := range c.want {
			if !strings.Contains(v, w) {
				t.Errorf("the delete dialog for %s lacks %q:\n%s", infos[c.down].ID, w, v)
			}
		}
	}
}
