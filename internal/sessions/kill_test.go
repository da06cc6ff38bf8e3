package sessions

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Acceptance 1: a process saving a session is killed with SIGKILL at a
// thousand random moments; after each, the session loads, and holds the
// last save that was acknowledged or the one after it. The next run is
// the check: it resumes the session with the package's own loader (built
// without the race detector, a load takes a tenth of the time), and it
// must get the lock the killed one held at once.
func TestKillWhileSaving(t *testing.T) {
	moments := 1000
	if testing.Short() {
		moments = 100
	}
	saver := buildSaveloop(t)
	home := t.TempDir()
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	start := time.Now()
	var killed, acked, lost, unreadable, fromBackup, resumed int
	last := 0 // the last save acknowledged
	for m := range moments + 1 {
		after := time.Duration(rng.Int64N(int64(30 * time.Millisecond)))
		if m == moments {
			after = -1 // the last run only loads
		}
		from, backup, acks, err := killSaving(saver, home, after)
		var refused resumeError
		switch {
		case errors.As(err, &refused) && strings.Contains(string(refused), "open in another lull"):
			t.Fatalf("after moment %d the lock was not free: %v", m, err)
		case errors.As(err, &refused):
			unreadable++
			t.Errorf("after moment %d, ack %d: %v", m, last, err)
		case err != nil:
			t.Fatalf("moment %d: %v", m, err)
		}
		if err != nil {
			break
		}
		if m > 0 {
			resumed++ // it took the lock the killed one held
		}
		if backup {
			fromBackup++
		}
		switch {
		case from < last:
			lost++
			t.Errorf("after moment %d: save %d loads, but %d was acknowledged", m, from, last)
		case m > 0 && from > last+1:
			t.Fatalf("after moment %d: save %d loads, but only %d was begun", m, from, last+1)
		}
		if m < moments {
			killed++
		}
		last = from
		if len(acks) > 0 {
			last = acks[len(acks)-1]
		}
		acked += len(acks)
	}
	t.Logf("%d moments, %d saves acknowledged, %d lost, %d unreadable, %d loaded from the backup, %d resumes took a killed saver's lock at once, in %v (seed %d)",
		killed, acked, lost, unreadable, fromBackup, resumed, time.Since(start).Round(time.Millisecond), seed)
}

// buildSaveloop builds the saving process, without the race detector so
// that it starts fast, and as the releases are built (no cgo, -trimpath),
// so it shares make test's one build of the packages it needs.
func buildSaveloop(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "saveloop")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./internal/saveloop")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	if err != nil {
		t.Fatalf("building saveloop: %v\n%s", err, out)
	}
	return bin
}

// resumeError is a saver that could not resume its session.
type resumeError string

func (e resumeError) Error() string { return string(e) }

// killSaving starts the saver and kills it after it has saved for after
// (at once when after < 0). It returns the save it loaded, whether from
// the backup, and the saves it acknowledged.
func killSaving(saver, home string, after time.Duration) (int, bool, []int, error) {
	cmd := exec.Command(saver, home, id)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, false, nil, err
	}
	if err := cmd.Start(); err != nil {
		return 0, false, nil, err
	}
	out := bufio.NewReader(stdout)
	line, err := out.ReadString('\n')
	var from int
	if _, serr := fmt.Sscanf(line, "saving from %d", &from); serr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return 0, false, nil, resumeError(fmt.Sprintf("the saver said %q (%v): %s", line, err, stderr.String()))
	}
	if after > 0 {
		time.Sleep(after)
	}
	cmd.Process.Kill()
	rest, err := io.ReadAll(out) // what it printed before it died is in the pipe
	if err != nil {
		return 0, false, nil, err
	}
	var exit *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &exit) || exit.ExitCode() != -1 {
		return 0, false, nil, fmt.Errorf("the saver was not killed but ended: %v: %s", err, stderr.String())
	}
	var acks []int
	for l := range strings.Lines(string(rest)) {
		var n int
		if _, err := fmt.Sscanf(l, "ack %d\n", &n); err != nil {
			return 0, false, nil, fmt.Errorf("the saver said %q", l)
		}
		acks = append(acks, n)
	}
	return from, strings.Contains(line, "(backup)"), acks, nil
}
