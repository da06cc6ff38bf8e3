//go:build unix

package e2e

import (
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/testutil/keytable"
)

// Issue 26: the README's table of keys for a session matches the real
// binary's screen in a terminal: with ? pressed, each key the table lists
// for "Session" is shown, and what the screen says it does agrees with
// the table's words. (internal/tui holds every other place to the table
// on its views.)
func TestTmuxReadmeKeysOnTheRealScreen(t *testing.T) {
	t.Parallel()
	rows, err := keytable.Read("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=2"}, "new", "--length", "5", "--voice", "none", "--soundscape", "none")
	s.waitFor("speaking", 30*time.Second)
	s.send("?")
	screen := s.waitFor("esc   pause & list", 30*time.Second)
	checked := 0
	for _, row := range rows {
		if row.Where != "Session" {
			continue
		}
		for _, k := range keytable.Keys(row.Keys) {
			checked++
			if !keytable.Shows(screen, k) {
				t.Errorf("the README lists %q (%s) for a session, and the screen does not show it:\n%s", k, row.Does, screen)
				continue
			}
			if help := keytable.Help(screen, k); !keytable.Said(help, row.Does) {
				t.Errorf("the screen says %q does %q, the README %q:\n%s", k, help, row.Does, screen)
			}
		}
	}
	if checked < 10 {
		t.Errorf("the README's table lists %d keys for a session", checked)
	}
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
}
