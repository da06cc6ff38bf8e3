package sessions

import (
	"fmt"
	"io"
	"os"

	"github.com/lull-dev/lull/internal/human"
)

// Private by default, whatever the umask: modes are set on the open file.
const (
	fileMode   = 0o600
	folderMode = 0o700
)

// readFile reads a regular file of at most maxFileSize through dir.
// O_NONBLOCK keeps a FIFO planted under a session's name from hanging lull.
func readFile(dir *os.Root, name string) ([]byte, error) {
	f, err := dir.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, human.Bare(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, human.Bare(err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("it is not a regular file (%s)", info.Mode().Type())
	}
	b, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, human.Bare(err)
	}
	if len(b) > maxFileSize {
		return nil, tooBig()
	}
	return b, nil
}

// writeFile replaces name's content with b and fsyncs it. Its errors say
// which step failed: after a failed fsync the data may never reach the disk.
func writeFile(dir fsys, name string, b []byte) error {
	f, err := dir.create(name)
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", name, human.Bare(err))
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("syncing %s to disk: %w", name, human.Bare(err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", name, human.Bare(err))
	}
	return nil
}

// syncFolder makes renames and new names in dir durable.
func syncFolder(dir *os.Root) error {
	f, err := dir.Open(".")
	if err != nil {
		return human.Bare(err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return human.Bare(err)
}
