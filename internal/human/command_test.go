package human

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A hint names lull as the user's shell will find it: by name when that
// name leads to this very lull, else by the path it was run by, absolute
// and quoted for the shell.
func TestProgramName(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix paths")
	}
	dir := t.TempDir()
	self := filepath.Join(dir, "bin", "lull")
	other := filepath.Join(dir, "other", "lull")
	spaced := filepath.Join(dir, "my tools", "lull")
	for _, p := range []string{self, other, spaced} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	found := func(path string) func(string) (string, error) {
		return func(string) (string, error) { return path, nil }
	}
	missing := func(string) (string, error) { return "", errors.New("not found") }
	t.Chdir(dir)
	for _, c := range []struct {
		name, argv0 string
		look        func(string) (string, error)
		want        string
	}{
		{"run by name", "lull", missing, "lull"},
		{"run by path, and PATH finds the same lull", self, found(self), "lull"},
		{"run by a relative path that PATH finds too", "bin/lull", found(self), "lull"},
		{"run by path, not on PATH", self, missing, self},
		{"run by a relative path, not on PATH", "./bin/lull", missing, self},
		{"run by path, PATH finds another lull", self, found(other), self},
		{"a path a shell splits", spaced, missing, "'" + spaced + "'"},
	} {
		if got := programName(c.argv0, c.look); got != c.want {
			t.Errorf("%s: programName(%q) = %q, want %q", c.name, c.argv0, got, c.want)
		}
	}
}

func TestCommand(t *testing.T) {
	defer func(p string) { program = p }(program)
	if got := Command("resume 20261124-101500-abcd"); got != "lull resume 20261124-101500-abcd" {
		t.Errorf("by default: %q", got)
	}
	program = "/home/me/src/lull/lull"
	if got := Command("sessions list"); got != "/home/me/src/lull/lull sessions list" {
		t.Errorf("off PATH: %q", got)
	}
	if got := shellQuote("/tmp/it's/lull"); got != `'/tmp/it'\''s/lull'` {
		t.Errorf("quoted: %q", got)
	}
}
