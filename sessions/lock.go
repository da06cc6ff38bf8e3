package sessions

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// LockedError refuses a session that another lull has open.
type LockedError struct {
	ID  string
	PID int // 0 when the holder had not yet written it
}

func (e *LockedError) Error() string {
	if e.PID == 0 {
		return fmt.Sprintf("session %s is open in another lull; close it there first", e.ID)
	}
	return fmt.Sprintf("session %s is open in another lull (pid %d); close it there first", e.ID, e.PID)
}

// lock takes the session's lock file: one lull per session. flock ties
// the lock to the open file, so a holder that is killed frees it at once
// and a stale file never locks anyone out. The file is never renamed or
// removed while in use: a second lull must find the same file to see
// the lock.
func lock(dir *os.Root, id string) (*os.File, error) {
	f, err := dir.OpenFile(lockName, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil {
		return nil, fmt.Errorf("opening the lock of session %s: %w", id, bare(err))
	}
	if err := flock(f); err != nil {
		defer f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, &LockedError{ID: id, PID: holder(f)}
		}
		return nil, fmt.Errorf("locking session %s: %w", id, err)
	}
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	err = f.Chmod(fileMode)
	if err == nil {
		err = f.Truncate(0)
	}
	if err == nil {
		_, err = f.WriteAt(pid, 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("writing the lock of session %s: %w", id, bare(err))
	}
	return f, nil
}

func flock(f *os.File) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := raw.Control(func(fd uintptr) { ferr = unix.Flock(int(fd), unix.LOCK_EX|unix.LOCK_NB) }); err != nil {
		return err
	}
	return ferr
}

// holder reads the pid the holder wrote. It may have taken the lock a
// moment ago and not written it yet, so look again briefly.
func holder(f *os.File) int {
	for range 5 {
		b, _ := io.ReadAll(io.NewSectionReader(f, 0, 32))
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}
