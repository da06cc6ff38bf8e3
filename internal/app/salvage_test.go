package app

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// A session whose file, backup and transcript opening are all damaged is
// listed as unreadable; Salvage offers each phase its transcript reaches,
// and Restore begins it again there and runs it.
func TestUnreadableSessionBeginsAgain(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	r, err := a.Start(engine.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for r.Snapshot().Phases[engine.Breathing].Spoken < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	id := r.ID()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	dir, err := a.Store().Dir(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"session.yaml", "session.yaml.bak"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("version: 1\nid: [\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tr := filepath.Join(dir, "transcript.md")
	data, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	// Spoil the opening record's check: nothing says which session it is.
	data = bytes.Replace(data, []byte("# lull"), []byte("# LULL"), 1)
	if err := os.WriteFile(tr, data, 0o600); err != nil {
		t.Fatal(err)
	}

	_, problems := a.List()
	var unreadable *sessions.UnreadableError
	if len(problems) != 1 || !errors.As(problems[0], &unreadable) || unreadable.ID != id {
		t.Fatalf("problems %v", problems)
	}
	sv, from, err := a.Salvage(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(from) < 2 || from[len(from)-1] < engine.Breathing || len(sv.Files) < 3 {
		t.Fatalf("begin again at %v; found %+v", from, sv.Files)
	}
	r, err = a.Restore(id, engine.Breathing)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	st := r.Snapshot()
	if st.Phase != engine.Breathing || st.Phases[engine.Atmosphere].Status != engine.PhaseCompleted || st.Phases[engine.Atmosphere].Spoken == 0 {
		t.Errorf("restored at %s; atmosphere %+v", st.Phase, st.Phases[engine.Atmosphere])
	}
	if err := r.Pause(); err != nil && !errors.As(err, new(*engine.TransitionError)) {
		t.Fatal(err)
	}
}
