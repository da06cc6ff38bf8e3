package sessions

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// A session an older lull saved with an intention today's rule refuses —
// escape sequences, a line break, far over the length — loads as it is,
// and when both its files are lost it is still rebuilt from its
// transcript: never refused over its intention.
func TestOldIntentionNeverStopsARebuild(t *testing.T) {
	s, home := openStore(t)
	hostile := "\x1b]0;pwned\a calm\nbefore \u202ea talk " + strings.Repeat("and rest ", 40)
	st := newState(t, id)
	st.Intention = hostile // as an older lull took it
	sess, err := s.Create(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Save(st); err != nil { // a backup too
		t.Fatal(err)
	}
	sess.Close()

	got, _, err := s.Load(id)
	if err != nil || got.Intention != hostile {
		t.Fatalf("loading: %v, intention %q", err, got.Intention)
	}

	dir := filepath.Join(home, "sessions", id)
	for _, f := range []string{primaryName, backupName} {
		b := read(t, filepath.Join(dir, f))
		write(t, home, id, f, b[:len(b)/2])
	}
	got, report, err := s.Load(id)
	if err != nil || !report.Rebuilt {
		t.Fatalf("rebuilding: %v, report %+v", err, report)
	}
	if want := engine.KeptIntention(hostile); got.Intention != want || !strings.HasPrefix(want, "calm before a talk and rest") {
		t.Errorf("rebuilt intention %q, want %q", got.Intention, want)
	}
	if _, err := engine.CleanIntention(got.Intention); err != nil {
		t.Errorf("the rebuilt intention breaks the rule: %v", err)
	}
}
