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

	"github.com/lull-dev/lull/internal/human"
)

// LockedError refuses a session that another lull has open.
type LockedError struct {
	ID  string
	PID int // 0 when the holder could not be told
}

func (e *LockedError) Error() string {
	if e.PID == 0 {
		return fmt.Sprintf("session %s is open in another lull; close it there first", e.ID)
	}
	return fmt.Sprintf("session %s is open in another lull (pid %d); close it there first", e.ID, e.PID)
}

// lock takes session id's lock: one lull per session. The lock is an
// flock on the session's folder itself, not on a file in it: a lock file
// can be removed while its holder runs, and the next lull then locked a
// new one and ran the same session beside it, both writing. The folder
// cannot be taken from under its holder and come back the same one.
// flock ties the lock to the open folder, so a holder that is killed frees
// it at once. The returned file is the folder; closing it lets go.
//
// The lock file beside it only carries the holder's pid, for messages.
func lock(dir *os.Root, id string) (*os.File, error) {
	folder, err := dir.Open(".")
	if err != nil {
		return nil, fmt.Errorf("opening the folder of session %s to lock it: %w", id, human.Bare(err))
	}
	if err := flock(folder, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		defer folder.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, &LockedError{ID: id, PID: holder(dir, folder)}
		}
		return nil, fmt.Errorf("locking session %s: %w", id, err)
	}
	if err := writePID(dir); err != nil {
		folder.Close()
		return nil, fmt.Errorf("writing the lock of session %s: %w", id, err)
	}
	return folder, nil
}

// probe says whether a lull holds the lock of the session in dir, and
// its pid. It takes a shared lock without waiting and lets go at once, so
// it never blocks and never waits on a holder, and it writes nothing. In
// the moment it holds the shared lock a lull opening the session would be
// told it is open elsewhere; that moment is a system call long.
func probe(dir *os.Root, id string) (pid int, held bool, err error) {
	folder, err := dir.Open(".")
	if err != nil {
		return 0, false, fmt.Errorf("the lock of session %s: %w", id, human.Bare(err))
	}
	defer folder.Close()
	err = flock(folder, unix.LOCK_SH|unix.LOCK_NB)
	switch {
	case errors.Is(err, unix.EWOULDBLOCK):
		return holder(dir, folder), true, nil
	case err != nil:
		return 0, false, fmt.Errorf("probing the lock of session %s: %w", id, err)
	}
	if err := flock(folder, unix.LOCK_UN); err != nil {
		return 0, false, fmt.Errorf("probing the lock of session %s: %w", id, err)
	}
	return 0, false, nil
}

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

// writePID puts this process's pid in the lock file, for a lull that is
// refused to name. Only a holder of the lock writes it.
func writePID(dir *os.Root) error {
	if info, err := dir.Lstat(lockName); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file but %s; lull never makes one", lockName, kind(info.Mode()))
	}
	f, err := dir.OpenFile(lockName, os.O_RDWR|os.O_CREATE|unix.O_NONBLOCK, fileMode)
	if err != nil {
		return human.Bare(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file but %s; lull never makes one", lockName, kind(info.Mode()))
	}
	if err == nil {
		err = f.Chmod(fileMode)
	}
	// Written over the last holder's pid, then cut to size: that needs no
	// new block, so a full disk does not keep a session from opening.
	pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
	if err == nil {
		_, err = f.WriteAt(pid, 0)
	}
	if err == nil {
		err = f.Truncate(int64(len(pid)))
	}
	return human.Bare(err)
}

// holder is the pid of the lull that holds the folder's lock: the one
// the system's table of locks gives where there is one, else the one the
// lock file names, 0 when neither says. The holder may have taken the
// lock a moment ago and not written its pid yet, so look again briefly.
func holder(dir *os.Root, folder *os.File) int {
	for range 5 {
		if pid := lockTable(folder); pid > 0 {
			return pid
		}
		if pid := pidFile(dir); pid > 0 {
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}

// pidFile is the pid the lock file names; 0 when it names none.
func pidFile(dir *os.Root) int {
	f, err := dir.OpenFile(lockName, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return 0
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return 0
	}
	b, _ := io.ReadAll(io.LimitReader(f, 32))
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
		return pid
	}
	return 0
}
