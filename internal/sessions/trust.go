package sessions

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/lull-dev/lull/internal/human"
)

// lull reads only what it could have written itself: a regular file, not
// a link, writable by nobody but its owner, and that owner the user
// running lull. Anything else may have been put there by someone else,
// and is refused with what to do about it.

// UntrustedError refuses a file or folder that someone other than the
// user could have written.
// What is checked is the system's to say: on unix the owner's uid and the
// mode (trust_unix.go), on Windows the owner's account and who else the
// access list lets write (trust_windows.go).
type UntrustedError struct {
	Path  string      // the file or folder, absolute
	Mode  fs.FileMode // its permissions (unix)
	Owner int         // its owner's uid (unix)
	User  int         // the uid lull runs as (unix)

	// On Windows: the accounts, as DOMAIN\name (or a SID where the name
	// cannot be found).
	OwnerName string // its owner, when not the user
	UserName  string // the user lull runs as
	Writer    string // another account the access list lets write it
}

// CheckTrusted refuses info, the file or folder at path, when someone
// other than the user could write it: the one rule for every file lull
// reads or writes as its own.
func CheckTrusted(info fs.FileInfo, path string) error { return trust(info, path) }

// CheckFolder refuses a folder someone other than the user could write
// in: they could swap what lull keeps there. A link to the folder is
// followed (the user may keep lull's data elsewhere); what it leads to is
// what is checked.
func CheckFolder(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return human.Bare(err)
	}
	if !info.IsDir() {
		return fmt.Errorf("it is not a folder but %s", kind(info.Mode()))
	}
	return trust(info, path)
}

// OpenAppend opens the file at path for appending, creating it private
// (0600) when it is not there, with its folder if need be: lull's log. It
// gets a session file's rules: its folder and the file must be the user's
// alone, the file a regular file, and a link is never followed, not even
// one that stays in the folder.
func OpenAppend(path string) (*os.File, error) { return openAppend(path, 0) }

// openAppend is OpenAppend, after moving a file past most bytes aside
// (see OpenLog); 0 or less moves nothing.
func openAppend(path string, most int64) (*os.File, error) {
	folder, name := filepath.Dir(path), filepath.Base(path)
	if err := os.MkdirAll(folder, folderMode); err != nil {
		return nil, fmt.Errorf("its folder: %w", human.Bare(err))
	}
	dir, err := os.OpenRoot(folder)
	if err != nil {
		return nil, fmt.Errorf("its folder: %w", human.Bare(err))
	}
	defer dir.Close()
	if err := checkFolder(dir, folder); err != nil {
		return nil, fmt.Errorf("its folder: %w", err)
	}
	if most > 0 {
		rotate(dir, name, path, most)
	}
	return appendTo(dir, name, path, os.O_WRONLY)
}

// appendTo opens name in dir for appending (access: os.O_WRONLY or
// os.O_RDWR), the log and a transcript alike; path is its path, for
// messages. A file that is not there is created private (0600) here and
// now, never through a link; one that is must be a regular file the user
// alone can write, is opened without following a link or waiting on a
// FIFO, must be the file that was checked, and is made private.
func appendTo(dir *os.Root, name, path string, access int) (*os.File, error) {
	info, err := dir.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		f, err := dir.OpenFile(name, access|os.O_APPEND|os.O_CREATE|os.O_EXCL, fileMode)
		if err != nil {
			return nil, human.Bare(err)
		}
		if err := f.Chmod(fileMode); err != nil { // whatever the umask
			f.Close()
			return nil, human.Bare(err)
		}
		return f, nil
	}
	if err != nil {
		return nil, human.Bare(err)
	}
	if err := regular(dir, name, info); err != nil {
		return nil, err
	}
	if err := trust(info, path); err != nil {
		return nil, err
	}
	f, err := dir.OpenFile(name, access|os.O_APPEND|oNofollow|oNonblock, 0)
	if err != nil {
		return nil, human.Bare(err)
	}
	if opened, err := f.Stat(); err != nil || !os.SameFile(info, opened) {
		f.Close()
		return nil, errors.New("it was replaced while lull opened it")
	}
	if info.Mode().Perm() != fileMode {
		// Private like everything lull keeps.
		if err := f.Chmod(fileMode); err != nil {
			f.Close()
			return nil, human.Bare(err)
		}
	}
	return f, nil
}

// ReadTrusted reads a file the user keeps for lull (the config), of at
// most limit bytes. A link is followed, since a config kept in a dotfiles
// folder is one, but what it leads to must be a regular file the user
// alone can write, in a folder the user alone can write, and so must the
// folder the link is in. A file that is not there is fs.ErrNotExist.
func ReadTrusted(path string, limit int64) ([]byte, error) {
	link, err := os.Lstat(path)
	if err != nil {
		return nil, human.Bare(err)
	}
	target := path
	if link.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			to, _ := os.Readlink(path)
			return nil, fmt.Errorf("it is a symbolic link to %q, which cannot be followed (%v)", clip([]byte(to), 80), human.Bare(err))
		}
		if err := CheckFolder(filepath.Dir(path)); err != nil {
			return nil, fmt.Errorf("the folder of its link: %w", err)
		}
	}
	if err := CheckFolder(filepath.Dir(target)); err != nil {
		return nil, fmt.Errorf("its folder: %w", err)
	}
	f, err := os.OpenFile(target, os.O_RDONLY|oNofollow|oNonblock, 0)
	if err != nil {
		return nil, human.Bare(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, human.Bare(err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file but %s", target, kind(info.Mode()))
	}
	if err := trust(info, target); err != nil {
		return nil, err
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("it is %d bytes long; lull reads at most %d", info.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, human.Bare(err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("it grew past %d bytes while lull read it", limit)
	}
	return b, nil
}

// openTrusted opens name in dir for reading if it is a regular file the
// user alone can write. The name is looked at before it is opened, so a
// named pipe is never opened and a link never followed, even one that
// stays inside the folder; the open file is then checked to be the same.
// folder is dir's absolute path, for messages.
func openTrusted(dir *os.Root, name, folder string) (*os.File, fs.FileInfo, error) {
	info, err := dir.Lstat(name)
	if err != nil {
		return nil, nil, human.Bare(err)
	}
	if err := regular(dir, name, info); err != nil {
		return nil, nil, err
	}
	if err := trust(info, filepath.Join(folder, name)); err != nil {
		return nil, nil, err
	}
	f, err := dir.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, nil, human.Bare(err)
	}
	opened, err := f.Stat()
	if err == nil && !os.SameFile(info, opened) {
		err = errors.New("it was replaced while lull opened it")
	}
	if err != nil {
		f.Close()
		return nil, nil, human.Bare(err)
	}
	return f, opened, nil
}

// regular refuses anything but a regular file, naming what it is.
func regular(dir *os.Root, name string, info fs.FileInfo) error {
	m := info.Mode()
	if m&fs.ModeSymlink != 0 {
		if to, err := dir.Readlink(name); err == nil {
			return fmt.Errorf("it is a symbolic link (to %q); lull never makes one and does not follow it", clip([]byte(to), 80))
		}
	}
	if !m.IsRegular() {
		return fmt.Errorf("it is not a regular file but %s; lull never makes one", kind(m))
	}
	return nil
}

// readTrusted reads a trusted regular file of at most maxFileSize bytes
// into buf, which is grown to fit when it is too small (nil will do).
func readTrusted(dir *os.Root, name, folder string, buf []byte) ([]byte, error) {
	f, info, err := openTrusted(dir, name, folder)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > maxFileSize {
		return nil, tooBig()
	}
	// One more byte than its size, to see it did not grow past the cap.
	buf = slices.Grow(buf[:0], int(info.Size())+1)[:int(info.Size())+1]
	n, err := io.ReadFull(f, buf)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return buf[:n], nil // shorter than it was: what is there is checked anyway
	case err != nil:
		return nil, human.Bare(err)
	}
	rest, err := io.ReadAll(io.LimitReader(f, maxFileSize+1-int64(n)))
	if err != nil {
		return nil, human.Bare(err)
	}
	if n+len(rest) > maxFileSize {
		return nil, tooBig()
	}
	return append(buf, rest...), nil
}

// checkFolder refuses a session folder someone else could write in: they
// could swap its files.
func checkFolder(dir *os.Root, folder string) error {
	info, err := dir.Stat(".")
	if err != nil {
		return human.Bare(err)
	}
	return trust(info, folder)
}
