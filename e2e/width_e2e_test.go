//go:build unix

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/engine"
)

// flat is text with every run of white space one space: what a person
// reads, however lull wrapped it to fit a terminal.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// sizedScreen runs lull with env and args in a tmux terminal cols wide.
func sizedScreen(t *testing.T, cols int, env []string, args ...string) *screen {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (make test installs it)")
	}
	s := &screen{t: t, socket: fmt.Sprintf("lull-test-%d-%d", os.Getpid(), time.Now().UnixNano())}
	command := fmt.Sprintf("env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u LULL_SPEECH_API_KEY -u COLUMNS TERM=xterm-256color %s %s %s; %s; sleep 600",
		strings.Join(env, " "), lullBin, strings.Join(args, " "), exitMarker)
	s.tmux("new-session", "-d", "-s", "lull", "-x", fmt.Sprint(cols), "-y", "50", command)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	return s
}

// fitsTerminal checks that lull's output in s fitted its terminal: no line
// the terminal had to wrap, so no word broken by it, and the words of
// piped (the same command's output with no width) all there, in order,
// when lull left out no column.
func fitsTerminal(t *testing.T, s *screen, cols int, piped string, what string) {
	t.Helper()
	shown := s.tmux("capture-pane", "-p", "-S", "-", "-t", "lull")
	joined := s.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "lull")
	// A word wider than the terminal (a long path) cannot fit: lull
	// gives it a line of its own rather than break it.
	long := 0
	for _, l := range strings.Split(joined, "\n") {
		n := utf8.RuneCountInString(strings.TrimRight(l, " "))
		if n > cols && len(strings.Fields(l)) > 1 {
			t.Errorf("%s at %d columns: a line of %d: %q", what, cols, n, l)
		}
		if n > cols {
			long += (n - 1) / cols
		}
	}
	if strings.Count(shown, "\n") != strings.Count(joined, "\n")+long {
		t.Errorf("%s at %d columns: the terminal wrapped a line lull printed:\n%s", what, cols, joined)
	}
	if piped != "" {
		got, _, _ := strings.Cut(flat(joined), "__EXIT=")
		if strings.TrimSpace(got) != flat(piped) {
			t.Errorf("%s at %d columns says other words than piped:\n%s\n---- piped:\n%s", what, cols, joined, piped)
		}
	}
}

// Issue 26: every table and paragraph lull prints fits the terminal's
// width, breaking no word; piped, nothing is wrapped.
func TestCLIFitsTheTerminal(t *testing.T) {
	t.Parallel()
	// A short home, so that its paths fit even a narrow terminal.
	home, err := os.MkdirTemp("", "l")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = removeAgain(home, 10*time.Second) })
	long := "calm before a talk I have to give tomorrow morning in front of the whole department"
	id := "20260101-120000-wrap"
	spokenSession(t, home, id, func(st *engine.State) { st.Intention = long })
	spokenSession(t, home, "20260102-120000-more", func(st *engine.State) { st.Intention = "sleep" })
	env := []string{"LULL_HOME=" + home}

	// Piped, with no COLUMNS, nothing is wrapped or left out.
	list, _, err := lull(t, home, "1", "sessions", "list")
	if err != nil || !strings.Contains(list, long) || !strings.Contains(list, "PROGRESS") || !strings.Contains(list, "LENGTH") {
		t.Fatalf("sessions list piped (%v):\n%s", err, list)
	}
	show, _, err := lull(t, home, "1", "sessions", "show", id)
	if err != nil || !strings.Contains(show, long) {
		t.Fatalf("sessions show piped (%v):\n%s", err, show)
	}
	help, _, _ := lull(t, home, "1", "sessions", "prune", "--help")

	for _, cols := range []int{80, 60, 44} {
		s := sizedScreen(t, cols, env, "sessions", "list")
		s.waitFor("__EXIT=0", 30*time.Second)
		fitsTerminal(t, s, cols, "", "sessions list")
		if got := flat(s.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "lull")); !strings.Contains(got, long) || !strings.Contains(got, id) {
			t.Errorf("sessions list at %d lost the intention or the id:\n%s", cols, got)
		}

		s = sizedScreen(t, cols, env, "sessions", "show", id)
		s.waitFor("__EXIT=0", 30*time.Second)
		fitsTerminal(t, s, cols, show, "sessions show")

		s = sizedScreen(t, cols, env, "sessions", "prune", "--help")
		s.waitFor("__EXIT=0", 30*time.Second)
		fitsTerminal(t, s, cols, help, "prune --help")

		s = sizedScreen(t, cols, env, "doctor")
		s.waitFor("__EXIT=0", 60*time.Second)
		fitsTerminal(t, s, cols, "", "doctor")

		// The practice, the settings and the reminder fit as well.
		for _, args := range [][]string{{"stats"}, {"config", "show"}, {"remind", "show"}, {"sit", "--help"}} {
			s = sizedScreen(t, cols, append(env, "XDG_CONFIG_HOME="+home), args...)
			s.waitFor("__EXIT=", 60*time.Second)
			fitsTerminal(t, s, cols, "", strings.Join(args, " "))
		}
	}

	// COLUMNS asks for a width when piped.
	out, _, err := lullEnv(t, home, []string{"COLUMNS=50"}, time.Minute, "sessions", "list")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if utf8.RuneCountInString(l) > 50 {
			t.Errorf("COLUMNS=50: a line of %d: %q", utf8.RuneCountInString(l), l)
		}
	}
	if !strings.Contains(flat(out), long) {
		t.Errorf("COLUMNS=50 lost the intention:\n%s", out)
	}
}

// The hint that says how to resume keeps its command whole on one line,
// however narrow the terminal: it is there to be pasted.
func TestResumeHintFitsTheTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := sizedScreen(t, 50, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=20"}, "new", "--no-tui", "--length", "5", "--voice", "none", "--soundscape", "none")
	s.waitFor("skips:", 60*time.Second)
	s.send("Enter") // no mood
	s.waitFor("Phase 1 of 5", 60*time.Second)
	s.send("C-c")
	s.waitFor("__EXIT=", 60*time.Second)
	id, _ := onlySession(t, home)
	fitsTerminal(t, s, 50, "", "the resume hint")
	if shown := s.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "lull"); !strings.Contains(shown, "Resume with: lull resume "+id+"\n") {
		t.Errorf("the resume hint is not whole on its line:\n%s", shown)
	}
}
