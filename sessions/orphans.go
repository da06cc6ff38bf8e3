package sessions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// Held reports whether a lull has session id open: its lock is held, by
// the process pid (0 when the holder had not yet written it). A session
// whose status says running but whose lock is free was left by a lull that
// died.
//
// Held only looks. It takes a shared lock without waiting and lets go at
// once, so it never blocks and never waits on a holder; it never creates the
// lock file nor writes to it. In the moment it holds the shared lock a lull
// opening the session would be told it is open elsewhere, as with any other
// lull that has it; that moment is a system call long.
func (s *Store) Held(id string) (pid int, held bool, err error) {
	dir, err := s.openFolder(id)
	if err != nil {
		return 0, false, err
	}
	defer dir.Close()
	f, err := dir.OpenFile(lockName, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil // never opened by any lull: nobody holds it
	}
	if err != nil {
		return 0, false, fmt.Errorf("the lock of session %s: %w", id, bare(err))
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return 0, false, fmt.Errorf("the lock of session %s is not a regular file", id)
	}
	raw, err := f.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var ferr error
	if err := raw.Control(func(fd uintptr) {
		ferr = unix.Flock(int(fd), unix.LOCK_SH|unix.LOCK_NB)
		if ferr == nil {
			ferr = unix.Flock(int(fd), unix.LOCK_UN)
		}
	}); err != nil {
		return 0, false, err
	}
	switch {
	case errors.Is(ferr, unix.EWOULDBLOCK):
		return holder(f), true, nil
	case ferr != nil:
		return 0, false, fmt.Errorf("probing the lock of session %s: %w", id, ferr)
	}
	return 0, false, nil
}
