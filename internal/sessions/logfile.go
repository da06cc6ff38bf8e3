package sessions

import (
	"errors"
	"io/fs"
	"os"
)

// OpenLog opens lull's log for appending (see OpenAppend) after moving it
// aside to path.1 once it has grown past most bytes, so the log never
// fills a disk: one old log is kept, the one before it is gone. A log, or
// an old one, that is not lull's by the trust rules is never moved or
// replaced: the log then grows as it was.
func OpenLog(path string, most int64) (*os.File, error) { return openAppend(path, most) }

// rotate moves name, at path in dir (a folder already checked), to
// name.1 once it is past most bytes.
func rotate(dir *os.Root, name, path string, most int64) {
	info, err := dir.Lstat(name)
	if err != nil || info.Size() <= most || regular(dir, name, info) != nil || trust(info, path) != nil {
		return
	}
	old := name + ".1"
	if prev, err := dir.Lstat(old); err == nil {
		if regular(dir, old, prev) != nil || trust(prev, path+".1") != nil {
			return
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return
	}
	_ = dir.Rename(name, old) // a failed move leaves the log appended to, as before
}
