package human

import (
	"errors"
	"io/fs"
	"os"
)

// Bare drops the path from a file's error, for a message that names the
// file itself — as the user gave it, not as a temporary file or a
// folder-relative name would repeat it. errors.Is still sees the cause
// (fs.ErrNotExist, ENOSPC).
func Bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
