//go:build unix

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// screen is a tmux session on a private server running one command in an
// 80×24 terminal.
type screen struct {
	t      testing.TB
	socket string
}

// exitMarker prints lull's exit status at the start of a line of its
// own: a lull killed mid-screen leaves the cursor anywhere, and a marker
// the terminal wrapped ("__EXIT=1", "37") is never found.
const exitMarker = `printf '\r\n__EXIT=%d\r\n' $?`

// newScreen starts lull with env (NAME=value pairs) and args.
func newScreen(t testing.TB, env []string, args ...string) *screen {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (make test installs it)")
	}
	s := &screen{t: t, socket: fmt.Sprintf("lull-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	command := fmt.Sprintf("env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u LULL_SPEECH_API_KEY TERM=xterm-256color %s %s %s; %s; sleep 600",
		strings.Join(env, " "), lullBin, strings.Join(args, " "), exitMarker)
	s.tmux("new-session", "-d", "-s", "lull", "-x", "80", "-y", "24", command)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

// newShell starts an interactive bash — a shell with job control, as a
// person's terminal has — for lull to run in as a job: Ctrl-Z and fg.
func newShell(t testing.TB) *screen {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (make test installs it)")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	s := &screen{t: t, socket: fmt.Sprintf("lull-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	// The shell's history goes to a folder of its own, never the user's.
	// The shell writes it as it exits, after kill-server has returned: a
	// t.TempDir removed at that moment failed as "directory not empty".
	dir, err := os.MkdirTemp("", "lull-shell-")
	if err != nil {
		t.Fatal(err)
	}
	history := filepath.Join(dir, "history")
	command := fmt.Sprintf("env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u LULL_SPEECH_API_KEY HISTFILE=%s PS1='$ ' TERM=xterm-256color bash --norc --noprofile -i", history)
	s.tmux("new-session", "-d", "-s", "lull", "-x", "80", "-y", "24", command)
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-L", s.socket, "kill-server").Run()
		_ = removeAgain(dir, 10*time.Second)
	})
	return s
}

// typeLine types a command line into the pane's shell and runs it.
func (s *screen) typeLine(line string) {
	s.tmux("send-keys", "-t", "lull", "-l", line)
	s.send("Enter")
}

// lullCommand is the shell command line that runs lull with env and args.
func lullCommand(env []string, args ...string) string {
	return strings.Join(env, " ") + " " + lullBin + " " + strings.Join(args, " ")
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
	return s.waitUntil(func(pane string) bool { return strings.Contains(pane, text) }, fmt.Sprintf("%q", text), within)
}

// waitUntil waits until the screen holds what shows reports, and returns
// the screen; what names it in the failure.
func (s *screen) waitUntil(shows func(pane string) bool, what string, within time.Duration) string {
	s.t.Helper()
	deadline := time.Now().Add(within)
	var last string
	// Each look starts a tmux client: look often at first, then less,
	// so a wait of many seconds does not cost a process every 50 ms.
	for wait := 10 * time.Millisecond; time.Now().Before(deadline); wait = min(wait*3/2, 200*time.Millisecond) {
		last = s.capture()
		if shows(last) {
			return last
		}
		time.Sleep(wait)
	}
	s.t.Fatalf("the screen never showed %s; last:\n%s", what, last)
	return ""
}

// shown is what tmux says of the pane: format is one of its formats.
func (s *screen) shown(format string) string {
	return strings.TrimSpace(s.tmux("display-message", "-p", "-t", "lull", format))
}

// lines is the pane's text with the lines the terminal wrapped joined.
func (s *screen) lines() string { return s.tmux("capture-pane", "-p", "-J", "-t", "lull") }

// lullPID is the pid of the lull the pane's command or shell started.
func (s *screen) lullPID() int {
	s.t.Helper()
	pane, err := strconv.Atoi(s.shown("#{pane_pid}"))
	if err != nil {
		s.t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if pid := childNamed(s.t, pane, lullBin); pid != 0 {
			return pid
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("no lull process under the pane's pid %d", pane)
	return 0
}

// restored checks the terminal is as lull found it: main screen, cursor
// shown, cooked mode. (At a shell's prompt readline has the terminal in a
// mode of its own: there, check mainScreen.)
func (s *screen) restored() {
	s.t.Helper()
	s.mainScreen()
	if !cookedMode(s.t, s.shown("#{pane_tty}")) {
		s.t.Error("the terminal was left in raw mode")
	}
}

// mainScreen checks lull has left the alternate screen and shows the
// cursor again.
func (s *screen) mainScreen() {
	s.t.Helper()
	if got := s.shown("#{alternate_on} #{cursor_flag}"); got != "0 1" {
		s.t.Errorf("alternate screen and cursor flags %q, want 0 (main screen) 1 (cursor shown)", got)
	}
}

// clock is the elapsed time the session screen shows.
func (s *screen) clock() time.Duration {
	s.t.Helper()
	screen := s.capture()
	m := elapsedClock.FindStringSubmatch(screen)
	if m == nil {
		s.t.Fatalf("no clock on the screen:\n%s", screen)
	}
	var min, sec int
	fmt.Sscanf(m[1], "%d:%d", &min, &sec)
	return time.Duration(min)*time.Minute + time.Duration(sec)*time.Second
}

// waitStatus waits until the session's file says status.
func waitStatus(t *testing.T, home, id string, status engine.Status, within time.Duration) engine.State {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		st := load(t, home, id)
		if st.Status == status {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session is %s on disk, want %s", st.Status, status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var elapsedClock = regexp.MustCompile(`(\d+:\d\d) elapsed`)

// Acceptance 3: pause, quit, list, resume at the same place, complete.
func TestTmuxPauseQuitResume(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=20"}
	s := newScreen(t, env, "new", "--length", "5")
	s.waitFor("speaking", 30*time.Second)
	s.waitFor("Breathing", 30*time.Second) // well into the session

	// Paused, the clock freezes where it was: not on when the engine is
	// still finishing the frame, not back when it has paused and counts
	// only the sentences spoken in full.
	before := s.clock()
	s.send("Space")
	s.waitFor("paused", 30*time.Second)
	frozen := s.clock()
	if frozen < before {
		t.Fatalf("pausing stepped the clock back: %v → %v", before, frozen)
	}
	id, _ := onlySession(t, home)
	waitStatus(t, home, id, engine.Paused, 30*time.Second) // the engine has paused
	// Watch it over several redraws (a paused screen redraws every 2 s);
	// 5 s of real time is 100 s of session time at 20×.
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if now := s.clock(); now != frozen {
			t.Fatalf("the clock moved while paused: %v → %v", frozen, now)
		}
	}

	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
	paused := load(t, home, id)
	if paused.Status != engine.Paused {
		t.Fatalf("after q the session is %s, want paused", paused.Status)
	}
	spokenBefore := len(paused.Said())

	// lull lists it as paused; Enter resumes it.
	home2 := newScreen(t, env)
	home2.waitFor("paused", 30*time.Second)
	home2.send("Enter")
	home2.waitFor("speaking", 30*time.Second)
	home2.waitFor("The session is complete.", 120*time.Second)
	home2.send("q")
	home2.waitFor("__EXIT=0", 30*time.Second)

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
	t.Parallel()
	s := newScreen(t, []string{"LULL_HOME=" + t.TempDir(), "NO_COLOR=1"})
	s.waitFor("No sessions yet", 30*time.Second)
	raw := s.tmux("capture-pane", "-p", "-e", "-t", "lull")
	if colorSGR.MatchString(raw) {
		t.Errorf("colour codes with NO_COLOR set: %q", colorSGR.FindString(raw))
	}
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
}

// colorSGR matches an SGR sequence that sets a foreground or background colour.
var colorSGR = regexp.MustCompile(`\x1b\[([0-9;]*;)?(3[0-8]|4[0-8]|9[0-7]|10[0-7])[;m]`)
