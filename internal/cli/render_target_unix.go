//go:build unix

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Flags for opening what lull render writes in place: a link put where a
// device was is refused, and a terminal never becomes lull's own.
const (
	oNofollow = unix.O_NOFOLLOW
	oNoctty   = unix.O_NOCTTY
)

// ownLink refuses a link that someone other than the user made.
func ownLink(info fs.FileInfo, name string) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) == os.Geteuid() {
		return nil
	}
	return fmt.Errorf("it is a symbolic link that belongs to uid %d, not to you (uid %d): lull does not write through it; name the file itself", st.Uid, os.Geteuid())
}

// dupStdout is a copy of standard output's descriptor: a write to a
// closed pipe then fails with an error lull can report, where on fd 1
// itself Go would kill the process with SIGPIPE.
func dupStdout() (*os.File, error) {
	fd, err := unix.FcntlInt(os.Stdout.Fd(), unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "standard output"), nil
}

// openFIFO writes into a named pipe in place. Opening it waits for a
// reader; the user is told when there is none yet, and can stop waiting.
func openFIFO(ctx context.Context, name, path string, info fs.FileInfo, notes io.Writer) (*target, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if errors.Is(err, unix.ENXIO) {
		fprintf(notes, "Waiting for a program to read the named pipe %s…\n", name)
		type opened struct {
			f   *os.File
			err error
		}
		ch := make(chan opened, 1)
		go func() {
			f, err := os.OpenFile(path, os.O_WRONLY|unix.O_NOFOLLOW, 0)
			ch <- opened{f, err}
		}()
		select {
		case o := <-ch:
			f, err = o.f, o.err
		case <-ctx.Done():
			// The open goes on blocking; the process is about to end.
			return nil, &exitError{code: 130, err: errors.New("stopped while waiting for a reader; nothing was rendered")}
		}
	}
	return openedFIFO(name, f, err, info)
}

// lockTemp locks a temporary file for as long as its render writes it:
// a later render's cleanup (removeUnused) leaves a locked one alone.
func lockTemp(f *os.File) error { return flock(f, unix.LOCK_EX) }

// removeUnused removes a temporary file left by a killed render: only
// once it holds the file's lock, so never one a render is writing.
func removeUnused(path string, info fs.FileInfo) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if sameFile(f, info) == nil && flock(f, unix.LOCK_EX|unix.LOCK_NB) == nil {
		os.Remove(path) // while locked: no render can be writing it
	}
}

func flock(f *os.File, how int) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := raw.Control(func(fd uintptr) {
		for {
			if ferr = unix.Flock(int(fd), how); ferr != unix.EINTR {
				return
			}
		}
	}); err != nil {
		return err
	}
	return ferr
}
