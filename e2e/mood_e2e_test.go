//go:build unix

package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Acceptance 2: mood flags saved and shown. The mood before is given to
// lull new, the mood after and a note to lull sessions note; show prints
// them and session.yaml keeps them under their names.
func TestMoodFlagsSavedAndShown(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if out, errOut, err := lull(t, home, "1000", "new", "--no-tui", "--mood-before", "2", "--length", "5", "--voice", "none", "--soundscape", "none"); err != nil {
		t.Fatalf("lull new: %v\n%s\n%s", err, out, errOut)
	}
	id, dir := onlySession(t, home)
	out, errOut, err := lull(t, home, "1", "sessions", "note", id, "--mood-after", "4", "--note", "warm hands,\n\tslow breath ")
	if err != nil {
		t.Fatalf("sessions note: %v\n%s", err, errOut)
	}
	if want := "Saved with " + id + ": mood 2 (uneasy) → 4 (good) · note: warm hands, slow breath.\n"; out != want {
		t.Errorf("sessions note said %q, want %q", out, want)
	}
	show, _, err := lull(t, home, "1", "sessions", "show", id)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mood       2 (uneasy) → 4 (good)", "your note  warm hands, slow breath"} {
		if !strings.Contains(show, want) {
			t.Errorf("sessions show lacks %q:\n%s", want, show)
		}
	}
	yaml, err := os.ReadFile(filepath.Join(dir, "session.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nmood_before: 2\n", "\nmood_after: 4\n", "\nnote: warm hands, slow breath\n"} {
		if !strings.Contains(string(yaml), want) {
			t.Errorf("session.yaml lacks %q", want)
		}
	}
	if st := load(t, home, id); st.MoodBefore != 2 || st.MoodAfter != 4 || st.Note != "warm hands, slow breath" {
		t.Errorf("loaded %d → %d %q", st.MoodBefore, st.MoodAfter, st.Note)
	}

	// Bad input: a clear error, exit 1, nothing changed.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"new", "--no-tui", "--mood-before", "7"}, "--mood-before 7: give how you feel as a number from 1 (low) to 5 (very good)"},
		{[]string{"sessions", "note", id, "--mood-after", "0"}, "--mood-after 0: give how you feel as a number from 1 (low) to 5 (very good)"},
		{[]string{"sessions", "note", id, "--note", strings.Repeat("a", 281)}, "--note: a note holds up to 280 characters, this one has 281"},
		{[]string{"sessions", "note", "20261124-000000-nope", "--mood-after", "3"}, `no such session "20261124-000000-nope"`},
		{[]string{"sessions", "note", id}, "nothing to keep: give --mood-after N, --mood-before N or --note TEXT"},
	} {
		_, errOut, err := lull(t, home, "1", c.args...)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("lull %v: %v, stderr %q; want exit 1 saying %q", c.args, err, errOut, c.want)
		}
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "session.yaml")); string(again) != string(yaml) {
		t.Error("a refused note changed session.yaml")
	}
	if entries, _ := os.ReadDir(filepath.Join(home, "sessions")); len(entries) != 1 {
		t.Errorf("a refused --mood-before made a session: %d folders", len(entries))
	}
}

// Acceptance 2: remembered volume after resume, in a real terminal. Two
// steps louder, quit, lull resume: it plays at the same level and says so.
func TestTmuxRemembersVolumeAfterResume(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=5"}
	s := newScreen(t, env, "new", "--length", "5", "--voice", "none")
	s.waitFor("speaking", 30*time.Second)
	s.send("+")
	s.waitFor("Volume 11 of 12: +3 dB.", 30*time.Second)
	s.send("+")
	s.waitFor("Volume 12 of 12: +6 dB.", 30*time.Second)
	s.send("v")
	s.waitFor("Voice off", 30*time.Second)
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
	id, dir := onlySession(t, home)
	header := func() string {
		yaml, err := os.ReadFile(filepath.Join(dir, "session.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return string(yaml)
	}
	if yaml := header(); !strings.Contains(yaml, "\nvolume: 2\n") || !strings.Contains(yaml, "\nvoice_off: true\n") {
		t.Fatalf("session.yaml does not keep volume +2 steps and the voice off:\n%s", yaml)
	}

	again := newScreen(t, env, "resume", id)
	again.waitFor("Volume 12 of 12: +6 dB, as you left it.", 30*time.Second)
	again.send("-")
	again.waitFor("Volume 11 of 12: +3 dB.", 30*time.Second) // a step down from where it was left
	again.send("q")
	again.waitFor("__EXIT=0", 30*time.Second)
	if yaml := header(); !strings.Contains(yaml, "\nvolume: 1\n") || !strings.Contains(yaml, "\nvoice_off: true\n") {
		t.Errorf("after resuming, session.yaml does not keep volume +1 and the voice off:\n%s", yaml)
	}
}

// The end screen after lull new: one key for the mood after, a note, and
// enter keeps them and opens the sessions (the key help said so while
// enter quit). The session's own files take the remark.
func TestTmuxEndScreenKeepsMoodAndOpensSessions(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=200"}
	s := newScreen(t, env, "new", "--length", "5", "--voice", "none", "--mood-before", "2")
	s.waitFor("The session is complete.", 60*time.Second)
	s.waitFor("enter save & your sessions", 30*time.Second) // the hint this must make true
	s.send("4")
	s.send("Tab") // the note takes keys once tab opens it
	s.tmux("send-keys", "-t", "lull", "-l", "light and warm")
	s.waitFor("Mood 2 (uneasy) → 4 (good).", 30*time.Second)
	s.send("Enter")
	s.waitFor("n new session", 30*time.Second) // the sessions list, not the shell
	if strings.Contains(s.capture(), "__EXIT") {
		t.Fatal("enter quit lull")
	}
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
	id, _ := onlySession(t, home)
	if st := load(t, home, id); st.MoodBefore != 2 || st.MoodAfter != 4 || st.Note != "light and warm" {
		t.Errorf("kept %d → %d %q", st.MoodBefore, st.MoodAfter, st.Note)
	}
}

// lull new --no-tui on a terminal asks the mood before and, once a waking
// session ends, the mood after and a note; it keeps what is given.
func TestTmuxHeadlessAsksTheMood(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=1000"}
	s := newScreen(t, env, "new", "--no-tui", "--length", "5", "--voice", "none", "--soundscape", "none")
	s.waitFor("How do you feel, 1 (low) to 5 (very good)? Enter skips:", 30*time.Second)
	s.tmux("send-keys", "-t", "lull", "-l", "9")
	s.send("Enter")
	s.waitFor(`"9" is not a mood`, 30*time.Second)
	s.tmux("send-keys", "-t", "lull", "-l", "2")
	s.send("Enter")
	s.waitFor("And now? 1–5, Enter skips:", 60*time.Second)
	s.tmux("send-keys", "-t", "lull", "-l", "5")
	s.send("Enter")
	s.waitFor("A note to keep with it (Enter skips):", 30*time.Second)
	s.tmux("send-keys", "-t", "lull", "-l", "clear head")
	s.send("Enter")
	s.waitFor("__EXIT=0", 30*time.Second)
	id, _ := onlySession(t, home)
	if !strings.Contains(flat(s.lines()), "Saved with "+id+": mood 2 (uneasy) → 5 (very good) · note: clear head.") {
		t.Errorf("not said what was kept:\n%s", s.lines())
	}
	if st := load(t, home, id); st.MoodBefore != 2 || st.MoodAfter != 5 || st.Note != "clear head" {
		t.Errorf("kept %d → %d %q", st.MoodBefore, st.MoodAfter, st.Note)
	}
}

// Without a terminal, nothing is asked: a script is never held up.
func TestHeadlessAsksNothingWithoutATerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	out, errOut, err := lull(t, home, "1000", "new", "--no-tui", "--length", "5", "--voice", "none", "--soundscape", "none")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if strings.Contains(out, "How do you feel") || strings.Contains(out, "And now?") {
		t.Errorf("asked without a terminal:\n%s", out)
	}
}

// The form opens on the last session's choices: its length (25, typed,
// not a preset), voice and soundscape.
func TestTmuxFormOpensOnTheLastChoices(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if _, errOut, err := lull(t, home, "1000", "new", "--no-tui", "--length", "25", "--voice", "none", "--soundscape", "none"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=1000"}, "new")
	screen := s.waitFor("A new session", 30*time.Second)
	for _, row := range []struct{ field, want string }{{"Length", "[25]"}, {"Voice", "[none]"}, {"Soundscape", "[none]"}} {
		found := false
		for _, l := range strings.Split(screen, "\n") {
			if strings.Contains(l, row.field+" ") && strings.Contains(l, row.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("the %s row does not show %s:\n%s", row.field, row.want, screen)
		}
	}
	s.send("Escape")
	s.waitFor("__EXIT=0", 30*time.Second)
}
