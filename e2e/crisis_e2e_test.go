//go:build unix

package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/prompts"
)

// The intentions issue 9 saw start a session.
var issueCrisisIntentions = []string{
	"I don't want to be here anymore",
	"I'd be better off dead",
	"kms",
	"thinking of ending it all",
	"I don't see the point of living anymore",
	"I feel hopeless and can't go on",
	"sleep, I feel hopeless and want it all to stop",
}

// A crisis intention gets the help message on standard output, as plain
// text that fits 80 columns, nothing else on either stream, no session,
// and a non-zero exit status, from both commands that start a session.
func TestCrisisIntentionGetsHelpNotASession(t *testing.T) {
	t.Parallel()
	want := strings.TrimSpace(prompts.Crisis) + "\n"
	for _, intention := range issueCrisisIntentions {
		home := t.TempDir()
		wav := filepath.Join(t.TempDir(), "out.wav")
		for _, args := range [][]string{
			{"new", "--no-tui", "--voice", "none", "--intention", intention},
			{"render", "--voice", "none", "--out", wav, "--intention", intention},
		} {
			out, errOut, err := lull(t, home, "100", args...)
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() == 0 {
				t.Errorf("lull %s %q: %v, want a non-zero exit status", args[0], intention, err)
			}
			if out != want {
				t.Errorf("lull %s %q printed:\n%s\nwant the help message alone:\n%s", args[0], intention, out, want)
			}
			if errOut != "" {
				t.Errorf("lull %s %q wrote to stderr: %q", args[0], intention, errOut)
			}
		}
		if entries, _ := os.ReadDir(filepath.Join(home, "sessions")); len(entries) > 0 {
			t.Errorf("%q: a session was created: %v", intention, entries[0].Name())
		}
		if _, err := os.Stat(wav); err == nil {
			t.Errorf("%q: render wrote %s", intention, wav)
		}
	}
	for i, line := range strings.Split(want, "\n") {
		if strings.Contains(line, "**") || strings.Contains(line, "`") {
			t.Errorf("line %d shows markup in a terminal: %q", i+1, line)
		}
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, n, line)
		}
	}
	if !strings.Contains(want, "findahelpline.com") {
		t.Error("the message does not name findahelpline.com")
	}
}

// An ordinary intention that shares the crisis words starts its session
// (the old screen refused "overdosed on coffee").
func TestIntentionWithCrisisWordsStarts(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	out, errOut, err := lull(t, home, "100", "new", "--no-tui", "--length", "5", "--voice", "none", "--intention", "overdosed on coffee and dead tired, kill the stress")
	if err != nil {
		t.Fatalf("lull new: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if strings.Contains(out, "findahelpline.com") {
		t.Errorf("an ordinary intention got the crisis message:\n%s", out)
	}
	onlySession(t, home)
}
