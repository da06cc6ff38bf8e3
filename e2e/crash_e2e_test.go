//go:build unix

package e2e

// End-to-end tests of what a crash and a careless umask leave behind.

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// Acceptance 2: a running session killed with SIGKILL at 25 random
// moments across it: each time `lull sessions show ID` succeeds and
// session.yaml parses. Five run at once; a session is mostly waiting.
func TestKilledSessionStillShows(t *testing.T) {
	t.Parallel()
	const kills, together, scale = 25, 5, 50
	span := 10 * time.Minute / scale * 9 / 10 // within the session, which lasts about 12 s
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	moments := make(chan time.Duration, kills)
	for range kills {
		moments <- time.Duration(rng.Int64N(int64(span)))
	}
	close(moments)

	var mu sync.Mutex
	var killedAt []time.Duration
	statuses := map[string]int{}
	var wg sync.WaitGroup
	for range together {
		wg.Go(func() {
			for at := range moments {
				status, err := killSession(t, scale, at)
				mu.Lock()
				killedAt = append(killedAt, at)
				statuses[status]++
				mu.Unlock()
				if err != nil {
					t.Errorf("killed %v into the session: %v", at.Round(time.Millisecond), err)
				}
			}
		})
	}
	wg.Wait()
	sort.Slice(killedAt, func(i, j int) bool { return killedAt[i] < killedAt[j] })
	t.Logf("%d kills from %v to %v into a %v session (seed %d); statuses left: %v",
		len(killedAt), killedAt[0].Round(time.Millisecond), killedAt[len(killedAt)-1].Round(time.Millisecond), 10*time.Minute/scale, seed, statuses)
}

// killSession starts a session, kills it at into it, and checks what is
// left. It returns the status the file holds.
func killSession(t *testing.T, scale int, at time.Duration) (string, error) {
	home := t.TempDir()
	cmd := exec.Command(lullBin, "new", "--no-tui", "--length", "10", "--voice", "none")
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, fmt.Sprintf("LULL_TIME_SCALE=%d", scale))
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	// The session begins when its first save is there.
	var primary string
	for deadline := time.Now().Add(20 * time.Second); primary == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		matches, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "session.yaml"))
		if len(matches) == 1 {
			primary = matches[0]
		}
	}
	if primary == "" {
		cmd.Process.Kill()
		cmd.Wait()
		return "", fmt.Errorf("no session began:\n%s", out.String())
	}
	time.Sleep(at)
	cmd.Process.Kill()
	if err := cmd.Wait(); err == nil {
		return "", fmt.Errorf("the session ended before the kill:\n%s", out.String())
	}
	id := filepath.Base(filepath.Dir(primary))
	stdout, stderr, err := lull(t, home, "1", "sessions", "show", id)
	if err != nil || !strings.Contains(stdout, id) {
		return "", fmt.Errorf("lull sessions show %s: %v\n%s%s", id, err, stdout, stderr)
	}
	data, err := os.ReadFile(primary)
	if err != nil {
		return "", err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return "", fmt.Errorf("session.yaml does not parse: %v", err)
	}
	return fmt.Sprint(doc["status"]), nil
}

// Acceptance 6: under umask 000, every folder lull makes is 0700 and
// every file 0600, the log included.
func TestPrivateUnderUmask000(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	home := filepath.Join(base, "new", "lull") // lull makes both
	canary := filepath.Join(base, "canary")    // shows the umask took
	run := func(args ...string) string {
		t.Helper()
		sh := append([]string{"-c", `umask 000; touch "$CANARY"; exec "$0" "$@"`, lullBin}, args...)
		cmd := exec.Command("sh", sh...)
		cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=100", "CANARY="+canary)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("lull %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("new", "--no-tui", "--length", "5", "--voice", "none")
	id, _ := onlySession(t, home)
	run("sessions", "list")
	run("sessions", "show", id)
	if info, err := os.Stat(canary); err != nil || info.Mode().Perm() != 0o666 {
		t.Fatalf("umask 000 did not take: %v %v", info.Mode(), err)
	}

	var folders, files int
	err := filepath.WalkDir(filepath.Join(base, "new"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
			folders++
		} else {
			files++
		}
		if !d.IsDir() && !info.Mode().IsRegular() {
			return errors.New(path + " is " + info.Mode().Type().String())
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s is %v, want %v", path, info.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, "lull.log")); err != nil {
		t.Errorf("no log: %v", err)
	}
	t.Logf("%d folders 0700, %d files 0600", folders, files)
}
