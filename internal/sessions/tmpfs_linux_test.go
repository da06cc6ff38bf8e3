//go:build linux

package sessions

import (
	"os"
	"syscall"
	"testing"
)

// tmpfs mounts a tmpfs of its own for the test, or skips it.
func tmpfs(t *testing.T, options string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, options+",mode=0700"); err != nil {
		t.Skipf("mounting a tmpfs was refused: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmounting %s: %v", dir, err)
		}
	})
	return dir
}
