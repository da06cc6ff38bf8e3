//go:build unix

package e2e

// Sleep sessions through the real binary: chosen by --sleep, by the
// intention or in the form; how long the sound plays on after the words.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeHomeConfig(t *testing.T, home, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSleepSessionIsChosenByFlagOrIntention(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		config string
		args   []string
		sleep  bool
		tail   time.Duration
		note   bool // lull says the intention made it a sleep session
	}{
		{name: "flag", args: []string{"--sleep", "--sleep-after", "45"}, sleep: true, tail: 45 * time.Minute},
		{name: "intention", args: []string{"--intention", "help me sleep"}, sleep: true, tail: 30 * time.Minute, note: true},
		{name: "intention, config", config: "sleep: {after: 10}\n", args: []string{"--intention", "help me sleep"}, sleep: true, tail: 10 * time.Minute, note: true},
		{name: "intention, waking close", config: "sleep: {after: 10}\n", args: []string{"--intention", "help me sleep", "--sleep=false"}},
		{name: "stops with the words", args: []string{"--sleep", "--sleep-after", "0m"}, sleep: true},
		{name: "sleep-after alone", args: []string{"--sleep-after", "1h"}, sleep: true, tail: time.Hour},
		{name: "another intention", args: []string{"--intention", "calm before a talk"}},
		{name: "nothing said", config: "sleep: {after: 10}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			if c.config != "" {
				writeHomeConfig(t, home, c.config)
			}
			args := append([]string{"new", "--no-tui", "--length", "5", "--voice", "none", "--seed", "4"}, c.args...)
			out, errOut, err := lull(t, home, "1000", args...)
			if err != nil {
				t.Fatalf("lull %s: %v\n%s\n%s", strings.Join(args, " "), err, out, errOut)
			}
			id, _ := onlySession(t, home)
			st := load(t, home, id)
			if st.Sleep != c.sleep || st.SleepTail != c.tail {
				t.Errorf("saved sleep %v, the sound on for %v; want %v, %v", st.Sleep, st.SleepTail, c.sleep, c.tail)
			}
			said := strings.Contains(errOut, sleepNote)
			if said != c.note {
				t.Errorf("said the note: %v, want %v\nstderr:\n%s", said, c.note, errOut)
			}
			if c.note && strings.Count(errOut+out, "A sleep session") != 1 {
				t.Errorf("the note is not said once:\n%s", errOut)
			}
			show, _, err := lull(t, home, "1", "sessions", "show", id)
			if err != nil {
				t.Fatal(err)
			}
			if shown := strings.Contains(show, "a sleep session"); shown != c.sleep {
				t.Errorf("lull sessions show says a sleep session: %v, want %v\n%s", shown, c.sleep, show)
			}
		})
	}
}

func TestRenderSleepSession(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	wav := filepath.Join(t.TempDir(), "sleep.wav")
	out, errOut, err := lull(t, home, "1", "render", "--length", "5", "--voice", "none", "--soundscape", "none", "--seed", "2",
		"--intention", "help me sleep", "--sleep-after", "1", "--out", wav)
	if err != nil {
		t.Fatalf("lull render: %v\n%s\n%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	if st := load(t, home, id); !st.Sleep || st.SleepTail != time.Minute {
		t.Errorf("rendered as sleep %v, the sound on for %v", st.Sleep, st.SleepTail)
	}
	if strings.Contains(errOut, sleepNote) {
		t.Errorf("--sleep-after asked for a sleep session, yet lull says it chose one:\n%s", errOut)
	}

	home = t.TempDir()
	out, errOut, err = lull(t, home, "1", "render", "--length", "5", "--voice", "none", "--soundscape", "none", "--seed", "2",
		"--intention", "help me sleep", "--out", wav)
	if err != nil {
		t.Fatalf("lull render: %v\n%s\n%s", err, out, errOut)
	}
	if !strings.Contains(errOut, sleepNote) || strings.Contains(out, sleepNote) {
		t.Errorf("the note is not on stderr alone:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
}

func TestSleepFlagsRefuseWhatTheyCannotUse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		config string
		args   []string
		want   string
	}{
		{args: []string{"new", "--sleep-after", "121"}, want: "--sleep-after 121: 121 minutes: the sound plays on for 0 to 120 minutes after the last word (0 stops it with the words)"},
		{args: []string{"new", "--sleep-after", "-1"}, want: "0 to 120 minutes"},
		{args: []string{"render", "--out", "x.wav", "--sleep-after", "half an hour"}, want: `--sleep-after "half an hour": give minutes from 0 to 120, like 30 or 45m`},
		{args: []string{"new", "--sleep-after", "90s"}, want: "give minutes from 0 to 120"},
		{args: []string{"new", "--sleep=false", "--sleep-after", "20"}, want: "--sleep=false asks for a waking close: give one of them"},
		{args: []string{"new", "--sleep=perhaps"}, want: "--sleep"},
		{config: "sleep: {after: 500}\n", args: []string{"new", "--sleep", "--no-tui"}, want: "config.yaml: line 1: sleep after: 500 minutes: the sound plays on for 0 to 120 minutes"},
		{config: "sleep: {after: 1.5}\n", args: []string{"new", "--sleep", "--no-tui"}, want: "config.yaml: line 1: key sleep.after: want a whole number"},
	} {
		home := t.TempDir()
		if c.config != "" {
			writeHomeConfig(t, home, c.config)
		}
		out, errOut, err := lull(t, home, "1000", c.args...)
		if err == nil || !strings.Contains(errOut, c.want) {
			t.Errorf("lull %s: %v\nstderr %q\nwant it to say %q", strings.Join(c.args, " "), err, errOut, c.want)
		}
		if entries, _ := os.ReadDir(filepath.Join(home, "sessions")); len(entries) > 0 {
			t.Errorf("lull %s made a session:\n%s", strings.Join(c.args, " "), out)
		}
	}
}

// The form's Sleep field turns on as the intention speaks of sleep; the
// session begun from it is a sleep session with the config's tail. Begun
// from the command line, the TUI says why it is a sleep session.
func TestTmuxSleepInTheForm(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	writeHomeConfig(t, home, "sleep: {after: 15}\nvoice: none\n")
	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=5"}, "new")
	s.waitFor("A new session", 20*time.Second)
	if screen := s.waitFor("Sleep", 5*time.Second); !strings.Contains(screen, "[off]  on  a waking close") {
		t.Errorf("the form's Sleep field is not off to begin with:\n%s", screen)
	}
	s.send("Tab")
	s.tmux("send-keys", "-t", "lull", "-l", "sleep soundly")
	s.waitFor("nothing wakes you; the sound plays on 15 min", 10*time.Second)
	s.send("Enter")
	s.waitFor("elapsed", 20*time.Second)
	s.send("q")
	s.waitFor("__EXIT=0", 20*time.Second)
	id, _ := onlySession(t, home)
	if st := load(t, home, id); !st.Sleep || st.SleepTail != 15*time.Minute || st.Intention != "sleep soundly" {
		t.Errorf("begun from the form: sleep %v, the sound on for %v, intention %q", st.Sleep, st.SleepTail, st.Intention)
	}

	s = newScreen(t, []string{"LULL_HOME=" + t.TempDir(), "LULL_TIME_SCALE=5"}, "new", "--intention", "sleep", "--voice", "none")
	s.waitFor(sleepNoteShort, 20*time.Second)
	s.send("q")
	s.waitFor("__EXIT=0", 20*time.Second)
}

// What lull says when it makes a session a sleep session because the
// intention speaks of sleep: the user's words, asserted as they read.
const (
	sleepNoteShort = "A sleep session: nothing will wake you at the end."
	sleepNote      = sleepNoteShort + " --sleep=false for a waking close."
)
