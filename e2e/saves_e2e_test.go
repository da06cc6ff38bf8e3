//go:build unix

package e2e

// End-to-end tests of saves that do not happen: a disk that fills up, a
// session folder or its lock file removed while lull runs.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// running is a headless lull under way.
type running struct {
	cmd         *exec.Cmd
	out, errOut *lockedBuffer
	cancel      context.CancelFunc
}

// startHeadless starts `lull new --no-tui` for a 5-minute session at
// time scale 20, about 15 s.
func startHeadless(t *testing.T, home string) *running {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	cmd := exec.CommandContext(ctx, lullBin, "new", "--no-tui", "--length", "5", "--seed", "11", "--voice", "none")
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=20")
	r := &running{cmd: cmd, out: &lockedBuffer{}, errOut: &lockedBuffer{}, cancel: cancel}
	cmd.Stdout, cmd.Stderr = r.out, r.errOut
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	return r
}

// heard waits until n sentences are printed.
func (r *running) heard(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); sentencesIn(r.out.String()) < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d sentences were not printed within a minute:\n%s\n%s", n, r.out.String(), r.errOut.String())
		}
	}
}

// wait is how the lull ended: its exit code.
func (r *running) wait(t *testing.T) int {
	t.Helper()
	err := r.cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return exit.ExitCode()
	default:
		t.Fatalf("lull did not end by itself: %v\n%s\n%s", err, r.out.String(), r.errOut.String())
		return -1
	}
}

// sentencesIn counts the sentences a headless lull printed.
func sentencesIn(out string) int {
	n := 0
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "lull · ") && !strings.HasPrefix(line, "Phase ") && !strings.HasPrefix(line, "Session complete") {
			n++
		}
	}
	return n
}

var record = regexp.MustCompile(`^(.*) <!-- lull (\d+) (\w+) `)

// transcriptLines reads transcript.md as a person would check it: the
// "## " headings, each record's number, and the guide's lines.
func transcriptLines(t *testing.T, dir string) (headings map[string]int, seqs []int, said []string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "transcript.md"))
	if err != nil {
		t.Fatal(err)
	}
	headings = map[string]int{}
	for line := range strings.Lines(string(b)) {
		if title, ok := strings.CutPrefix(strings.TrimSpace(line), "## "); ok {
			headings[title]++
		}
		if m := record.FindStringSubmatch(line); m != nil {
			seq, _ := strconv.Atoi(m[2])
			seqs = append(seqs, seq)
			if m[3] == string(engine.RoleGuide) {
				said = append(said, m[1])
			}
		}
	}
	return headings, seqs, said
}

// checkTranscript: one heading per phase it reached, records numbered in
// order, and nothing loading finds wrong with it.
func checkTranscript(t *testing.T, home, id string, phases []engine.Phase) []string {
	t.Helper()
	headings, seqs, said := transcriptLines(t, filepath.Join(home, "sessions", id))
	for _, p := range phases {
		if headings[p.Title()] != 1 {
			t.Errorf("transcript.md has %d headings %q, want 1 (all: %v)", headings[p.Title()], p.Title(), headings)
		}
	}
	for i, seq := range seqs {
		if seq != i {
			t.Errorf("transcript.md's record %d is numbered %d: out of order", i, seq)
			break
		}
	}
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	_, report, err := store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range report.Notes {
		t.Errorf("loading it notes: %s", n)
	}
	return said
}

// mountTmpfs mounts a small tmpfs of its own for a test: root only.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a file until the disk has no space left.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling the disk: %v", err)
			}
			return
		}
	}
}

// A disk that fills up mid-session: the session plays to its end, then
// says plainly that it was not saved, what is on disk and how to resume,
// and exits non-zero. Once space is freed, resuming goes on from what the
// files hold — the sentences the transcript kept are not heard again —
// and the transcript keeps one heading per phase, its records in order.
func TestFullDiskMidSession(t *testing.T) {
	t.Parallel()
	disk := mountTmpfs(t, "1m")
	home := filepath.Join(disk, "home")
	r := startHeadless(t, home)
	r.heard(t, 2)
	filler := filepath.Join(disk, "filler")
	fill(t, filler)
	code := r.wait(t)
	stdout, stderr := r.out.String(), r.errOut.String()
	id, dir := onlySession(t, home)
	if code != 1 {
		t.Errorf("exit status %d on a full disk, want 1", code)
	}
	if strings.Contains(stdout, "Saved as") {
		t.Errorf("it says saved:\n%s", stdout)
	}
	for _, want := range []string{"session " + id + " was not saved:", "no space left on device", "On disk it is still at ",
		"Free some space on its disk, then resume it with:\n  lull resume " + id} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the end does not say %q:\n%s", want, stderr)
		}
	}
	t.Logf("the end of the full-disk run:\n%s", stderr)
	_, _, kept := transcriptLines(t, dir)

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lull(t, home, "100", "resume", id, "--no-tui")
	if err != nil {
		t.Fatalf("resume after space was freed: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(out, "Saved as "+id) {
		t.Errorf("the resumed session does not say it was saved:\n%s", out)
	}
	t.Logf("resuming noted:\n%s", errOut)
	said := checkTranscript(t, home, id, engine.Phases[:])
	if !slices.Equal(said[:min(len(kept), len(said))], kept) {
		t.Errorf("the transcript no longer begins with the %d lines it held before resuming", len(kept))
	}
	st := load(t, home, id)
	if st.Status != engine.Completed {
		t.Errorf("after resuming the session is %s", st.Status)
	}
	var heard []string
	for _, s := range st.Said() {
		heard = append(heard, strings.Join(strings.Fields(s), " "))
	}
	if !slices.Equal(heard, said) {
		t.Errorf("session.yaml says %d sentences were spoken, the transcript holds %d", len(heard), len(said))
	}
}

// The session's folder removed mid-run: the same truth, and lull makes
// nothing again in its place.
func TestRemovedFolderMidSession(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	r := startHeadless(t, home)
	r.heard(t, 2)
	id, dir := onlySession(t, home)
	// lull may write a file into the folder while it is being emptied, as
	// it could under a user's rm -r.
	if err := removeAgain(dir, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	code := r.wait(t)
	stdout, stderr := r.out.String(), r.errOut.String()
	if code != 1 {
		t.Errorf("exit status %d with its folder gone, want 1", code)
	}
	if strings.Contains(stdout, "Saved as") {
		t.Errorf("it says saved:\n%s", stdout)
	}
	for _, want := range []string{"session " + id + " was not saved:", fmt.Sprintf("Its folder %s is gone: nothing of it was kept.", dir)} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the end does not say %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the removed folder is there again: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(home, "sessions")); len(entries) != 0 {
		t.Errorf("the sessions folder holds %v", entries)
	}
}

// The lock file removed mid-run: a second lull is still refused, told
// which process has the session, and the first one's transcript stays
// whole and in order.
func TestRemovedLockMidSession(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	r := startHeadless(t, home)
	r.heard(t, 2)
	id, dir := onlySession(t, home)
	if err := os.Remove(filepath.Join(dir, "lock")); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lull(t, home, "20", "resume", id, "--no-tui")
	if err == nil {
		t.Errorf("a second lull ran the session:\n%s", out)
	}
	if want := fmt.Sprintf("session %s is open in another lull (pid %d)", id, r.cmd.Process.Pid); !strings.Contains(errOut, want) {
		t.Errorf("the refusal does not say %q:\n%s", want, errOut)
	}
	if code := r.wait(t); code != 0 || !strings.Contains(r.out.String(), "Saved as "+id) {
		t.Errorf("the first lull ended %d:\n%s\n%s", code, r.out.String(), r.errOut.String())
	}
	checkTranscript(t, home, id, engine.Phases[:])
}
