package app

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/sessions"
)

// UnsavedError is a session whose last checkpoint did not reach the disk:
// it went on in memory, and its files hold less. Its message says so
// plainly, what the files hold, and how to go on once the cause is fixed.
type UnsavedError struct {
	ID   string
	Err  error           // why the last checkpoint failed
	Disk sessions.OnDisk // what the files hold, read back
}

func (e *UnsavedError) Error() string {
	var b strings.Builder
	// A failed checkpoint can join two errors (transcript, session.yaml): one line.
	fmt.Fprintf(&b, "session %s was not saved: %s.", e.ID, strings.ReplaceAll(e.Err.Error(), "\n", "; "))
	switch d := e.Disk; {
	case d.Gone:
		fmt.Fprintf(&b, "\nIts folder %s is gone: nothing of it was kept.", d.Folder)
	case d.Err != nil:
		fmt.Fprintf(&b, "\nWhat its files hold could not be read back either: %v.", d.Err)
	case d.State.Status.Finished():
		fmt.Fprintf(&b, "\nOn disk it is %s, but its transcript may lack its last lines; they are kept in %s.", d.State.Status, d.Folder)
	default:
		st := d.State
		fmt.Fprintf(&b, "\nOn disk it is still at %s, %s of %s.", st.Phase.Title(), human.Clock(st.Elapsed), human.Clock(st.Length))
		fmt.Fprintf(&b, "\n%s, then resume it with:\n  %s", remedy(e.Err), human.Command("resume "+e.ID))
	}
	return b.String()
}

func (e *UnsavedError) Unwrap() error { return e.Err }

// remedy is what to fix before resuming, as far as the error tells.
func remedy(err error) string {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return "Free some space on its disk"
	case errors.Is(err, syscall.EDQUOT):
		return "Free some space (your disk quota is full)"
	case errors.Is(err, syscall.EROFS):
		return "Make its disk writable again"
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return "Give yourself write access to its folder again"
	default:
		return "Once the cause is fixed"
	}
}

// Unsaved is nil when the session's last checkpoint reached the disk;
// otherwise an *UnsavedError that reads back what the files hold. It
// reads the disk: call it off a screen's update loop. After Close it is
// what Close found.
func (r *Run) Unsaved() error {
	r.unsavedMu.Lock()
	defer r.unsavedMu.Unlock()
	if r.closedUnsaved != nil {
		return *r.closedUnsaved
	}
	return r.unsaved()
}

// unsaved reads back the truth; callers hold unsavedMu.
func (r *Run) unsaved() error {
	err := r.LastSave()
	if err == nil {
		return nil
	}
	return &UnsavedError{ID: r.ID(), Err: err, Disk: r.sess.OnDisk()}
}
