package sessions

import (
	"os"

	"github.com/lull-dev/lull/internal/human"
)

// fsys is what a save does to a session folder. The real one is the
// folder's os.Root; tests put a power cut or a failing disk under it.
type fsys interface {
	create(name string) (file, error) // empty, 0600 whatever the umask
	read(name string) ([]byte, error) // a regular file of at most maxFileSize
	rename(from, to string) error
	link(from, to string) error // to, a new name for from's file; an error where links are refused
	remove(name string) error
	syncFolder() error // makes names created, renamed and removed durable
}

// file is a file open for writing.
type file interface {
	Write(b []byte) (int, error)
	Sync() error
	Close() error
}

// rootFS is a session folder on disk.
type rootFS struct{ root *os.Root }

func (r rootFS) create(name string) (file, error) {
	f, err := r.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fileMode)
	if err != nil {
		return nil, human.Bare(err)
	}
	if err := f.Chmod(fileMode); err != nil {
		f.Close()
		return nil, human.Bare(err)
	}
	return f, nil
}

func (r rootFS) read(name string) ([]byte, error) { return readFile(r.root, name) }
func (r rootFS) rename(from, to string) error     { return human.Bare(r.root.Rename(from, to)) }
func (r rootFS) link(from, to string) error       { return human.Bare(r.root.Link(from, to)) }
func (r rootFS) remove(name string) error         { return human.Bare(r.root.Remove(name)) }
func (r rootFS) syncFolder() error                { return syncFolder(r.root) }
