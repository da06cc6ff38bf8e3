package app

import (
	"testing"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/safety"
)

// Every line that welcomes a listener back passes the screen where it is
// said: no ending word before resolution, nothing rousing in a sleep
// session.
func TestWelcomeLinesPassTheScreen(t *testing.T) {
	t.Parallel()
	s := safety.Default()
	for _, sleep := range []bool{false, true} {
		for _, p := range engine.Phases {
			seen := map[string]bool{}
			for runs := range 6 {
				line := welcomeLine(p, sleep, runs)
				if line == "" {
					t.Fatalf("no welcome for %s (sleep %v)", p, sleep)
				}
				seen[line] = true
				if v := s.Sentence(line, engine.Place{Phase: p, Sleep: sleep}); v.Flagged() {
					t.Errorf("%q in %s (sleep %v): flagged %s (%s)", line, p, sleep, v.Category, v.Rule)
				}
			}
			if len(seen) < 2 {
				t.Errorf("%s (sleep %v): one welcome for every resume", p, sleep)
			}
		}
	}
}
