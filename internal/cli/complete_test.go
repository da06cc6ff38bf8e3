package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// complete asks lull what completes args, as the shell scripts do, and
// returns the lines offered (value, or value TAB description).
func complete(t *testing.T, home string, args ...string) []string {
	t.Helper()
	stdout, _, code := runIn(t, home, append([]string{cobra.ShellCompRequestCmd}, args...)...)
	if code != 0 {
		t.Fatalf("lull __complete %q: exit %d", args, code)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[len(lines)-1], ":") {
		t.Fatalf("lull __complete %q: %q has no directive", args, stdout)
	}
	return lines[:len(lines)-1]
}

func values(lines []string) []string {
	var out []string
	for _, l := range lines {
		v, _, _ := strings.Cut(l, "\t")
		out = append(out, v)
	}
	return out
}

// Every flag's values come from the one list lull keeps of them.
func TestFlagValuesCompleteFromTheirOneList(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"new", "--voice", ""}, audio.Voices},
		{[]string{"render", "--soundscape", ""}, audio.Soundscapes},
		{[]string{"replay", "x", "--voice", ""}, audio.Voices},
		{[]string{"breathe", "--soundscape", ""}, audio.Soundscapes},
		{[]string{"resume", "--guide", ""}, app.Guides},
		{[]string{"--guide", ""}, app.Guides},
		{[]string{"sessions", "export", "x", "--format", ""}, exportFormats},
		{[]string{"new", "--voice", "esp"}, []string{"espeak-ng"}},
	} {
		if got := values(complete(t, home, c.args...)); !slices.Equal(got, c.want) {
			t.Errorf("lull %s: %q, want %q", strings.Join(c.args, " "), got, c.want)
		}
	}
	var lengths []string
	for _, n := range app.Lengths {
		lengths = append(lengths, fmt.Sprint(n))
	}
	if got := values(complete(t, home, "new", "--length", "")); !slices.Equal(got, lengths) {
		t.Errorf("--length: %q, want %q", got, lengths)
	}
	var patterns []string
	for _, n := range engine.NamedBreaths {
		patterns = append(patterns, n.Name+"\t"+n.About)
	}
	if got := complete(t, home, "breathe", ""); !slices.Equal(got, patterns) {
		t.Errorf("breathe: %q, want %q", got, patterns)
	}
	if got := complete(t, home, "sessions", "note", "x", "--mood-after", ""); len(got) != 5 || got[0] != "1\t"+engine.MoodWord(1) {
		t.Errorf("--mood-after: %q", got)
	}
	if got := complete(t, home, "new", "--intention", ""); len(got) != 0 {
		t.Errorf("--intention offered %q", got)
	}
}

// Every flag that takes a value says how it completes, and every command
// that takes a session's ID completes it: a flag added later cannot be
// forgotten.
func TestEveryFlagAndIDCompletes(t *testing.T) {
	root := newRoot(&cli{stdout: new(strings.Builder), stderr: new(strings.Builder)})
	walk(root, func(cmd *cobra.Command) {
		cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() == "bool" || slices.Contains(fileFlags, f.Name) {
				return
			}
			if _, ok := cmd.GetFlagCompletionFunc(f.Name); !ok {
				t.Errorf("%s --%s takes a value and has no completion: add it to flagValues, freeFlags or fileFlags", cmd.CommandPath(), f.Name)
			}
		})
		if strings.Contains(cmd.Use, "ID") && cmd.ValidArgsFunction == nil {
			t.Errorf("%s takes a session's ID and does not complete it: add it to sessionArgs", cmd.CommandPath())
		}
	})
	for path := range sessionArgs {
		if cmd, _, err := root.Find(strings.Fields(path)[1:]); err != nil || cmd.CommandPath() != path {
			t.Errorf("sessionArgs names %q, which is not a command", path)
		}
	}
}

// Session IDs complete with their intention, only those a command can
// take; reading them for completion writes nothing and does not wait for
// a session another lull holds open.
func TestSessionIDsCompleteWithoutATrace(t *testing.T) {
	home := t.TempDir()
	if _, stderr, code := runIn(t, home, "new", "--no-tui", "--length", "5", "--voice", "none", "--intention", "calm before a talk"); code != 0 {
		t.Fatalf("a session: exit %d: %s", code, stderr)
	}
	done := onlyID(t, home, nil)
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	st, err := engine.NewState("20201124-213000-kdlu", engine.Options{Length: 10 * time.Minute, Intention: "sleep\tnow", Voice: "none", Soundscape: "none"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	held, err := store.Create(st) // open and locked, as a playing lull holds it
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	before := files(t, home)

	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"resume", ""}, []string{st.ID + "\tsleep now · created"}},
		{[]string{"replay", ""}, []string{done + "\tcalm before a talk · completed"}},
		{[]string{"sessions", "show", ""}, []string{st.ID + "\tsleep now · created", done + "\tcalm before a talk · completed"}},
		{[]string{"s", "delete", ""}, []string{st.ID + "\tsleep now · created", done + "\tcalm before a talk · completed"}},
		{[]string{"sessions", "export", "--format", "md", ""}, []string{st.ID + "\tsleep now · created", done + "\tcalm before a talk · completed"}},
		{[]string{"sessions", "note", "2020"}, []string{st.ID + "\tsleep now · created"}},
		{[]string{"sessions", "discard", ""}, []string{st.ID + "\tsleep now · created"}},
		{[]string{"sessions", "show", done, ""}, nil}, // one ID only
	} {
		if got := complete(t, home, c.args...); !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("lull %s: %q, want %q", strings.Join(c.args, " "), got, c.want)
		}
	}
	if after := files(t, home); !slices.Equal(before, after) {
		t.Errorf("completing changed lull's files:\nbefore %q\nafter  %q", before, after)
	}

	// No data folder: nothing offered, nothing made, nothing said.
	none := filepath.Join(t.TempDir(), "none")
	stdout, stderr, code := runIn(t, none, cobra.ShellCompRequestCmd, "resume", "")
	if code != 0 || strings.TrimSpace(stdout) != ":36" || strings.Contains(stderr, "lull:") {
		t.Errorf("without a data folder: exit %d, %q, %q", code, stdout, stderr)
	}
	if _, err := os.Lstat(none); !os.IsNotExist(err) {
		t.Errorf("completing made the data folder: %v", err)
	}
}

// onlyID is the one session in home not in except.
func onlyID(t *testing.T, home string, except []string) string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		if !slices.Contains(except, e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	if len(ids) != 1 {
		t.Fatalf("sessions %q, want one", ids)
	}
	return ids[0]
}

// files is every file and folder under root with its mode, size and time.
func files(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %v %d %d", path, info.Mode(), info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
