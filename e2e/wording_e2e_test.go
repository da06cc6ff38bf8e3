//go:build unix

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Issue 26, item 12, on the real binary: a refused length is said in the
// words a person uses ("not 3 minutes", never Go's 3m0s), and delete asks
// about a session with no intention in words ("no intention", never "—").
func TestWordingOnTheRealBinary(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	out, errOut, err := lull(t, home, "1", "new", "--length", "3", "--no-tui", "--voice", "none")
	if err == nil || !strings.Contains(errOut, "not 3 minutes") || strings.Contains(errOut, "3m0s") {
		t.Errorf("lull new --length 3 (%v):\n%s%s", err, out, errOut)
	}
	const id = "20261130-093000-wrd1"
	spokenSession(t, home, id, func(st *engine.State) { st.Intention = "" })
	s := newScreen(t, []string{"LULL_HOME=" + home}, "sessions", "delete", id)
	ask := s.waitFor("?", 30*time.Second)
	if !strings.Contains(ask, ", no intention)?") || strings.Contains(ask, "—") {
		t.Errorf("delete asks:\n%s", ask)
	}
	s.send("n", "Enter")
	s.waitFor("__EXIT=", 30*time.Second)
}
