package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"lull/engine"
)

// screen is a tmux session on a private server running one command in an
// 80×24 terminal.
type screen struct {
	t      testing.TB
	socket string
}

// newScreen starts lull with env (NAME=value pairs) and args.
func newScreen(t testing.TB, env []string, args ...string) *screen {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (make test installs it)")
	}
	s := &screen{t: t, socket: fmt.Sprintf("lull-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	command := fmt.Sprintf("env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u LULL_SPEECH_API_KEY TERM=xterm-256color %s %s %s; echo __EXIT=$?; sleep 600",
		strings.Join(env, " "), lullBin, strings.Join(args, " "))
	s.tmux("new-session", "-d", "-s", "lull", "-x", "80", "-y", "24", command)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

func (s *screen) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (s *screen) capture() string { return s.tmux("capture-pane", "-p", "-t", "lull") }

func (s *screen) send(keys ...string) {
	s.tmux(append([]string{"send-keys", "-t", "lull"}, keys...)...)
}

// waitFor waits until the screen shows text, and returns the screen.
func (s *screen) waitFor(text string, within time.Duration) string {
	s.t.Helper()
	deadline := time.Now().Add(within)
	var last string
	for time.Now().Before(deadline) {
		last = s.capture()
		if strings.Contains(last, text) {
			return last
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("the screen never showed %q; last:\n%s", text, last)
	return ""
}

var elapsedClock = regexp.MustCompile(`(\d+:\d\d) elapsed`)

// Acceptance 3: pause, quit, list, resume at the same place, complete.
func TestTmuxPauseQuitResume(t *testing.T) {
	home := t.TempDir()
	env := []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=20"}
	s := newScreen(t, env, "new", "--length", "5")
	s.waitFor("speaking", 20*time.Second)
	s.waitFor("Breathing", 20*time.Second) // well into the session

	s.send("Space")
	screen := s.waitFor("paused", 5*time.Second)
	first := elapsedClock.FindStringSubmatch(screen)
	time.Sleep(1500 * time.Millisecond) // 30 s of session time at 20×
	second := elapsedClock.FindStringSubmatch(s.capture())
	if first == nil || second == nil || first[1] != second[1] {
		t.Fatalf("the clock moved while paused: %v → %v", first, second)
	}

	s.send("q")
	s.waitFor("__EXIT=0", 10*time.Second)
	id, _ := onlySession(t, home)
	paused := load(t, home, id)
	if paused.Status != engine.Paused {
		t.Fatalf("after q the session is %s, want paused", paused.Status)
	}
	spokenBefore := len(paused.Said())

	// lull lists it as paused; Enter resumes it.
	home2 := newScreen(t, env)
	home2.waitFor("paused", 10*time.Second)
	home2.send("Enter")
	home2.waitFor("speaking", 10*time.Second)
	home2.waitFor("The session is complete.", 60*time.Second)
	home2.send("q")
	home2.waitFor("__EXIT=0", 10*time.Second)

	done := load(t, home, id)
	if done.Status != engine.Completed {
		t.Fatalf("after resuming, the session is %s", done.Status)
	}
	said := done.Said()
	if len(said) <= spokenBefore {
		t.Fatal("nothing was spoken after resuming")
	}
	// The first sentence after the resume is the one the pause stopped at.
	var next engine.Entry
	n := 0
	for _, h := range done.History {
		if h.Role == engine.RoleGuide {
			if n == spokenBefore {
				next = h
				break
			}
			n++
		}
	}
	if next.Phase != paused.Phase {
		t.Errorf("resumed in %s, paused in %s", next.Phase, paused.Phase)
	}
	inPhase := 0
	for _, h := range done.History {
		if h.Role == engine.RoleGuide && h.Phase == paused.Phase && h.Text != next.Text {
			inPhase++
		} else if h.Text == next.Text {
			break
		}
	}
	if inPhase != paused.Position.Sentence {
		t.Errorf("resumed at sentence %d of %s, paused at %d", inPhase, paused.Phase, paused.Position.Sentence)
	}
	seen := map[string]bool{}
	for _, x := range said {
		if seen[x] {
			t.Errorf("spoken twice: %q", x)
		}
		seen[x] = true
	}
}

// NO_COLOR: the screen carries no colour at all.
func TestTmuxNoColor(t *testing.T) {
	s := newScreen(t, []string{"LULL_HOME=" + t.TempDir(), "NO_COLOR=1"})
	s.waitFor("No sessions yet", 10*time.Second)
	raw := s.tmux("capture-pane", "-p", "-e", "-t", "lull")
	if colorSGR.MatchString(raw) {
		t.Errorf("colour codes with NO_COLOR set: %q", colorSGR.FindString(raw))
	}
	s.send("q")
	s.waitFor("__EXIT=0", 5*time.Second)
}

// colorSGR matches an SGR sequence that sets a foreground or background colour.
var colorSGR = regexp.MustCompile(`\x1b\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]`)
