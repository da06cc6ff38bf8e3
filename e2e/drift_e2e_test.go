//go:build unix

package e2e

// The sound after a sleep session's words, through the real binary: the
// quiet line that says so, lull leaving by itself when it ends, and q or
// Ctrl-C stopping it with the session complete.

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Without a screen: the quiet line once the words end, then lull leaves by
// itself when the sound ends, the session complete.
func TestHeadlessSleepSessionDriftsThenEnds(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	out, errOut, err := lull(t, home, "1000", "new", "--no-tui", "--length", "5", "--voice", "none", "--sleep", "--sleep-after", "2")
	if err != nil {
		t.Fatalf("lull new: %v\n%s\n%s", err, out, errOut)
	}
	line := "Drifting · the sound plays on for 2 min · Ctrl-C stops it"
	drift, done := strings.Index(out, line), strings.Index(out, "Session complete")
	if strings.Count(out, line) != 1 || done < drift {
		t.Errorf("want the drifting line once, then the session complete:\n%s", out)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Completed || st.Summary == nil || st.Summary.Partial {
		t.Errorf("after its sound ended the session is %s (summary %+v)", st.Status, st.Summary)
	}
	if said := st.Said(); len(said) == 0 || strings.Index(out, said[len(said)-1]) > drift {
		t.Errorf("the drifting line comes before the last words:\n%s", out)
	}
}

// Ctrl-C while the sound plays on stops it: exit 0, the session complete.
func TestHeadlessCtrlCStopsTheDrift(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cmd := exec.Command(lullBin, "new", "--no-tui", "--length", "5", "--voice", "none", "--sleep", "--sleep-after", "120")
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=100")
	var out, errOut lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), "Drifting ·") { // the drift line, not a sleep line that begins "Drifting now…"
		if time.Now().After(deadline) {
			t.Fatalf("the words never ended in drifting:\n%s\n%s", out.String(), errOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("Ctrl-C while drifting: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "Session complete") || strings.Contains(errOut.String(), "lull resume") {
		t.Errorf("Ctrl-C while drifting does not end the session complete:\n%s\n%s", out.String(), errOut.String())
	}
	id, _ := onlySession(t, home)
	if st := load(t, home, id); st.Status != engine.Completed {
		t.Errorf("after Ctrl-C while drifting the session is %s, want completed", st.Status)
	}
}

// In the TUI: the quiet line, and q stops the sound and leaves, the
// session complete, not paused.
func TestTmuxQStopsTheDrift(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=100"}, "new", "--length", "5", "--voice", "none", "--sleep", "--sleep-after", "120")
	screen := s.waitFor("Drifting · the sound plays on for 120 min · q stops it", 60*time.Second)
	if strings.Contains(screen, "complete") || strings.Contains(screen, "space") {
		t.Errorf("while drifting the screen says more than it should:\n%s", screen)
	}
	s.send("q")
	s.waitFor("__EXIT=0", 20*time.Second)
	id, _ := onlySession(t, home)
	if st := load(t, home, id); st.Status != engine.Completed {
		t.Errorf("after q while drifting the session is %s, want completed", st.Status)
	}
}

// In the TUI: when the sound ends, lull leaves by itself.
func TestTmuxDriftEndsAndLullLeaves(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=100"}, "new", "--length", "5", "--voice", "none", "--sleep", "--sleep-after", "3")
	s.waitFor("Drifting", 60*time.Second)
	s.waitFor("__EXIT=0", 60*time.Second)
	id, _ := onlySession(t, home)
	if st := load(t, home, id); st.Status != engine.Completed {
		t.Errorf("after its sound ended the session is %s, want completed", st.Status)
	}
}
