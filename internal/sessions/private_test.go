package sessions

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// A session folder restored or synced readable by others (0755) is made
// private again when it is resumed, as its files are.
func TestResumeMakesTheFolderPrivateAgain(t *testing.T) {
	s, home := openStore(t)
	st := fullState(t, "2026-11-24-0700-pm01")
	st.Status = engine.Paused
	create(t, s, st)
	dir := filepath.Join(home, "sessions", st.ID)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sess, err := s.Resume(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	sess.Close()
	info, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Errorf("after resuming, the folder is %#o, want 0700", perm)
	}
}
