package cli

import (
	"strings"
	"testing"
)

// A mistyped command, subcommand or flag fails, naming the word and what
// was likely meant, at every level.
func TestTyposAreNamedWithWhatWasMeant(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sesions"}, `unknown command "sesions"; did you mean "sessions"?`},
		{[]string{"sessions", "shwo"}, `unknown command "shwo" for "lull sessions"; did you mean "show"?`},
		{[]string{"s", "lsit"}, `unknown command "lsit" for "lull sessions"; did you mean "list"?`},
		{[]string{"new", "--lenght", "10"}, `unknown flag "--lenght" for "lull new"; did you mean "--length"?`},
		{[]string{"sessions", "prune", "--older-then", "2w"}, `unknown flag "--older-then" for "lull sessions prune"; did you mean "--older-than"?`},
		{[]string{"--verison"}, `unknown flag "--verison" for "lull"; did you mean "--version"?`},
		{[]string{"breathe", "bxo"}, `did you mean "box"?`},
		{[]string{"frobnicate"}, `unknown command "frobnicate"` + "\nSee: lull --help"},
		{[]string{"help", "sesions"}, `unknown command "sesions"; did you mean "sessions"?`},
		{[]string{"help", "sessions", "shwo"}, `unknown command "shwo" for "lull sessions"; did you mean "show"?`},
		{[]string{"config", "shwo"}, `unknown command "shwo" for "lull config"; did you mean "show"?`},
	} {
		stdout, stderr, code := runIn(t, home, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("lull %s: exit %d, stderr %q; want a failure saying %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
		if stdout != "" {
			t.Errorf("lull %s printed %q on stdout", strings.Join(c.args, " "), stdout)
		}
	}
	if _, stderr, _ := runIn(t, home, "frobnicate"); strings.Contains(stderr, "did you mean") {
		t.Errorf("a word near nothing got a suggestion: %q", stderr)
	}
	if stdout, _, code := runIn(t, home, "help", "sessions", "show"); code != 0 || !strings.Contains(stdout, "lull sessions show ID") {
		t.Errorf("lull help sessions show: exit %d, %q", code, stdout)
	}
}
