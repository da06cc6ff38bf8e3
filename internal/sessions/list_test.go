package sessions

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

func TestListOrder(t *testing.T) {
	s, home := openStore(t)
	session := func(id string, status engine.Status, active time.Duration) {
		st := fullState(t, id)
		st.Status, st.UpdatedAt = status, at(active)
		if status == engine.Completed {
			st.Phase, st.Position = engine.Resolution, engine.Position{Phase: engine.Resolution, Sentence: 3}
			for i := range st.Phases {
				st.Phases[i].Status, st.Phases[i].Spoken = engine.PhaseCompleted, 3
			}
			whole := *st.Summary // completed at its close, not summarized partway
			whole.Partial = false
			st.Summary = &whole
		}
		saved(t, s, newState(t, id), st)
	}
	session("completed-recent", engine.Completed, 9*time.Hour)
	session("paused-old", engine.Paused, time.Hour)
	session("interrupted", engine.Interrupted, 3*time.Hour)
	session("abandoned", engine.Abandoned, 8*time.Hour)
	session("paused-b", engine.Paused, 2*time.Hour)
	session("paused-a", engine.Paused, 2*time.Hour)
	create(t, s, newState(t, "created-new")) // UpdatedAt t0: oldest, but resumable

	// What is not a session is skipped or reported, never hiding the rest.
	sessions := filepath.Join(home, "sessions")
	for _, d := range []string{"Not-A-Session", ".trash"} {
		if err := os.Mkdir(filepath.Join(sessions, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(sessions, "README"), []byte("hi"), 0o600); err != nil {
		t.Fatal(err)
	}
	create(t, s, newState(t, "broken"))
	write(t, home, "broken", primaryName, []byte("version: 1\n"))
	os.Remove(filepath.Join(sessions, "broken", transcriptName)) // nothing to rebuild from

	list, problems := s.List()
	var ids []string
	for _, in := range list {
		ids = append(ids, in.ID)
	}
	want := []string{"interrupted", "paused-a", "paused-b", "paused-old", "created-new", "completed-recent", "abandoned"}
	if !slices.Equal(ids, want) {
		t.Errorf("order %v\n want %v", ids, want)
	}
	if len(problems) != 2 {
		t.Fatalf("problems %v", problems)
	}
	var text []string
	for _, p := range problems {
		text = append(text, p.Error())
	}
	joined := strings.Join(text, "\n")
	for _, w := range []string{`folder "Not-A-Session" is not a session: left alone`, "session broken cannot be read"} {
		if !strings.Contains(joined, w) {
			t.Errorf("problems do not say %q:\n%s", w, joined)
		}
	}

	paused := list[3]
	full := fullState(t, "paused-old")
	if paused.Intention != "sleep" || paused.Status != engine.Paused || paused.Phase != engine.Breathing ||
		paused.Length != 10*time.Minute || !paused.Created.Equal(t0) || !paused.LastActive.Equal(at(time.Hour)) ||
		paused.Progress != full.Progress() {
		t.Errorf("info %+v", paused)
	}
	if done := list[5]; done.Progress != 1 {
		t.Errorf("a completed session is %v done", done.Progress)
	}
}

// List checks the whole file, not only the header it decodes: a session
// whose history is damaged is read as Load reads it, rebuilt from its
// transcript here, and says so; with nothing to rebuild from, it is a
// problem.
func TestListChecksTheWholeFile(t *testing.T) {
	s, home := openStore(t)
	spoke(t, s, newState(t, id), fullState(t, id))
	path := filepath.Join(home, "sessions", id, primaryName)
	b := read(t, path)
	head := b[:bytes.Index(b, []byte("\nphases:"))+1]
	os.Remove(filepath.Join(home, "sessions", id, backupName))
	write(t, home, id, primaryName, append(head, "phases: [[[ not yaml at all \x00\n"...))
	list, problems := s.List()
	if len(problems) != 0 || len(list) != 1 || list[0].ID != id || list[0].Status != engine.Paused || !list[0].Report.Rebuilt {
		t.Fatalf("list %+v, problems %v", list, problems)
	}
	os.Remove(filepath.Join(home, "sessions", id, transcriptName))
	list, problems = s.List()
	if len(problems) != 1 || len(list) != 0 {
		t.Fatalf("list %+v, problems %v", list, problems)
	}
	mustContain(t, problems[0], "session "+id+" cannot be read: session.yaml: the file is incomplete or damaged", "see: lull sessions show "+id)
}

// A header that does not decode sends List to the full load, backup and all.
func TestListFallsBackToTheBackup(t *testing.T) {
	s, home := openStore(t)
	saved(t, s, newState(t, id), fullState(t, id), fullState(t, id))
	write(t, home, id, primaryName, []byte("version: 1\nid: [\n"))
	list, problems := s.List()
	if len(problems) != 0 || len(list) != 1 || list[0].Status != engine.Paused || !list[0].Report.FromBackup {
		t.Fatalf("list %+v, problems %v", list, problems)
	}
}

func TestListEmpty(t *testing.T) {
	s, _ := openStore(t)
	if list, problems := s.List(); len(list) != 0 || len(problems) != 0 {
		t.Errorf("list %v, problems %v", list, problems)
	}
}
