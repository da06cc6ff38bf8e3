//go:build unix

package e2e

import (
	"bufio"
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Issue 26: a model where nothing answers is known at once. The session
// hands over to the built-in guide without the backoff's seconds of
// silence, and says why in plain words, with the address it tried.
func TestUnreachableModelHandsOverAtOnce(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String() + "/v1"
	ln.Close() // nothing listens there now
	home := t.TempDir()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lullBin, "new", "--no-tui", "--guide", "openai", "--model", "llama3.2", "--length", "5", "--voice", "none", "--soundscape", "none")
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=100", "OPENAI_BASE_URL="+base)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	want := "Could not reach the model at " + base + ": connection refused. Continuing with the built-in guide."
	var said []string
	var handedOver time.Duration
	for lines := bufio.NewScanner(stderr); lines.Scan(); {
		said = append(said, lines.Text())
		if handedOver == 0 && strings.Contains(flat(strings.Join(said, " ")), want) {
			handedOver = time.Since(began)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("lull new: %v\n%s", err, strings.Join(said, "\n"))
	}
	if handedOver == 0 {
		t.Fatalf("the hand-over did not say %q:\n%s", want, strings.Join(said, "\n"))
	}
	// The backoff alone was 1 + 2 + 4 seconds: a hand-over well before
	// that was not retried. (The whole session takes 3 s at this scale.)
	if handedOver > 5*time.Second {
		t.Errorf("the hand-over came %v after lull started", handedOver)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Completed || len(st.Runs) != 2 || st.Runs[1].Guide != engine.GuideBuiltin {
		t.Errorf("status %s, runs %+v", st.Status, st.Runs)
	}
	if gap := st.Runs[1].StartedAt.Sub(st.Runs[0].StartedAt); gap > 3*time.Second {
		t.Errorf("the built-in guide took over %v after the model was asked", gap)
	}
}
