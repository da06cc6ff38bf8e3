package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// Start holds the intention rule too: what the CLI and the form refuse,
// the app refuses before a session is made; what they fold, it folds.
func TestStartHoldsTheIntentionRule(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	for _, bad := range []string{"sleep\x1b]0;pwned\a", "calm \u202eklat", strings.Repeat("é", engine.MaxIntention+1)} {
		if r, err := a.Start(engine.Options{Seed: 1, Intention: bad}); err == nil {
			r.Close()
			t.Errorf("Start took %.30q", bad)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(a.opts.Paths.Data, "sessions")); len(entries) != 0 {
		t.Errorf("refused intentions made %d sessions", len(entries))
	}
	r, err := a.Start(engine.Options{Seed: 1, Intention: "\tcalm\nbefore  a talk "})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got := r.Snapshot().Intention; got != "calm before a talk" {
		t.Errorf("intention %q, want it folded", got)
	}
}
