package sessions

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A store opened to read makes and changes nothing: no folder where there
// is none, no chmod, no file touched; and it lists a session another lull
// holds open without waiting for it.
func TestOpenToReadLeavesNoTrace(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nothing-here")
	if _, err := OpenToRead(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a home that is not there: %v, want fs.ErrNotExist", err)
	}
	if _, err := os.Lstat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("opening to read made the home: %v", err)
	}
	bare := t.TempDir()
	if _, err := OpenToRead(bare); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a home without a sessions folder: %v, want fs.ErrNotExist", err)
	}
	if _, err := os.Lstat(filepath.Join(bare, "sessions")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("opening to read made the sessions folder: %v", err)
	}

	s, home := openStore(t)
	create(t, s, newState(t, "closed"))
	held, err := s.Create(newState(t, "held")) // open, and locked, as a playing lull holds it
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	folder := filepath.Join(home, "sessions")
	if err := os.Chmod(folder, 0o750); err != nil { // trusted, but not as Open leaves it
		t.Fatal(err)
	}
	before := tree(t, home)

	r, err := OpenToRead(home)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	list, problems := r.List()
	var ids []string
	for _, in := range list {
		ids = append(ids, in.ID)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"closed", "held"}) || len(problems) > 0 {
		t.Errorf("listed %q, problems %v; want both sessions", ids, problems)
	}
	if after := tree(t, home); after != before {
		t.Errorf("reading changed the folder:\nbefore %q\nafter  %q", before, after)
	}
}
