//go:build unix

package e2e

import (
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/audio"
)

// A subcommand lull does not have is an error that names it and the one
// meant, never the help and exit 0.
func TestUnknownSubcommandFails(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, c := range []struct {
		args []string
		name string // the typo, as the error must quote it
		near string // the subcommand it must suggest; "" for none
	}{
		{[]string{"sessions", "lsit"}, "lsit", "list"},
		{[]string{"s", "shwo"}, "shwo", "show"},
		{[]string{"sessions", "frobnicate"}, "frobnicate", ""},
		{[]string{"lsit"}, "lsit", ""},
	} {
		stdout, stderr, err := lull(t, home, "1000", c.args...)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() == 0 {
			t.Errorf("lull %s: err %v, want a non-zero exit\nstdout: %s", strings.Join(c.args, " "), err, stdout)
			continue
		}
		if !strings.Contains(stderr, `"`+c.name+`"`) || !strings.Contains(stderr, c.near) {
			t.Errorf("lull %s: stderr %q, want it to name %q and suggest %q", strings.Join(c.args, " "), stderr, c.name, c.near)
		}
		if strings.Contains(stdout, "Available Commands") {
			t.Errorf("lull %s printed the help on stdout: %s", strings.Join(c.args, " "), stdout)
		}
	}
	// With no subcommand at all, the help is what was asked for.
	stdout, _, err := lull(t, home, "1000", "sessions")
	if err != nil || !strings.Contains(stdout, "Available Commands") {
		t.Errorf("lull sessions: err %v, stdout %q; want its help and exit 0", err, stdout)
	}
}

// Every flag that takes a voice, a soundscape or a guide lists each name
// lull knows, from the one list.
func TestFlagHelpListsEveryChoice(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	lists := map[string][]string{"--voice": audio.Voices, "--soundscape": audio.Soundscapes, "--guide": app.Guides}
	for _, command := range []string{"new", "render", "resume"} {
		stdout, _, err := lull(t, home, "1000", command, "--help")
		if err != nil {
			t.Fatalf("lull %s --help: %v", command, err)
		}
		for flag, names := range lists {
			line := regexp.MustCompile(`(?m)^\s+` + flag + ` \S+\s+(.*(?:\n\s{20,}.*)*)`).FindStringSubmatch(stdout)
			if line == nil {
				continue // this command does not take it
			}
			for _, name := range names {
				if !regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(line[1]) {
					t.Errorf("lull %s --help: %s says %q, missing %q", command, flag, line[1], name)
				}
			}
		}
	}
	stdout, _, _ := lull(t, home, "1000", "new", "--help")
	for _, flag := range []string{"--voice", "--soundscape", "--guide"} {
		if !strings.Contains(stdout, flag) {
			t.Errorf("lull new --help has no %s", flag)
		}
	}
}
