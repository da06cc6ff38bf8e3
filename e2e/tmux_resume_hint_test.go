//go:build unix

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/tui"
)

// q leaves the session paused, and once the screen has handed the
// terminal back lull says where it stopped and how to resume it.
func TestTmuxQuitSaysHowToResume(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=20"}, "new", "--length", "5")
	s.waitFor("speaking", 60*time.Second)
	s.send("q")
	s.waitFor("__EXIT=0", 60*time.Second)
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Paused {
		t.Fatalf("after q the session is %s, want paused", st.Status)
	}
	s.mainScreen()
	shown := flat(s.lines()) // lull wraps between words to fit the terminal
	want := tui.StoppedAt(st) + ". Resume with: lull resume " + id
	if !strings.Contains(shown, "Resume with: lull resume "+id) || !strings.Contains(shown, want) {
		t.Errorf("after q the terminal does not say %q:\n%s", want, shown)
	}
	if strings.Count(shown, "Resume with:") > 1 {
		t.Errorf("the hint is said more than once:\n%s", shown)
	}
}
