//go:build unix

package e2e

// Issue 9, files that are not lull's: the log, the data folder and the
// config get the session files' trust rules — the user's alone, never
// through a link out of their folder.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// quickSession is a short session that logs, run as fast as lull allows.
var quickSession = []string{"new", "--no-tui", "--length", "5", "--seed", "1", "--voice", "none"}

var fast = []string{"LULL_TIME_SCALE=1000"}

// folderAt makes a folder with exactly mode, whatever the umask.
func folderAt(t *testing.T, path string, mode os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// fileAt writes a file with exactly mode, whatever the umask.
func fileAt(t *testing.T, path, text string, mode os.FileMode) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func chown(t *testing.T, path string) {
	t.Helper()
	if err := os.Lchown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
}

// untouched fails unless path still holds text with mode.
func untouched(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if string(b) != text {
		t.Errorf("%s was written: it holds %q", path, b)
	}
	if info.Mode().Perm() != mode {
		t.Errorf("%s was chmod-ed from %v to %v", path, mode, info.Mode().Perm())
	}
}

// A log that is a link, someone else's, or writable by others is never
// appended to or chmod-ed: the session runs without a log, and lull says
// so once with what to do.
func TestLogThatIsNotLullsIsLeftAlone(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		plant func(t *testing.T, log, outside string)
		want  string
	}{
		"link": {func(t *testing.T, log, outside string) {
			if err := os.Symlink(outside, log); err != nil {
				t.Fatal(err)
			}
		}, "it is a symbolic link (to \""},
		"group-writable": {func(t *testing.T, log, outside string) {
			fileAt(t, log, "theirs\n", 0o664)
		}, "it is writable by its group (mode 0664)"},
		"someone else's": {func(t *testing.T, log, outside string) {
			needRoot(t, "chown")
			fileAt(t, log, "theirs\n", 0o644)
			chown(t, log)
		}, "it belongs to uid 65534, not to you"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			home := folderAt(t, filepath.Join(dir, "home"), 0o700)
			log := filepath.Join(home, "lull.log")
			outside := fileAt(t, filepath.Join(dir, "precious"), "precious\n", 0o644)
			c.plant(t, log, outside)
			before, _ := os.ReadFile(log)
			beforeInfo := lstat(t, log)
			out, errOut, err := lullIn(t, dir, home, fast, quickSession...)
			if err != nil {
				t.Fatalf("a log not to be used stopped the session: %v\n%s%s", err, out, errOut)
			}
			t.Log(strings.TrimSpace(errOut))
			mustSay(t, errOut, "lull: not logging to "+log+": "+c.want, "This run goes on without a log.")
			if n := strings.Count(errOut, "not logging"); n != 1 {
				t.Errorf("said %d times", n)
			}
			untouched(t, outside, "precious\n", 0o644)
			after := lstat(t, log)
			if after.Mode() != beforeInfo.Mode() || !os.SameFile(after, beforeInfo) {
				t.Errorf("the log was changed from %v to %v", beforeInfo.Mode(), after.Mode())
			}
			if b, _ := os.ReadFile(log); string(b) != string(before) {
				t.Errorf("the log was written: %q", b)
			}
		})
	}
}

// The log's folder (the XDG state folder) must be the user's alone too.
func TestLogFolderOthersCanWriteIsNotUsed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	state := folderAt(t, filepath.Join(dir, "state", "lull"), 0o777)
	env := append([]string{"HOME=" + dir, "XDG_STATE_HOME=" + filepath.Join(dir, "state"),
		"XDG_DATA_HOME=" + filepath.Join(dir, "data"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config")}, fast...)
	out, errOut, err := lullIn(t, dir, "", env, quickSession...)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	mustSay(t, errOut, "lull: not logging to "+filepath.Join(state, "lull.log")+": its folder: it is writable by its group and everyone (mode 0777)")
	if _, err := os.Lstat(filepath.Join(state, "lull.log")); err == nil {
		t.Error("lull logged into a folder others can write")
	}
}

// A data folder that is not the user's alone is refused before anything
// is made in it; a sessions folder that is a link is never followed.
func TestDataFolderNotTheUsersIsRefused(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		plant func(t *testing.T, home, outside string)
		want  string
	}{
		// The home itself refused: nothing is made in it, not even a log.
		"writable by everyone": {func(t *testing.T, home, outside string) {
			folderAt(t, home, 0o777)
		}, "data folder %home: it is writable by its group and everyone (mode 0777): lull will not trust it; fix with: chmod 700 %home; or set LULL_HOME to a new folder"},
		"shared like /tmp": {func(t *testing.T, home, outside string) {
			folderAt(t, home, 0o777|os.ModeSticky)
		}, "data folder %home: it is a shared folder, writable by everyone (mode 01777): lull keeps its files only in a folder of its own; set LULL_HOME to a new folder: lull makes it private"},
		"someone else's": {func(t *testing.T, home, outside string) {
			needRoot(t, "chown")
			folderAt(t, home, 0o755)
			chown(t, home)
		}, "data folder %home: it belongs to uid 65534, not to you"},
		// The home is the user's but its sessions folder is not: lull's
		// log may be made in the home; nothing else is.
		"sessions a link": {func(t *testing.T, home, outside string) {
			folderAt(t, home, 0o700)
			if err := os.Symlink(outside, filepath.Join(home, "sessions")); err != nil {
				t.Fatal(err)
			}
		}, "the sessions folder %home/sessions is a symbolic link (to \"%outside\"), not a folder: lull does not follow or use it"},
		"sessions someone else's": {func(t *testing.T, home, outside string) {
			needRoot(t, "chown")
			folderAt(t, filepath.Join(home, "sessions"), 0o700)
			chown(t, filepath.Join(home, "sessions"))
		}, "the sessions folder: it belongs to uid 65534, not to you"},
		"sessions writable by its group": {func(t *testing.T, home, outside string) {
			folderAt(t, home, 0o700)
			folderAt(t, filepath.Join(home, "sessions"), 0o770)
		}, "the sessions folder: it is writable by its group (mode 0770)"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			home := filepath.Join(dir, "home")
			outside := folderAt(t, filepath.Join(dir, "outside"), 0o700)
			c.plant(t, home, outside)
			before := listing(t, dir)
			out, errOut, err := lullIn(t, dir, home, fast, quickSession...)
			if err == nil {
				t.Fatalf("a session ran in a data folder not the user's:\n%s%s", out, errOut)
			}
			t.Log(strings.TrimSpace(errOut))
			want := strings.NewReplacer("%home", home, "%outside", outside).Replace(c.want)
			mustSay(t, errOut, want)
			if strings.HasPrefix(name, "sessions") {
				os.Remove(filepath.Join(home, "lull.log"))
			}
			if after := listing(t, dir); after != before {
				t.Errorf("files were made or changed:\nbefore\n%s\nafter\n%s", before, after)
			}
		})
	}
}

// listing is every name under dir with its mode and size.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil {
			fmt.Fprintf(&b, "%s %v %d\n", path, info.Mode(), info.Size())
		}
		return nil
	})
	return b.String()
}

// A config someone else could have written is refused before anything in
// it is used: the program it names is never run.
func TestUntrustedConfigRunsNothing(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		mode os.FileMode
		root bool
		want string
	}{
		"writable by everyone": {0o666, false, "it is writable by its group and everyone (mode 0666)"},
		"someone else's":       {0o644, true, "it belongs to uid 65534, not to you"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if c.root {
				needRoot(t, "chown")
			}
			dir := t.TempDir()
			home := folderAt(t, filepath.Join(dir, "home"), 0o700)
			marker := filepath.Join(dir, "ran")
			script := fileAt(t, filepath.Join(dir, "piper"), "#!/bin/sh\ntouch "+marker+"\nexit 1\n", 0o755)
			model := fileAt(t, filepath.Join(dir, "voice.onnx"), "", 0o644)
			fileAt(t, model+".json", "{}", 0o644) // piper is set up: a trusted config would run it
			config := fileAt(t, filepath.Join(home, "config.yaml"), "piper:\n  binary: "+script+"\n  model: "+model+"\n", c.mode)
			if c.root {
				chown(t, config)
			}
			out, errOut, err := lullIn(t, dir, home, nil, renderArgs(filepath.Join(dir, "s.wav"), "--voice", "piper")...)
			if err == nil {
				t.Errorf("lull ran with an untrusted config:\n%s%s", out, errOut)
			}
			t.Log(strings.TrimSpace(errOut))
			mustSay(t, errOut, "the config "+config+": "+c.want, "nothing in it was used")
			if _, err := os.Stat(marker); err == nil {
				t.Error("the program the untrusted config named was run")
			}
		})
	}
}

// A config that is a link to some other file (here a file of fake
// password hashes) is followed, but its lines are never printed.
func TestConfigLinkedToSecretsIsNotEchoed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	home := folderAt(t, filepath.Join(dir, "home"), 0o700)
	secrets := folderAt(t, filepath.Join(dir, "etc"), 0o755)
	shadow := fileAt(t, filepath.Join(secrets, "shadow"),
		"root:$6$Q3fakesalt$AbCdEfGhIjKlMnOpQrStUvWxYz0123456789:19000:0:99999:7:::\n"+
			"daemon:*:19000:0:99999:7:::\n"+
			"alice:$y$j9T$fakeHashOfAlice$XyZ987654321:19001:0:99999:7:::\n", 0o640)
	if err := os.Symlink(shadow, filepath.Join(home, "config.yaml")); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lullIn(t, dir, home, nil, "sessions", "list")
	if err == nil {
		t.Fatalf("a config that is no config was accepted:\n%s%s", out, errOut)
	}
	t.Log(strings.TrimSpace(errOut))
	for _, secret := range []string{"$6$", "Q3fakesalt", "AbCdEf", "fakeHashOfAlice", "$y$", "19000", "daemon", "root:"} {
		if strings.Contains(errOut, secret) || strings.Contains(string(out), secret) {
			t.Errorf("lull printed %q from the file behind the config", secret)
		}
	}
	mustSay(t, errOut, "config.yaml: line 1: unknown key (not shown) (keys: length, voice,")
}
