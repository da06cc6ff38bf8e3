package sessions

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// List reads only the header, so the header says a completed session is
// partial; a file written before it did says so by never having reached
// the last phase.
func TestListKnowsAPartialSessionFromTheHeader(t *testing.T) {
	s, home := openStore(t)
	st := fullState(t, id)
	st.Summary = nil
	if err := st.Summarize(at(5 * time.Minute)); err != nil {
		t.Fatal(err)
	}
	saved(t, s, newState(t, id), st)
	wantProgress := float64(st.Elapsed) / float64(st.Length)
	check := func(when string) {
		t.Helper()
		list, problems := s.List()
		if len(problems) != 0 || len(list) != 1 {
			t.Fatalf("%s: list %+v, problems %v", when, list, problems)
		}
		in := list[0]
		if in.Status != engine.Completed || !in.Partial || in.Progress != wantProgress || in.Report.Rebuilt || in.Report.FromBackup {
			t.Errorf("%s: listed %s, partial %v, progress %v (report %+v); want completed, partial, %v",
				when, in.Status, in.Partial, in.Progress, in.Report, wantProgress)
		}
	}
	check("written now")

	path := filepath.Join(home, "sessions", id, primaryName)
	body, err := unseal(read(t, path))
	if err != nil {
		t.Fatal(err)
	}
	head := body[:bytes.Index(body, []byte("\n"+phasesKey))+1]
	if !bytes.Contains(head, []byte("\npartial: true\n")) {
		t.Fatalf("the header does not say partial:\n%s", head)
	}
	old := bytes.Replace(body, []byte("\npartial: true\n"), []byte("\n"), 1)
	if err := os.WriteFile(path, seal(old), 0o600); err != nil {
		t.Fatal(err)
	}
	check("written before the key")
	if got, _, err := s.Load(id); err != nil || got.Summary == nil || !got.Summary.Partial {
		t.Errorf("the older file loads as %+v, %v", got.Summary, err)
	}
}

// A session completed at its natural close is not partial, in full.
func TestListCompletedIsWhole(t *testing.T) {
	s, _ := openStore(t)
	st := newState(t, id)
	st.Status = engine.Completed
	st.Phase = engine.Resolution
	st.Position.Phase = engine.Resolution
	for i := range st.Phases {
		st.Phases[i].Status = engine.PhaseCompleted
	}
	st.Summary = &engine.Summary{Duration: 10 * time.Minute, CompletedAt: at(11 * time.Minute)}
	st.UpdatedAt = at(11 * time.Minute)
	saved(t, s, newState(t, id), st)
	list, problems := s.List()
	if len(problems) != 0 || len(list) != 1 || list[0].Partial || list[0].Progress != 1 {
		t.Fatalf("list %+v, problems %v", list, problems)
	}
}
