//go:build unix

package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Quitting lull while its voice is still making the first line (a voice
// that never finishes, standing in for a slow server) stops that voice
// with it: no voice process outlives lull, and the session is saved
// paused, with nothing said.
func TestQuitWhileTheFirstLineIsSynthesizedLeavesNoVoiceRunning(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("telling whether the voice still runs needs Linux's /proc")
	}
	dir, home := t.TempDir(), t.TempDir()
	pids := filepath.Join(dir, "pids")
	fileAt(t, filepath.Join(dir, "flite"), "#!/bin/sh\necho $$ >> "+pids+"\nexec sleep 120\n", 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lullBin, "new", "--no-tui", "--length", "5", "--voice", "flite", "--soundscape", "none")
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=1", "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var voice int
	for deadline := time.Now().Add(60 * time.Second); voice == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the voice was never run; lull said:\n%s", out.String())
		}
		b, _ := os.ReadFile(pids)
		if line, _, ok := strings.Cut(string(b), "\n"); ok {
			voice, _ = strconv.Atoi(line)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	var exit *exec.ExitError
	if err := cmd.Wait(); err != nil && !errors.As(err, &exit) {
		t.Fatalf("lull: %v\n%s", err, out.String())
	}
	for deadline := time.Now().Add(30 * time.Second); voiceRuns(voice); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(voice, syscall.SIGKILL)
			t.Fatalf("the voice (pid %d) still runs after lull quit", voice)
		}
	}
	id, _ := onlySession(t, home)
	if st := load(t, home, id); st.Status != engine.Paused || st.Spoken() != 0 {
		t.Errorf("after the quit the session is %s with %d lines said, want paused with none\n%s", st.Status, st.Spoken(), out.String())
	}
}

// voiceRuns reports whether a process runs: it exists and is not a zombie
// waiting to be reaped.
func voiceRuns(pid int) bool {
	state := procState(pid)
	return state != 0 && state != 'Z'
}
