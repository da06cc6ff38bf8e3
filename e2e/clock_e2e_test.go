//go:build unix

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// sessions show reads a clock as the session screen does (human.Clock,
// to the nearest second): 599.6 s spoken is 10:00, not 9:59.
func TestSessionsShowRoundsTheClockAsTheScreenDoes(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	const id = "20261123-101500-cl0k"
	spokenSession(t, home, id, func(st *engine.State) {
		st.Length = 20 * time.Minute
		st.Elapsed = 599600 * time.Millisecond
	})
	out, errOut, err := lull(t, home, "1", "sessions", "show", id)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	if !strings.Contains(out, "10:00 of 20:00") {
		t.Errorf("show does not say 10:00 of 20:00 for 599.6 s:\n%s", out)
	}
}
