//go:build unix

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// inhibitLog is what a fake systemd-inhibit wrote: a "start PID ARGS"
// line when lull started it and an "end PID" line when the command it
// held for (lull's cat) ended.
type inhibitLog struct {
	t    *testing.T
	path string
}

// fakeInhibit puts a systemd-inhibit on a PATH of its own, first, that
// runs its command as the real one does and writes down its lifetime.
func fakeInhibit(t *testing.T) (inhibitLog, string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("systemd-inhibit is Linux's")
	}
	bin := t.TempDir()
	log := inhibitLog{t: t, path: filepath.Join(t.TempDir(), "inhibit.log")}
	script := fmt.Sprintf(`#!/bin/sh
echo "start $$ $*" >> %[1]s
while [ $# -gt 0 ]; do case "$1" in --*) shift ;; *) break ;; esac; done
"$@"
echo "end $$" >> %[1]s
`, log.path)
	if err := os.WriteFile(filepath.Join(bin, "systemd-inhibit"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return log, bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// held is the holders started and not yet ended, by pid, with their
// arguments; started counts every start.
func (l inhibitLog) held() (open map[string]string, started int) {
	b, err := os.ReadFile(l.path)
	if err != nil && !os.IsNotExist(err) {
		l.t.Fatal(err)
	}
	open = map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, " ", 3)
		switch {
		case len(f) == 3 && f[0] == "start":
			open[f[1]] = f[2]
			started++
		case len(f) >= 2 && f[0] == "end":
			delete(open, f[1])
		}
	}
	return open, started
}

// await polls until the log shows want holders held and at least starts
// started, and returns the arguments of one held.
func (l inhibitLog) await(what string, want, starts int) string {
	l.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		open, started := l.held()
		if len(open) == want && started >= starts {
			for _, args := range open {
				return args
			}
			return ""
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(l.path)
			l.t.Fatalf("%s: %d holders held, %d started; want %d held, %d started. log:\n%s", what, len(open), started, want, starts, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// While a session plays lull holds systemd-inhibit; pausing lets go,
// resuming holds again, the end lets go, and a lull killed mid-session
// leaves no holder behind.
func TestKeepsTheMachineAwakeWhilePlaying(t *testing.T) {
	t.Parallel()
	log, path := fakeInhibit(t)
	home := t.TempDir()
	env := []string{"PATH=" + path, "LULL_HOME=" + home, "LULL_TIME_SCALE=20"}
	s := newScreen(t, env, "new", "--length", "5", "--voice", "none", "--guide", "builtin", "--soundscape", "none")
	s.waitFor("elapsed", 30*time.Second)
	args := log.await("playing", 1, 1)
	for _, want := range []string{"--what=sleep:idle", "--who=lull", "--mode=block", "--why="} {
		if !strings.Contains(args, want) {
			t.Errorf("systemd-inhibit ran with %q, want %s", args, want)
		}
	}
	s.send("Space")
	s.waitFor("paused", 30*time.Second)
	log.await("paused", 0, 1)
	s.send("Space")
	log.await("resumed", 1, 2)
	s.waitFor("The session is complete", 60*time.Second)
	log.await("completed", 0, 2)
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)

	// Killed mid-session, lull cannot let go itself: its holder ends with it.
	killed := newScreen(t, env, "new", "--length", "10", "--voice", "none", "--guide", "builtin", "--soundscape", "none")
	killed.waitFor("elapsed", 30*time.Second)
	log.await("playing again", 1, 3)
	if err := syscall.Kill(killed.lullPID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed.waitFor("__EXIT=137", 30*time.Second)
	log.await("killed", 0, 3)
}

// With no systemd-inhibit on PATH, or keep_awake: false, a session plays
// as ever, and nothing on screen or in its output speaks of it.
func TestKeepAwakeAbsentOrOff(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("systemd-inhibit is Linux's")
	}
	bare := t.TempDir() // a PATH with cat and sh, and no systemd-inhibit
	for _, tool := range []string{"cat", "sh"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skip(err)
		}
		if err := os.Symlink(p, filepath.Join(bare, tool)); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	cmd := exec.Command(lullBin, "new", "--no-tui", "--length", "5", "--voice", "none", "--guide", "builtin", "--soundscape", "none")
	cmd.Env = append(hermeticEnv(), "PATH="+bare, "LULL_HOME="+home, "LULL_TIME_SCALE=200")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(strings.ToLower(string(out)), "awake") || strings.Contains(string(out), "inhibit") {
		t.Errorf("without systemd-inhibit: %v\n%s", err, out)
	}

	log, path := fakeInhibit(t)
	config := filepath.Join(home, "config.yaml")
	if err := os.WriteFile(config, []byte("keep_awake: false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(lullBin, "new", "--no-tui", "--length", "5", "--voice", "none", "--guide", "builtin", "--soundscape", "none")
	cmd.Env = append(hermeticEnv(), "PATH="+path, "LULL_HOME="+home, "LULL_TIME_SCALE=200")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("keep_awake: false: %v\n%s", err, out)
	}
	if _, started := log.held(); started != 0 {
		t.Errorf("keep_awake: false, and systemd-inhibit was started %d times", started)
	}
}
