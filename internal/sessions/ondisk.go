package sessions

import (
	"errors"
	"io/fs"
	"os"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// OnDisk is what a session's files hold, read back from the disk: what a
// listener is told when a save did not reach it.
type OnDisk struct {
	Folder string
	// Gone says the session's folder is no longer where it was (removed,
	// or another in its place): nothing of the session is kept there.
	Gone bool
	// State is where lull resume would begin: session.yaml, its backup
	// or the transcript, and the transcript's later lines (see reconcile).
	State engine.State
	Err   error // why nothing could be read, when the folder is there
}

// OnDisk reads back what this session's files hold, as resuming it would
// find them, without writing. Call it before Close.
func (s *Session) OnDisk() OnDisk {
	d := OnDisk{Folder: s.folder}
	here, err := s.dir.Stat(".")
	if err != nil {
		d.Err = human.Bare(err)
		return d
	}
	there, err := os.Lstat(s.folder)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !os.SameFile(here, there) {
		d.Gone = true
		return d
	}
	if err != nil {
		d.Err = human.Bare(err)
		return d
	}
	l, err := load(s.dir, s.id, s.folder)
	if err != nil {
		d.Err = err
		return d
	}
	sc, _ := readScan(s.dir, s.folder) // nil when it cannot be read: nothing to reconcile
	d.State, _, _ = reconcile(l.state, sc)
	return d
}
