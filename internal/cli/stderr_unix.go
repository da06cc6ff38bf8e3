//go:build unix

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// redirectStderr points fd 2 at f (the log; nowhere when there is none)
// while the TUI owns the terminal or the sound card opens, and returns how
// to put it back. cgo audio back-ends write to fd 2 directly.
func redirectStderr(f *os.File) (restore func()) {
	if f == nil {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return func() {}
		}
		defer null.Close()
		f = null
	}
	saved, err := unix.Dup(2)
	if err != nil {
		return func() {}
	}
	if err := dupTo(int(f.Fd()), 2); err != nil {
		unix.Close(saved)
		return func() {}
	}
	return func() {
		_ = dupTo(saved, 2)
		unix.Close(saved)
	}
}
