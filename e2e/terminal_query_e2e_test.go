//go:build unix

package e2e

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// lull stats on a terminal that never answers its background query (a
// bare pseudo-terminal) asks once, gives up, and draws the stats in
// colour for a dark background. The minute's deadline only bounds a
// failure; the query's own timeout (cli.terminalQueryTimeout) says how
// long it waits.
func TestStatsOnATerminalThatNeverAnswers(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if _, stderr, err := lull(t, home, "10000", "new", "--no-tui", "--length", "5", "--voice", "none", "--intention", "calm"); err != nil {
		t.Fatalf("a session: %v\n%s", err, stderr)
	}
	master, tty := openPTY(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lullBin, "stats")
	var env []string
	for _, kv := range hermeticEnv() {
		if !strings.HasPrefix(kv, "NO_COLOR=") && !strings.HasPrefix(kv, "TERM=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "LULL_HOME="+home, "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // lull holds it now; its end ends master's reads
	read := make(chan string)
	go func() {
		b, _ := io.ReadAll(master) // EIO once lull has gone
		read <- string(b)
	}()
	err := cmd.Wait()
	out := <-read
	if ctx.Err() != nil {
		t.Fatalf("lull stats still waited after a minute; it wrote:\n%q", out)
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatalf("lull stats: %v\n%q", err, out)
	}
	query := ansi.RequestBackgroundColor
	if n := strings.Count(out, query); n != 1 {
		t.Errorf("asked for the background %d times, want once:\n%q", n, out)
	}
	i := strings.Index(out, "Your practice")
	if i < 0 || i < strings.Index(out, query) {
		t.Errorf("the stats did not follow the query:\n%q", out)
	}
	if !strings.Contains(out[max(i, 0):], "\x1b[") {
		t.Errorf("the stats are not in colour:\n%q", out)
	}
}
