//go:build linux

package sessions

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

const other = "20261123-101500-bbbb"

// A data folder lull may not write to: every write is refused with a
// clear error, nothing panics, and what is there still loads.
func TestReadOnlyDataFolder(t *testing.T) {
	if os.Geteuid() != 0 {
		readOnlyByMode(t)
		return
	}
	// Root writes whatever the modes say: a read-only mount stops it.
	home := tmpfs(t, "size=1m")
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	create(t, s, fullState(t, id))
	// Linux refuses to make a mount read-only while a file on it is open
	// for writing, so a Session's Save cannot meet one: that is the
	// injected EROFS of TestDiskFaultsFailTheSave.
	if err := syscall.Mount("tmpfs", home, "tmpfs", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Skipf("remounting the tmpfs read-only was refused: %v", err)
	}
	// Opening it still works: a read-only data folder can be listed and read.
	ro, err := Open(home)
	if err != nil {
		t.Fatalf("Open of a read-only data folder: %v", err)
	}
	if infos, problems := ro.List(); len(infos) != 1 || len(problems) != 0 {
		t.Errorf("listing a read-only data folder: %d sessions, problems %v", len(infos), problems)
	}
	ro.Close()
	_, err = s.Create(newState(t, other))
	mustContain(t, err, "creating session "+other, "read-only file system")
	t.Log("Create: ", err)
	_, err = s.Resume(id)
	mustContain(t, err, "session "+id, "read-only file system")
	t.Log("Resume: ", err)
	if _, _, err := s.Load(id); err != nil {
		t.Errorf("Load of a read-only session: %v", err)
	}
}

// readOnlyByMode is the test for a user that modes do stop.
func readOnlyByMode(t *testing.T) {
	s, home := openStore(t)
	sess, err := s.Create(newState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	for _, dir := range []string{filepath.Join(home, "sessions", id), filepath.Join(home, "sessions")} {
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
	}
	err = sess.Save(fullState(t, id))
	mustContain(t, err, "saving session "+id+": writing session.yaml.tmp: permission denied")
	t.Log("Save: ", err)
	_, err = s.Create(newState(t, other))
	mustContain(t, err, "creating session "+other, "permission denied")
	t.Log("Create: ", err)

	locked := filepath.Join(t.TempDir(), "home")
	if err := os.Mkdir(locked, 0o500); err != nil {
		t.Fatal(err)
	}
	_, err = Open(locked)
	mustContain(t, err, "sessions folder", "permission denied")
	t.Log("Open: ", err)
}
