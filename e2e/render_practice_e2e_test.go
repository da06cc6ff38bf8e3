//go:build unix

package e2e

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// Issue 26: what lull render writes to a file is heard by no one. Renders
// do not count as practice — not in lull stats, not in a streak — and
// lull does not ask how you slept after a sleep session written to
// /dev/null. A session played to a listener still counts, and is asked.
func TestRendersAreNotPractice(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for range 3 {
		if out, errOut, err := lull(t, home, "1", "render", "--length", "5", "--voice", "none", "--soundscape", "none", "--sleep", "--sleep-after", "0",
			"--intention", "sleep render", "--out", "/dev/null"); err != nil {
			t.Fatalf("lull render: %v\n%s%s", err, out, errOut)
		}
	}
	stats := func() (sessions int, minutes float64) {
		t.Helper()
		out, errOut, err := lull(t, home, "1", "stats", "--json")
		if err != nil {
			t.Fatalf("lull stats --json: %v\n%s", err, errOut)
		}
		var s struct {
			Total struct {
				Sessions int     `json:"sessions"`
				Minutes  float64 `json:"minutes"`
			} `json:"total"`
			Streak *int `json:"streak_days"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if s.Total.Sessions == 0 && (s.Streak == nil || *s.Streak != 0) {
			t.Errorf("no practice, yet a streak of %v", s.Streak)
		}
		return s.Total.Sessions, s.Total.Minutes
	}
	if n, m := stats(); n != 0 || m != 0 {
		t.Errorf("three renders count as %d sessions, %.1f minutes", n, m)
	}
	list, _, err := lull(t, home, "1", "sessions", "list", "--json")
	if err != nil || strings.Count(list, `"rendered_seconds": 300`) != 3 {
		t.Errorf("sessions list --json does not say what was rendered (%v):\n%s", err, list)
	}

	// lull opens on the sessions and asks nothing about the sleep renders.
	s := newScreen(t, []string{"LULL_HOME=" + home})
	s.waitFor("sleep render", 30*time.Second)
	time.Sleep(time.Second) // the question comes with the list, if it comes
	if shown := s.capture(); strings.Contains(shown, "How did you sleep?") {
		t.Errorf("lull asks how you slept after a render to /dev/null:\n%s", shown)
	}
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)

	// A sleep session played to a listener counts, and is asked about.
	if out, errOut, err := lull(t, home, "1000", "new", "--no-tui", "--length", "5", "--voice", "none", "--soundscape", "none",
		"--sleep", "--sleep-after", "0", "--intention", "sleep heard"); err != nil {
		t.Fatalf("lull new: %v\n%s%s", err, out, errOut)
	}
	// It counts for what it lasted: at 1000 times a busy machine's stall
	// of a millisecond is a second of session, so that is read from the
	// session, not assumed to be its 5 minutes.
	list, _, err = lull(t, home, "1", "sessions", "list", "--json")
	var doc struct {
		Sessions []struct {
			Intention string  `json:"intention"`
			Elapsed   float64 `json:"elapsed_seconds"`
		} `json:"sessions"`
	}
	if err != nil || json.Unmarshal([]byte(list), &doc) != nil {
		t.Fatalf("sessions list --json (%v):\n%s", err, list)
	}
	var heard float64
	for _, in := range doc.Sessions {
		if in.Intention == "sleep heard" {
			heard = in.Elapsed / 60
		}
	}
	if n, m := stats(); n != 1 || heard < 4.9 || math.Abs(m-heard) > 0.05 {
		t.Errorf("a session played for %.1f minutes beside three renders counts as %d sessions, %.1f minutes", heard, n, m)
	}
	again := newScreen(t, []string{"LULL_HOME=" + home})
	again.waitFor("How did you sleep?", 30*time.Second)
	if shown := again.capture(); !strings.Contains(shown, "sleep heard") {
		t.Errorf("the question is not about the session heard:\n%s", shown)
	}
}
