//go:build unix

package audio

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether a process of that id runs (or may: a
// process of another user answers EPERM).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedByUs reports whether path is a folder of this user's, not a link.
func ownedByUs(path string) bool {
	info, err := os.Lstat(path)
	if err != nil || !info.IsDir() {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
