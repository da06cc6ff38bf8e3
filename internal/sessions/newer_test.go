package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// newerFile is a session's file as a newer lull might write it: a higher
// schema version and a field this lull does not know.
func newerFile(t *testing.T, file []byte) []byte {
	t.Helper()
	return reseal(t, file, func(s string) string {
		s = strings.Replace(s, "version: 1\n", "version: 2\n", 1)
		return strings.Replace(s, "seed: ", "tempo: adagio\nseed: ", 1)
	})
}

// A session a newer lull wrote is listed, marked, and never written: not
// resumed, noted, rebuilt from its transcript, or loaded from a backup
// written over it.
func TestNewerLullsFileIsNeverOverwritten(t *testing.T) {
	s, home := openStore(t)
	st := fullState(t, "2026-11-24-0700-nw01")
	st.Status = engine.Paused
	saved(t, s, st, st) // a backup as well
	dir := filepath.Join(home, "sessions", st.ID)
	write(t, home, st.ID, primaryName, newerFile(t, read(t, filepath.Join(dir, primaryName))))
	names := func() string {
		entries, _ := os.ReadDir(dir)
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return strings.Join(out, " ")
	}
	before := names()
	contents := func() string {
		var b strings.Builder
		for _, name := range []string{primaryName, backupName, transcriptName} {
			data, _ := os.ReadFile(filepath.Join(dir, name))
			b.Write(data)
		}
		return b.String()
	}
	was := contents()

	list, problems := s.List()
	if len(problems) != 0 || len(list) != 1 {
		t.Fatalf("listed %+v, problems %v", list, problems)
	}
	if in := list[0]; in.Newer != 2 || in.Intention != st.Intention {
		t.Errorf("listed as %+v, want marked newer (2) with its intention", in)
	}
	if _, _, err := s.Load(st.ID); !isNewer(err) {
		t.Errorf("Load: %v, want a NewerError", err)
	}
	if _, err := s.Resume(st.ID); !isNewer(err) {
		t.Errorf("Resume: %v, want a NewerError", err)
	}
	note := "a note"
	_, err := s.Remark(st.ID, Remark{Note: &note})
	mustContain(t, err, "made by a newer lull", "update lull")

	// Both files newer: no rebuild from the transcript replaces them.
	write(t, home, st.ID, backupName, newerFile(t, read(t, filepath.Join(dir, backupName))))
	was = contents()
	if _, err := s.Resume(st.ID); !isNewer(err) {
		t.Errorf("Resume with both files newer: %v, want a NewerError", err)
	}
	// A damaged session.yaml beside a newer backup: the backup is the
	// newer lull's, and nothing is rebuilt over it.
	write(t, home, st.ID, primaryName, []byte("damaged"))
	was = contents()
	if _, err := s.Resume(st.ID); !isNewer(err) {
		t.Errorf("Resume with a damaged file and a newer backup: %v, want a NewerError", err)
	}
	if got := contents(); got != was {
		t.Error("a newer lull's files were written")
	}
	if after := names(); after != before {
		t.Errorf("the folder holds %s; it held %s", after, before)
	}
}

func isNewer(err error) bool {
	_, ok := errors.AsType[*NewerError](err)
	return ok
}
