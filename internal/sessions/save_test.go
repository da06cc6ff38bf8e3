package sessions

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// A save that fails leaves the primary as it was and no temporary file.
// Tests run as root, so permissions cannot make writes fail: a directory
// in the way of a file can.
func TestFailedSaveLeavesThePrimary(t *testing.T) {
	for _, blocked := range []string{tempName, backupTempName} {
		t.Run(blocked, func(t *testing.T) {
			s, home := openStore(t)
			sess, err := s.Create(newState(t, id))
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			if err := sess.Save(fullState(t, id)); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(home, "sessions", id)
			before := read(t, filepath.Join(dir, primaryName))
			os.Remove(filepath.Join(dir, blocked))
			in := blocked
			if blocked == backupTempName {
				// Not empty: a save removes what a crash may have left
				// under this name before it writes the backup there.
				in = filepath.Join(blocked, "in")
			}
			if err := os.MkdirAll(filepath.Join(dir, in), 0o700); err != nil {
				t.Fatal(err)
			}
			next := fullState(t, id)
			next.Elapsed += time.Second
			err = sess.Save(next)
			mustContain(t, err, "saving session "+id+": writing "+blocked+": ")
			if !errors.Is(err, syscall.EISDIR) {
				t.Errorf("the cause is lost: %v", err)
			}
			t.Log(err)
			if after := read(t, filepath.Join(dir, primaryName)); !bytes.Equal(before, after) {
				t.Error("a failed save changed the primary")
			}
			if _, err := os.Stat(filepath.Join(dir, tempName)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s left behind: %v", tempName, err)
			}
			// Once the way is clear, saving works again.
			os.RemoveAll(filepath.Join(dir, blocked))
			if err := sess.Save(next); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A state that would not load never replaces one that does.
func TestSaveRefusesBadStates(t *testing.T) {
	s, home := openStore(t)
	sess, err := s.Create(newState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	before := read(t, filepath.Join(home, "sessions", id, primaryName))
	bad := fullState(t, id)
	bad.Phase = engine.Sensory
	mustContain(t, sess.Save(bad), "saving session "+id+": the state does not hold together")
	mustContain(t, sess.Save(fullState(t, "someone-else")), `the state is session "someone-else"`)
	if after := read(t, filepath.Join(home, "sessions", id, primaryName)); !bytes.Equal(before, after) {
		t.Error("a refused save changed the primary")
	}
}

// The engine saves from its own goroutine while the views may too.
func TestConcurrentSaves(t *testing.T) {
	s, _ := openStore(t)
	sess, err := s.Create(newState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			st := fullState(t, id)
			st.Elapsed += time.Duration(i) * time.Second
			if err := sess.Save(st); err != nil {
				t.Error(err)
			}
			if err := sess.Transcribe(st.History[1]); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if _, report, err := s.Load(id); err != nil || report.FromBackup {
		t.Fatalf("%v %+v", err, report)
	}
}
