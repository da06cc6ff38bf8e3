//go:build unix

package e2e

// What ends or stops lull from outside: signals to the TUI of the real
// binary in a real terminal (tmux), and a --no-tui whose reader goes away.
// Each must leave the session paused and saved, the terminal as it was,
// and one true line saying how to go on.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// A session at 10× speed: a 5-minute session lasts 30 s, time enough to
// signal it mid-session.
func signalEnv(home string) []string {
	return []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=10"}
}

var sessionArgs = []string{"new", "--length", "5", "--voice", "none"}

// SIGHUP (kill -HUP), SIGINT (kill -INT) and SIGTERM (kill) end the TUI as
// q does — paused, saved, the terminal restored — with a line saying where
// it stopped, and the exit code a shell gives for that signal.
func TestTmuxSignalsPauseSaveAndRestoreTheTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGHUP, 129}, {syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(c.sig.String(), func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			s := newScreen(t, signalEnv(home), sessionArgs...)
			s.waitFor("speaking", 30*time.Second)
			if err := syscall.Kill(s.lullPID(), c.sig); err != nil {
				t.Fatal(err)
			}
			s.waitFor(fmt.Sprintf("__EXIT=%d", c.code), 30*time.Second)
			id, _ := onlySession(t, home)
			out := s.lines()
			if !strings.Contains(out, "Paused at ") || !strings.Contains(out, "Resume with: lull resume "+id) {
				t.Errorf("no line says where the session paused and how to resume it:\n%s", out)
			}
			if strings.Contains(out, "failed") || strings.Contains(out, "killed") {
				t.Errorf("a false failure was printed:\n%s", out)
			}
			s.restored()
			if st := load(t, home, id); st.Status != engine.Paused {
				t.Errorf("after %s the session is %s on disk, want paused", c.sig, st.Status)
			}
		})
	}
}

// Closing the terminal — lull run straight by tmux, or as a job of a
// shell — leaves the session paused and saved, and free to resume; resumed,
// it goes on from there and says no sentence twice.
func TestTmuxClosedTerminalPausesAndSaves(t *testing.T) {
	t.Parallel()
	for name, open := range map[string]func(t *testing.T, home string) *screen{
		"alone": func(t *testing.T, home string) *screen {
			return newScreen(t, signalEnv(home), sessionArgs...)
		},
		"in a shell": func(t *testing.T, home string) *screen {
			s := newShell(t)
			s.typeLine(lullCommand(signalEnv(home), sessionArgs...))
			return s
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			s := open(t, home)
			s.waitFor("speaking", 30*time.Second)
			pid := s.lullPID()
			s.tmux("kill-server") // the terminal closes
			waitGone(t, pid, 30*time.Second)

			id, _ := onlySession(t, home)
			paused := load(t, home, id)
			if paused.Status != engine.Paused {
				t.Fatalf("after the terminal closed the session is %s on disk, want paused", paused.Status)
			}
			store, err := sessions.Open(home)
			if err != nil {
				t.Fatal(err)
			}
			if holder, held, err := store.Held(id); err != nil || held {
				t.Errorf("the session is still locked (pid %d, %v)", holder, err)
			}
			checkConsistent(t, home, paused)

			out, errOut, err := lull(t, home, "100", "resume", id, "--no-tui")
			if err != nil {
				t.Fatalf("resuming: %v\n%s%s", err, out, errOut)
			}
			done := load(t, home, id)
			if done.Status != engine.Completed {
				t.Fatalf("resumed, the session ended %s", done.Status)
			}
			seen := map[string]bool{}
			for _, x := range done.Said() {
				if seen[x] {
					t.Errorf("spoken twice: %q", x)
				}
				seen[x] = true
			}
		})
	}
}

// Ctrl-Z pauses and saves the session, hands the terminal back to the
// shell and stops lull; fg brings the screen back in raw mode, still
// paused, and space goes on.
func TestTmuxCtrlZSuspendsAndFgComesBack(t *testing.T) {
	t.Parallel()
	suspendAndFg(t, func(s *screen, pid int) { s.send("C-z") })
}

// SIGTSTP from outside (kill -TSTP) does what Ctrl-Z does: lull pauses,
// restores the terminal and stops; after fg the keys work at once.
func TestTmuxOutsideStopAndFgLeaveKeysWorking(t *testing.T) {
	t.Parallel()
	suspendAndFg(t, func(s *screen, pid int) {
		if err := syscall.Kill(pid, syscall.SIGTSTP); err != nil {
			t.Fatal(err)
		}
	})
}

func suspendAndFg(t *testing.T, stop func(s *screen, pid int)) {
	home := t.TempDir()
	s := newShell(t)
	s.typeLine(lullCommand(signalEnv(home), sessionArgs...))
	s.waitFor("speaking", 30*time.Second)
	pid := s.lullPID()
	stop(s, pid)

	s.waitFor("Stopped", 30*time.Second) // the shell's word for its job
	waitState(t, pid, 'T', 30*time.Second)
	s.mainScreen()
	id, _ := onlySession(t, home)
	if st := load(t, home, id); st.Status != engine.Paused {
		t.Errorf("while lull is stopped the session is %s on disk, want paused", st.Status)
	}

	s.typeLine("fg")
	s.waitFor("Paused while lull was suspended", 30*time.Second)
	if got := s.shown("#{alternate_on}"); got != "1" {
		t.Errorf("after fg the screen is not lull's (alternate_on %s)", got)
	}
	s.send("Space") // one key, no Enter: raw mode again
	s.waitFor("speaking", 30*time.Second)
	s.send("q")
	s.waitFor("$ ", 30*time.Second)
	s.typeLine("echo __EXIT=$?")
	s.waitFor("__EXIT=0", 30*time.Second)
	s.mainScreen()
	if st := load(t, home, id); st.Status != engine.Paused {
		t.Errorf("after q the session is %s on disk, want paused", st.Status)
	}
}

// With no shell to bring lull back (tmux runs it straight), SIGTSTP pauses
// the session and says why lull did not stop; SIGCONT changes nothing, and
// the keys still work.
func TestTmuxOutsideStopWithoutAShellPauses(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := newScreen(t, signalEnv(home), sessionArgs...)
	s.waitFor("speaking", 30*time.Second)
	pid := s.lullPID()
	if err := syscall.Kill(pid, syscall.SIGTSTP); err != nil {
		t.Fatal(err)
	}
	s.waitFor("no shell to return to", 30*time.Second)
	id, _ := onlySession(t, home)
	waitStatus(t, home, id, engine.Paused, 30*time.Second)
	if state := procState(pid); state == 'T' {
		t.Error("lull stopped with no shell to bring it back")
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	s.send("Space")
	s.waitFor("speaking", 30*time.Second)
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
	s.restored()
}

// lull new --no-tui | head -2: when the reader goes away lull pauses and
// saves, says where on stderr with no noise, and exits 141 (128+SIGPIPE).
func TestNoTUIReaderGoneSavesPausedQuietly(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	read, write, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, lullBin, append(sessionArgs, "--no-tui")...)
	cmd.Env = append(hermeticEnv(), signalEnv(home)...)
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = write, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	write.Close()
	lines := bufio.NewReader(read)
	for range 2 { // head -2
		if _, err := lines.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	read.Close()
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 141 {
		t.Errorf("lull ended with %v, want exit code 141\nstderr:\n%s", err, errOut.String())
	}
	id, _ := onlySession(t, home)
	stderr := errOut.String()
	if !strings.Contains(stderr, "Paused at ") || !strings.Contains(stderr, "Resume with: lull resume "+id) {
		t.Errorf("stderr does not say where the session paused:\n%s", stderr)
	}
	for _, noise := range []string{"broken pipe", "panic", "goroutine", "signal", "error"} {
		if strings.Contains(strings.ToLower(stderr), noise) {
			t.Errorf("stderr has %q in it:\n%s", noise, stderr)
		}
	}
	st := load(t, home, id)
	if st.Status != engine.Paused {
		t.Errorf("the session is %s on disk, want paused", st.Status)
	}
	checkConsistent(t, home, st)
}

// checkConsistent checks the saved position agrees with what the history
// says was spoken, and the transcript holds each spoken sentence once.
func checkConsistent(t *testing.T, home string, st engine.State) {
	t.Helper()
	total := 0
	for _, r := range st.Phases {
		total += r.Spoken
	}
	said := st.Said()
	if len(said) != total {
		t.Errorf("the history holds %d sentences, the phases count %d", len(said), total)
	}
	if got := st.Phases[st.Position.Phase].Spoken; st.Position.Sentence != got {
		t.Errorf("the position says sentence %d of %s, the phase spoke %d", st.Position.Sentence, st.Position.Phase, got)
	}
	b, err := os.ReadFile(filepath.Join(home, "sessions", st.ID, "transcript.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range said {
		if n := strings.Count(string(b), x); n != 1 {
			t.Errorf("the transcript has %q %d times", x, n)
		}
	}
}

// waitGone waits until process pid has exited.
func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if state := procState(pid); state == 0 || state == 'Z' {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("lull (pid %d) is still running", pid)
}

// waitState waits until process pid is in state (T: stopped).
func waitState(t *testing.T, pid int, state byte, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if procState(pid) == state {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("lull (pid %d) is in state %q, want %q", pid, procState(pid), state)
}
