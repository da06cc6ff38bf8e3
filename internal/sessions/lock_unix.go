//go:build unix

package sessions

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// The lock is an flock on the session's folder itself, not on a file in
// it: a lock file can be removed while its holder runs, and the next lull
// then locked a new one and ran the same session beside it, both writing.
// The folder cannot be taken from under its holder and come back the same
// one. flock ties the lock to the open folder, so a holder that is killed
// frees it at once.

// lockTarget opens what the session's lock is taken on: its folder.
func lockTarget(dir *os.Root) (*os.File, error) { return dir.Open(".") }

// probeTarget is lockTarget, for a look that writes nothing.
func probeTarget(dir *os.Root) (*os.File, error) { return dir.Open(".") }

// tryLock takes f's lock, exclusive or shared, without waiting: errHeld
// when another process holds it.
func tryLock(f *os.File, exclusive bool) error {
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	err := flock(f, how|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return errHeld
	}
	return err
}

// unlock lets go of f's lock.
func unlock(f *os.File) error { return flock(f, unix.LOCK_UN) }

func flock(f *os.File, how int) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := raw.Control(func(fd uintptr) { ferr = unix.Flock(int(fd), how) }); err != nil {
		return err
	}
	return ferr
}
