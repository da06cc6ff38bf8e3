//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A hint lull prints names a command the user's shell runs: "lull" when
// the shell finds this lull by that name, else the path it was run by —
// here a folder with a space in it, off PATH, run by a relative path.
func TestHintsNameACommandTheShellRuns(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "my tools")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "lull")
	if err := os.Link(lullBin, bin); err != nil {
		b, err := os.ReadFile(lullBin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	offPath := []string{"PATH=/usr/bin:/bin", "LULL_HOME=" + home}
	for _, kv := range hermeticEnv() {
		if !strings.HasPrefix(kv, "PATH=") {
			offPath = append(offPath, kv)
		}
	}

	hint := func(env []string, dir, argv0 string) string {
		t.Helper()
		cmd := exec.Command(argv0, "sessions", "list")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("lull sessions list: %v\n%s", err, out)
		}
		_, line, ok := strings.Cut(string(out), "Begin one with: ")
		if !ok {
			t.Fatalf("no hint in:\n%s", out)
		}
		return strings.TrimSpace(line)
	}

	// Off PATH, run as ./lull from its folder: the hint is its whole
	// path, quoted for the shell, and works from anywhere.
	got := hint(offPath, dir, "./lull")
	if want := "'" + bin + "' new"; got != want {
		t.Errorf("off PATH the hint is %q, want %q", got, want)
	}
	sh := exec.Command("sh", "-c", got+" --help")
	sh.Dir, sh.Env = t.TempDir(), offPath
	if out, err := sh.CombinedOutput(); err != nil || !strings.Contains(string(out), "Usage:") {
		t.Errorf("the hint %q does not run from the shell: %v\n%s", got, err, out)
	}

	// On PATH, run by its path all the same: the hint says lull.
	onPath := append([]string{"PATH=" + dir + ":/usr/bin:/bin"}, offPath[1:]...)
	if got := hint(onPath, t.TempDir(), bin); got != "lull new" {
		t.Errorf("on PATH the hint is %q, want %q", got, "lull new")
	}
}
