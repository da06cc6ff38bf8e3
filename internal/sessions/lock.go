package sessions

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

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

// lock takes session id's lock: one lull per session. Where it is taken
// is the system's to say (lock_unix.go, lock_windows.go): something that
// cannot be taken from under its holder and come back the same one, and
// that is let go at once when the holder is killed. The returned file is
// what was locked; closing it lets go.
//
// The lock file carries the holder's pid, for messages.
func lock(dir *os.Root, id string) (*os.File, error) {
	held, err := lockTarget(dir)
	if err != nil {
		return nil, fmt.Errorf("opening the lock of session %s: %w", id, human.Bare(err))
	}
	err = tryLock(held, true)
	if errors.Is(err, errHeld) && holder(dir, held) == os.Getpid() {
		err = awaitOwnLock(held)
	}
	if err != nil {
		defer held.Close()
		if errors.Is(err, errHeld) {
			return nil, &LockedError{ID: id, PID: holder(dir, held)}
		}
		return nil, fmt.Errorf("locking session %s: %w", id, err)
	}
	if err := writePID(dir); err != nil {
		held.Close()
		return nil, fmt.Errorf("writing the lock of session %s: %w", id, err)
	}
	return held, nil
}

// ownLockWait bounds how long lock waits for a lock this very process
// last took. A session just closed here can still be held for a moment:
// a process this one forked while the lock was open (a voice, a helper)
// holds a copy of it until it executes its program, and flock belongs to
// the open file, not the descriptor. Reopening at once then said "open in
// another lull" with lull's own pid. Another process's lock is refused at
// once.
const ownLockWait = 2 * time.Second

// awaitOwnLock retries the lock for up to ownLockWait.
func awaitOwnLock(f *os.File) error {
	deadline := time.Now().Add(ownLockWait)
	for {
		time.Sleep(5 * time.Millisecond)
		err := tryLock(f, true)
		if !errors.Is(err, errHeld) || time.Now().After(deadline) {
			return err
		}
	}
}

// errHeld is tryLock's answer when another process holds the lock.
var errHeld = errors.New("the lock is held")

// probe says whether a lull holds the lock of the session in dir, and
// its pid. It takes a shared lock without waiting and lets go at once, so
// it never blocks and never waits on a holder, and it writes nothing. In
// the moment it holds the shared lock a lull opening the session would be
// told it is open elsewhere; that moment is a system call long.
func probe(dir *os.Root, id string) (pid int, held bool, err error) {
	f, err := probeTarget(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil // no lock file: never locked (Windows locks the file)
	}
	if err != nil {
		return 0, false, fmt.Errorf("the lock of session %s: %w", id, human.Bare(err))
	}
	defer f.Close()
	err = tryLock(f, false)
	switch {
	case errors.Is(err, errHeld):
		return holder(dir, f), true, nil
	case err != nil:
		return 0, false, fmt.Errorf("probing the lock of session %s: %w", id, err)
	}
	if err := unlock(f); err != nil {
		return 0, false, fmt.Errorf("probing the lock of session %s: %w", id, err)
	}
	return 0, false, nil
}

// writePID puts this process's pid in the lock file, for a lull that is
// refused to name. Only a holder of the lock writes it.
func writePID(dir *os.Root) error {
	if info, err := dir.Lstat(lockName); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file but %s; lull never makes one", lockName, kind(info.Mode()))
	}
	f, err := dir.OpenFile(lockName, os.O_RDWR|os.O_CREATE|oNonblock, fileMode)
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
	f, err := dir.OpenFile(lockName, os.O_RDONLY|oNonblock, 0)
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
