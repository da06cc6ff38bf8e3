package cli

import (
	"context"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// Windows has neither flag: a device (NUL) has no link to follow, and no
// open makes a console lull's controlling terminal.
const (
	oNofollow = 0
	oNoctty   = 0
)

// ownLink lets the user's links through and checks no owner: on Windows
// making a symbolic link takes a privilege (an administrator's, or
// developer mode), and there is no folder shared by every user, like
// /tmp, where someone else could leave one for lull to write through
// (each user's temporary folder is their own).
func ownLink(fs.FileInfo, string) error { return nil }

// dupStdout is a copy of standard output's handle, so that finishing the
// render closes the copy and never standard output itself.
func dupStdout() (*os.File, error) {
	self := windows.CurrentProcess()
	var h windows.Handle
	if err := windows.DuplicateHandle(self, windows.Handle(os.Stdout.Fd()), self, &h, 0, false, windows.DUPLICATE_SAME_ACCESS); err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(h), "standard output"), nil
}

// openFIFO writes into a named pipe (\\.\pipe\name) in place. Its server
// must be there already: a Windows pipe is not waited for as a unix FIFO
// is, its open fails at once when no one serves it.
func openFIFO(_ context.Context, name, path string, info fs.FileInfo, _ io.Writer) (*target, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	return openedFIFO(name, f, err, info)
}

// lockTemp needs no lock on Windows: a file that a render has open
// cannot be removed (Go opens files without FILE_SHARE_DELETE), so
// removeUnused fails on it by itself.
func lockTemp(*os.File) error { return nil }

// removeUnused removes a temporary file left by a killed render. One
// that a render is writing is open, and Windows refuses to remove it.
func removeUnused(path string, _ fs.FileInfo) { _ = os.Remove(path) }
