//go:build unix

package e2e

// End-to-end tests of the real binary: headless runs, and the TUI in tmux.

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
	"github.com/lull-dev/lull/internal/sessions"
)

var lullBin string

// e2eParallel is how many tests run at once (every one runs in parallel),
// unless -parallel says: they mostly wait on the binary they drive (a
// terminal, a clock), and at the default of one per core the package left
// a core idle 40-70 % of its run.
const e2eParallel = 4

func TestMain(m *testing.M) {
	flag.Parse()
	asked := false
	flag.Visit(func(f *flag.Flag) { asked = asked || f.Name == "test.parallel" })
	if !asked {
		_ = flag.Set("test.parallel", strconv.Itoa(max(e2eParallel, runtime.GOMAXPROCS(0))))
	}
	dir, err := os.MkdirTemp("", "lull-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lullBin = filepath.Join(dir, "lull")
	// Built as the releases are, without cgo and with -trimpath: the binary
	// people install (install_test.go's go install shares its compiled
	// dependencies).
	build := exec.Command("go", "build", "-trimpath", "-o", lullBin, "github.com/lull-dev/lull/cmd/lull")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building lull:", err)
		os.Exit(1)
	}
	// As installed: the shell finds lull by name, so its hints say "lull"
	// (hints_e2e_test.go runs it off PATH too).
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// lull runs the binary with a private home and returns its output.
func lull(t *testing.T, home string, scale string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lullBin, args...)
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE="+scale)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// hermeticEnv is this environment without what would send a test's words
// to a server: an OpenAI key in a developer's shell must not make the
// auto voice call OpenAI. A COLUMNS exported by the shell goes too: piped,
// lull's output is then as wide as it is.
func hermeticEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENAI_") && !strings.HasPrefix(kv, "LULL_") && !strings.HasPrefix(kv, "COLUMNS=") {
			env = append(env, kv)
		}
	}
	return env
}

// removeAgain removes dir, again until it is gone or the deadline passes:
// a process still writing into it (lull saving, a shell writing its
// history as it exits) makes RemoveAll fail with "directory not empty".
func removeAgain(dir string, within time.Duration) error {
	err := os.RemoveAll(dir)
	for deadline := time.Now().Add(within); err != nil && time.Now().Before(deadline); err = os.RemoveAll(dir) {
		time.Sleep(10 * time.Millisecond) // a poll with a deadline: nothing signals the writer's end
	}
	return err
}

func onlySession(t *testing.T, home string) (string, string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("%d session folders, want 1", len(entries))
	}
	id := entries[0].Name()
	return id, filepath.Join(home, "sessions", id)
}

func load(t *testing.T, home, id string) engine.State {
	t.Helper()
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// headlessSession runs a 10-minute session 100× faster and returns what was said.
func headlessSession(t *testing.T, seed int) (engine.State, string) {
	t.Helper()
	home := t.TempDir()
	out, errOut, err := lull(t, home, "100", "new", "--no-tui", "--length", "10", "--seed", fmt.Sprint(seed), "--voice", "none")
	if err != nil {
		t.Fatalf("lull new: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	id, dir := onlySession(t, home)
	st := load(t, home, id)

	// The folder: primary, backup, transcript; nothing half-written; private.
	for _, f := range []string{"session.yaml", "session.yaml.bak", "transcript.md"} {
		info, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", f, info.Mode().Perm())
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(matches) > 0 {
		t.Errorf("left behind: %v", matches)
	}
	// lull owns sessions/ and below; the folder LULL_HOME names is the user's.
	for _, d := range []string{filepath.Join(home, "sessions"), dir} {
		if info, _ := os.Stat(d); info.Mode().Perm() != 0o700 {
			t.Errorf("%s has mode %v, want 0700", d, info.Mode().Perm())
		}
	}
	// Every sentence was printed, each phase named as it began.
	for _, p := range engine.Phases {
		if !strings.Contains(out, p.Title()) {
			t.Errorf("no line names the %s phase", p)
		}
	}
	for _, s := range st.Said() {
		if !strings.Contains(out, s) {
			t.Errorf("spoken but not printed: %q", s)
			break
		}
	}
	return st, out
}

// Acceptance 2: a whole offline session, headless, in well under a minute.
func TestHeadlessSessionCompletes(t *testing.T) {
	t.Parallel()
	st, _ := headlessSession(t, 7)
	if st.Status != engine.Completed {
		t.Fatalf("status %s", st.Status)
	}
	for i, r := range st.Phases {
		if r.Status != engine.PhaseCompleted {
			t.Errorf("%s is %s", r.Phase, r.Status)
		}
		if r.Spoken < 3 {
			t.Errorf("%s spoke %d sentences", r.Phase, r.Spoken)
		}
		if i > 0 && r.StartedAt.Before(st.Phases[i-1].CompletedAt) {
			t.Errorf("%s began before %s completed", r.Phase, st.Phases[i-1].Phase)
		}
	}
	said := st.Said()
	seen := map[string]bool{}
	for _, s := range said {
		if seen[s] {
			t.Errorf("repeated: %q", s)
		}
		seen[s] = true
	}
	// No call to open the eyes before resolution; the grounding complete
	// and in order within it.
	eyes := regexp.MustCompile(`(?i)open your eyes|eyes open|let your eyes open|eyes to open`)
	for _, h := range st.History {
		if h.Role == engine.RoleGuide && h.Phase != engine.Resolution && eyes.MatchString(h.Text) {
			t.Errorf("in %s: %q", h.Phase, h.Text)
		}
	}
	// The close: the eyes open only in its lead, and the last words are
	// its one farewell.
	g, err := prompts.BuiltinGuide()
	if err != nil {
		t.Fatal(err)
	}
	var resolution []string
	for _, h := range st.History {
		if h.Role == engine.RoleGuide && h.Phase == engine.Resolution {
			resolution = append(resolution, h.Text)
		}
	}
	step := map[string][]string{}
	for _, st := range g.Skeleton[engine.Resolution].Lead {
		step[st.Name] = st.Say
	}
	// With no intention, nothing stands between the eyes and the farewell.
	if n := len(resolution); n < 2 || !contains(step["farewell"], resolution[n-1]) || !contains(step["eyes"], resolution[n-2]) {
		t.Errorf("the session does not close with the eyes and the farewell: %q", resolution)
	}
	off := st.Elapsed - st.Length
	if off < -st.Length/20 || off > st.Length/20 {
		t.Errorf("a %v session took %v of session time", st.Length, st.Elapsed)
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// Acceptance 2, continued: same seed, same words; another seed, mostly others.
// renderedSession renders a text-only session to a file: its pacing is the
// render's own exact clock, so a seed gives the same session whatever the
// machine's load (a real-time run re-budgets by a clock a busy machine
// bends).
func renderedSession(t *testing.T, seed int) engine.State {
	t.Helper()
	home := t.TempDir()
	out, errOut, err := lull(t, home, "1", "render", "--length", "10", "--seed", fmt.Sprint(seed),
		"--voice", "none", "--soundscape", "none", "--out", filepath.Join(home, "s.wav"))
	if err != nil {
		t.Fatalf("lull render: %v\n%s\n%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	return load(t, home, id)
}

func TestSeedsReproduceAndDiffer(t *testing.T) {
	t.Parallel()
	a := renderedSession(t, 7)
	b := renderedSession(t, 7)
	c := renderedSession(t, 8)
	if strings.Join(a.Said(), "\n") != strings.Join(b.Said(), "\n") {
		t.Error("seed 7 twice gave different sessions")
	}
	inA := map[string]bool{}
	for _, s := range a.Said() {
		inA[s] = true
	}
	shared := 0
	for _, s := range c.Said() {
		if inA[s] {
			shared++
		}
	}
	if frac := float64(shared) / float64(len(c.Said())); frac >= 0.5 {
		t.Errorf("seeds 7 and 8 share %d of %d sentences (%.0f%%)", shared, len(c.Said()), frac*100)
	} else {
		t.Logf("seeds 7 and 8 share %d of %d sentences (%.0f%%)", shared, len(c.Said()), frac*100)
	}
}

// Acceptance 4: a truncated primary is read from the backup, and lull says so.
func TestTruncatedPrimaryLoadsBackup(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if _, errOut, err := lull(t, home, "100", "new", "--no-tui", "--length", "5", "--voice", "none"); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	id, dir := onlySession(t, home)
	primary := filepath.Join(dir, "session.yaml")
	data, err := os.ReadFile(primary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(primary, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lull(t, home, "1", "sessions", "show", id)
	if err != nil {
		t.Fatalf("sessions show: %v\n%s%s", err, out, errOut)
	}
	if !strings.Contains(out+errOut, "backup") || !strings.Contains(out+errOut, "last update may be lost") {
		t.Errorf("no word of the backup:\n%s%s", out, errOut)
	}
	if !strings.Contains(out, id) {
		t.Errorf("show printed:\n%s", out)
	}
}

// Acceptance 5: one lull per session; the second names the first's pid.
func TestSecondResumeIsRefused(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	first := exec.Command(lullBin, "new", "--no-tui", "--length", "30", "--voice", "none")
	first.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=1")
	var firstOut bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = first.Process.Kill(); _ = first.Wait() })
	var id string
	deadline := time.Now().Add(20 * time.Second)
	for id == "" && time.Now().Before(deadline) {
		entries, _ := os.ReadDir(filepath.Join(home, "sessions"))
		if len(entries) == 1 {
			if _, err := os.Stat(filepath.Join(home, "sessions", entries[0].Name(), "session.yaml")); err == nil {
				id = entries[0].Name()
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if id == "" {
		t.Fatalf("the first lull made no session:\n%s", firstOut.String())
	}
	out, errOut, err := lull(t, home, "1", "resume", id, "--no-tui")
	if err == nil {
		t.Fatalf("the second lull was let in:\n%s", out)
	}
	if want := fmt.Sprintf("pid %d", first.Process.Pid); !strings.Contains(errOut, want) {
		t.Errorf("the refusal does not name %q:\n%s", want, errOut)
	}
	// Ctrl-C on the first pauses and saves.
	if err := first.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	if st := load(t, home, id); st.Status != engine.Paused {
		t.Errorf("after Ctrl-C the session is %s, want paused", st.Status)
	}
	if !strings.Contains(firstOut.String(), "lull resume "+id) {
		t.Errorf("Ctrl-C did not say how to resume:\n%s", firstOut.String())
	}
}

// lull doctor reports the sound, the voices, the settings and the files,
// and never a key.
func TestDoctorReportsWithoutTheKey(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	const key = "sk-test-never-shown-4242"
	cmd := exec.Command(lullBin, "doctor")
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "OPENAI_API_KEY="+key)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	for _, want := range []string{"Sound", "device", "Voices", "espeak-ng", "soundscapes", "rain, ocean, brown (yours), drone, none",
		"breathing", "OPENAI_API_KEY", "set (never shown)", filepath.Join(home, "config.yaml")} {
		if !strings.Contains(string(out), want) {
			t.Errorf("doctor does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), key) || strings.Contains(string(out), "4242") {
		t.Errorf("doctor shows the key:\n%s", out)
	}
	if strings.Contains(string(out), "ALSA lib") {
		t.Errorf("ALSA's own complaints reach the terminal:\n%s", out)
	}
}

// With no sound device, lull plays to a silent output that keeps real
// time, says so once, and keeps ALSA's complaints off the terminal.
func TestNoSoundDeviceFallsBackToTheSilentOutput(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	cmd := exec.Command(lullBin, "new", "--no-tui", "--length", "5", "--voice", "none")
	// A PulseAudio server that is not there: ALSA's default device fails.
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "PULSE_SERVER=unix:/nonexistent/native")
	var out, errOut lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(out.String(), "Phase 1 of 5") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	started := time.Now()
	time.Sleep(4 * time.Second) // real time: the opening quiet, then the first line
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
	stderr := errOut.String()
	if n := strings.Count(stderr, "No sound device could be opened"); n != 1 {
		t.Errorf("the missing device was reported %d times:\n%s", n, stderr)
	}
	if strings.Contains(stderr, "ALSA lib") {
		t.Errorf("ALSA's complaints reached the terminal:\n%s", stderr)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Paused {
		t.Errorf("after Ctrl-C the session is %s", st.Status)
	}
	// The silent output keeps real time: about four seconds passed.
	if real := time.Since(started); st.Elapsed < 2*time.Second || st.Elapsed > real+2*time.Second {
		t.Errorf("%v of session time in about %v of real time", st.Elapsed, real)
	}
}

// lockedBuffer is a buffer a running command writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
