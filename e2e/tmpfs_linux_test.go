//go:build linux

package e2e

import (
	"syscall"
	"testing"
)

// smallTmpfs mounts a tmpfs of its own on a temporary folder.
func smallTmpfs(t *testing.T, options string) string {
	t.Helper()
	needRoot(t, "mounting a tmpfs")
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, options+",mode=0700"); err != nil {
		t.Skipf("mounting a tmpfs was refused: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			_ = syscall.Unmount(dir, syscall.MNT_DETACH) // busy: let it go when it is free
		}
	})
	return dir
}
