package sessions

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// On Windows the lock is LockFileEx on the lock file. The reason the unix
// lock is on the folder does not hold here: a file that a process has
// open cannot be removed or renamed (Go opens files without
// FILE_SHARE_DELETE), and neither can the folder it is in, so the lock
// file cannot be taken from under its holder. The system lets go of the
// lock when its holder's handle closes, also when the holder is killed.
//
// Windows' byte-range locks are mandatory: a locked byte cannot be read
// or written through another handle. The lock covers one byte far past
// the end of the file, so the pid at its start stays readable (holder)
// and writable (writePID, through a second handle).
const lockOffsetHigh = 0x7fff_0000

// lockTarget opens what the session's lock is taken on: the lock file,
// made private when it is new.
func lockTarget(dir *os.Root) (*os.File, error) {
	if info, err := dir.Lstat(lockName); err == nil && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file but %s; lull never makes one", lockName, kind(info.Mode()))
	}
	return openRegular(dir, os.O_RDWR|os.O_CREATE, fileMode)
}

// probeTarget opens the lock file to look at its lock, creating nothing:
// with no lock file there is no lock (fs.ErrNotExist).
func probeTarget(dir *os.Root) (*os.File, error) {
	return openRegular(dir, os.O_RDONLY, 0)
}

// openRegular opens the lock file, and keeps it only if it is a regular file.
func openRegular(dir *os.Root, flag int, mode os.FileMode) (*os.File, error) {
	f, err := dir.OpenFile(lockName, flag, mode)
	if err != nil {
		return nil, err
	}
	if err := isRegular(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func isRegular(f *os.File) error {
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file but %s; lull never makes one", lockName, kind(info.Mode()))
	}
	return err
}

// tryLock takes f's lock, exclusive or shared, without waiting: errHeld
// when another process holds it.
func tryLock(f *os.File, exclusive bool) error {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	err := windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, &windows.Overlapped{OffsetHigh: lockOffsetHigh})
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return errHeld
	}
	return err
}

// unlock lets go of f's lock.
func unlock(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &windows.Overlapped{OffsetHigh: lockOffsetHigh})
}
