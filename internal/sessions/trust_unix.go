//go:build unix

package sessions

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

func (e *UntrustedError) Error() string {
	fix := "chmod 600 "
	if e.Mode.IsDir() {
		fix = "chmod 700 "
	}
	if e.Owner != e.User {
		return fmt.Sprintf("it belongs to uid %d, not to you (uid %d): lull will not trust it; if it is yours, take it back with: chown %d %s",
			e.Owner, e.User, e.User, e.Path)
	}
	perm := e.Mode.Perm()
	if e.Mode.IsDir() && e.Mode&fs.ModeSticky != 0 && perm&0o002 != 0 {
		// /tmp and its like: shared on purpose, never to be chmod-ed.
		return fmt.Sprintf("it is a shared folder, writable by everyone (mode %#o): lull keeps its files only in a folder of its own", 0o1000|perm)
	}
	var who string
	switch {
	case perm&0o020 != 0 && perm&0o002 != 0:
		who = "its group and everyone"
	case perm&0o020 != 0:
		who = "its group"
	default:
		who = "everyone"
	}
	return fmt.Sprintf("it is writable by %s (mode %#o): lull will not trust it; fix with: %s%s", who, perm, fix, e.Path)
}

// trust refuses info when someone other than the user could write it.
func trust(info fs.FileInfo, path string) error {
	user := os.Geteuid()
	owner := user
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		owner = int(st.Uid)
	}
	if owner != user || info.Mode().Perm()&0o022 != 0 {
		return &UntrustedError{Path: path, Mode: info.Mode() & (fs.ModeDir | fs.ModeSticky | fs.ModePerm), Owner: owner, User: user}
	}
	return nil
}
