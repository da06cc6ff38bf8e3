//go:build unix

package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Saves keep the previous one as the backup, leave nothing half-written,
// and keep everything private whatever the umask.
func TestSavesArePrivateAndBackedUp(t *testing.T) {
	for _, mask := range []int{0, 0o022, 0o077} {
		old := syscall.Umask(mask)
		home := filepath.Join(t.TempDir(), "new", "lull")
		s, err := Open(home)
		if err != nil {
			t.Fatal(err)
		}
		first, second := fullState(t, id), fullState(t, id)
		second.Elapsed += time.Second
		second.UpdatedAt = second.UpdatedAt.Add(time.Second)
		saved(t, s, newState(t, id), first, second)
		syscall.Umask(old)

		dir := filepath.Join(home, "sessions", id)
		bak, err := decode(read(t, filepath.Join(dir, backupName)), id)
		if err != nil {
			t.Fatal(err)
		}
		sameState(t, bak, first)
		primary, err := decode(read(t, filepath.Join(dir, primaryName)), id)
		if err != nil {
			t.Fatal(err)
		}
		sameState(t, primary, second)
		if _, err := os.Stat(filepath.Join(dir, tempName)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("umask %#o: %s left behind", mask, tempName)
		}
		for _, f := range []string{primaryName, backupName, transcriptName, lockName} {
			if m := mode(t, filepath.Join(dir, f)); m != 0o600 {
				t.Errorf("umask %#o: %s has mode %v", mask, f, m)
			}
		}
		for _, d := range []string{home, filepath.Dir(dir), dir} {
			if m := mode(t, d); m != 0o700 {
				t.Errorf("umask %#o: %s has mode %v", mask, d, m)
			}
		}
		s.Close()
	}
}
