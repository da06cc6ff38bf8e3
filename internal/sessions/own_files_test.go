//go:build unix

package sessions

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// lull's log is opened by a session file's rules: made private when new,
// appended to when it is the user's own regular file, and otherwise left
// exactly as it is — never followed, never chmod-ed, never written.
func TestOpenAppend(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0)
	defer syscall.Umask(old)

	// New, in a folder that is not there yet: both private.
	log := filepath.Join(dir, "state", "lull", "lull.log")
	f, err := OpenAppend(log)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("one\n")
	f.Close()
	for path, want := range map[string]fs.FileMode{log: 0o600, filepath.Dir(log): 0o700} {
		if info, _ := os.Stat(path); info.Mode().Perm() != want {
			t.Errorf("%s has mode %v, want %v", path, info.Mode().Perm(), want)
		}
	}
	// The user's own, readable by others: appended to, and made private.
	os.Chmod(log, 0o644)
	f, err = OpenAppend(log)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("two\n")
	f.Close()
	if b, _ := os.ReadFile(log); string(b) != "one\ntwo\n" {
		t.Errorf("the log holds %q", b)
	}
	if info, _ := os.Stat(log); info.Mode().Perm() != 0o600 {
		t.Errorf("the log has mode %v", info.Mode().Perm())
	}

	target := filepath.Join(dir, "precious")
	if err := os.WriteFile(target, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sibling := filepath.Join(filepath.Dir(log), "sibling")
	if err := os.WriteFile(sibling, []byte("sibling\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		plant func(t *testing.T, path string)
		want  string
	}{
		"a link out of the folder": {func(t *testing.T, path string) { os.Symlink(target, path) }, "it is a symbolic link (to \"" + target},
		"a link inside the folder": {func(t *testing.T, path string) { os.Symlink("sibling", path) }, "it is a symbolic link (to \"sibling\")"},
		"a named pipe":             {func(t *testing.T, path string) { syscall.Mkfifo(path, 0o600) }, "it is not a regular file but a named pipe"},
		"writable by its group": {func(t *testing.T, path string) {
			os.WriteFile(path, []byte("x\n"), 0o620)
		}, "it is writable by its group (mode 0620)"},
		"someone else's": {func(t *testing.T, path string) {
			if os.Geteuid() != 0 {
				t.Skip("chown needs root")
			}
			os.WriteFile(path, []byte("x\n"), 0o644)
			os.Chown(path, 65534, 65534)
		}, "it belongs to uid 65534"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(filepath.Dir(log), "planted.log")
			os.Remove(path)
			c.plant(t, path)
			before := tree(t, dir)
			done := make(chan error, 1)
			go func() {
				f, err := OpenAppend(path)
				if err == nil {
					f.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				mustContain(t, err, c.want)
			case <-time.After(30 * time.Second): // bounds a hang on the pipe
				t.Fatal("OpenAppend hung")
			}
			if after := tree(t, dir); after != before {
				t.Errorf("files were changed:\n%s\n%s", before, after)
			}
		})
	}
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Errorf("the file behind the link holds %q", b)
	}

	// A folder others can write: its files could be swapped.
	open := filepath.Join(dir, "open")
	os.Mkdir(open, 0o777)
	_, err = OpenAppend(filepath.Join(open, "lull.log"))
	mustContain(t, err, "its folder: it is writable by its group and everyone (mode 0777)")
	if _, err := os.Lstat(filepath.Join(open, "lull.log")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a log was made in a folder others can write")
	}
}

// A config may be a link (to a dotfiles folder): what it leads to is
// checked, and so are the folders of both.
func TestReadTrusted(t *testing.T) {
	dir := t.TempDir()
	dotfiles := filepath.Join(dir, "dotfiles")
	os.Mkdir(dotfiles, 0o755)
	file := filepath.Join(dotfiles, "lull.yaml")
	os.WriteFile(file, []byte("length: 20\n"), 0o644)
	config := filepath.Join(dir, "config", "lull")
	os.MkdirAll(config, 0o755)
	link := filepath.Join(config, "config.yaml")
	os.Symlink(file, link)
	if b, err := ReadTrusted(link, 100); err != nil || string(b) != "length: 20\n" {
		t.Fatalf("a link to a dotfiles folder: %q, %v", b, err)
	}
	if _, err := ReadTrusted(filepath.Join(config, "none.yaml"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing config: %v", err)
	}
	_, err := ReadTrusted(link, 5)
	mustContain(t, err, "it is 11 bytes long; lull reads at most 5")

	os.Chmod(file, 0o666)
	_, err = ReadTrusted(link, 100)
	mustContain(t, err, "it is writable by its group and everyone (mode 0666): lull will not trust it; fix with: chmod 600 "+file)
	os.Chmod(file, 0o600)

	os.Chmod(dotfiles, 0o777)
	_, err = ReadTrusted(link, 100)
	mustContain(t, err, "its folder: it is writable by its group and everyone (mode 0777)")
	os.Chmod(dotfiles, 0o755)

	os.Chmod(config, 0o777)
	_, err = ReadTrusted(link, 100)
	mustContain(t, err, "the folder of its link: it is writable by its group and everyone")
	os.Chmod(config, 0o755)

	os.Remove(file)
	_, err = ReadTrusted(link, 100)
	mustContain(t, err, "it is a symbolic link to \""+file+"\", which cannot be followed")
	if errors.Is(err, fs.ErrNotExist) {
		t.Error("a dangling link reads as no config: the defaults would be used without a word")
	}

	fifo := filepath.Join(config, "fifo.yaml")
	syscall.Mkfifo(fifo, 0o600)
	_, err = ReadTrusted(fifo, 100)
	mustContain(t, err, "is not a regular file but a named pipe")
}

// The data folder and its sessions folder must be the user's alone; the
// sessions folder is never a link. One lull makes is private.
func TestOpenRefusesFoldersNotTheUsers(t *testing.T) {
	dir := t.TempDir()
	shared := filepath.Join(dir, "shared")
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o777|fs.ModeSticky)
	_, err := Open(shared)
	mustContain(t, err, "data folder "+shared+": it is a shared folder, writable by everyone (mode 01777)", "set LULL_HOME to a new folder")

	home := filepath.Join(dir, "home")
	os.Mkdir(home, 0o700)
	outside := filepath.Join(dir, "outside")
	os.Mkdir(outside, 0o700)
	os.Symlink(outside, filepath.Join(home, "sessions"))
	_, err = Open(home)
	mustContain(t, err, "the sessions folder "+filepath.Join(home, "sessions")+" is a symbolic link (to \""+outside+"\"), not a folder")
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Error("lull wrote through the link")
	}

	fresh := filepath.Join(dir, "new", "lull")
	s, err := Open(fresh)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, d := range []string{fresh, filepath.Join(fresh, "sessions")} {
		if info, _ := os.Stat(d); info.Mode().Perm() != 0o700 {
			t.Errorf("%s has mode %v", d, info.Mode().Perm())
		}
	}
}
