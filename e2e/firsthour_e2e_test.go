//go:build unix

package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lull-dev/lull/internal/engine"
)

// resize makes the pane w×h cells, as a person dragging the window would.
func (s *screen) resize(w, h int) {
	s.tmux("resize-window", "-t", "lull", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h))
}

// Issue 26: after lull new, esc quit to the shell while the help said
// "esc pause & list". In a real terminal it pauses the session and opens
// the list, which offers it back; q there leaves, with the resume hint.
func TestTmuxEscAfterNewOpensTheList(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=5"}, "new", "--length", "5", "--voice", "none", "--soundscape", "none")
	s.waitFor("speaking", 30*time.Second)
	s.send("?")
	s.waitFor("esc   pause & list", 30*time.Second)
	s.send("Escape")
	list := s.waitUntil(func(pane string) bool {
		return strings.Contains(pane, "paused ·") || strings.Contains(pane, "__EXIT")
	}, "the list with the session paused", 30*time.Second)
	if strings.Contains(list, "__EXIT") {
		t.Fatalf("esc left lull:\n%s", list)
	}
	if !strings.Contains(list, "Enter resumes it") || !strings.Contains(list, "n new session") {
		t.Errorf("the list does not offer the session back:\n%s", list)
	}
	id, _ := onlySession(t, home)
	waitStatus(t, home, id, engine.Paused, 30*time.Second)
	s.send("q")
	out := s.waitFor("__EXIT=0", 30*time.Second)
	if !strings.Contains(strings.ReplaceAll(out, "\n", ""), "resume "+id) { // the terminal wraps the line
		t.Errorf("lull left without saying how to resume:\n%s", out)
	}
}

// Issue 26 at 40×12, in a real terminal: the form keeps "enter begin"
// and names the fields out of sight; on the session screen the phase's
// name sits over its part of the bar, the voice turned off stays marked
// after its message has gone, and no row is cut without a "…".
func TestTmuxSmallTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=3"}, "new")
	s.waitFor("A new session", 30*time.Second)
	s.resize(40, 12)
	form := s.waitFor("↓ ", 30*time.Second)
	for _, want := range []string{"enter begin", "esc quit", "Begin"} {
		if !strings.Contains(form, want) {
			t.Errorf("the form at 40×12 lacks %q:\n%s", want, form)
		}
	}
	fits(t, form, 40)
	s.send("Enter")
	s.waitFor("speaking", 60*time.Second)
	s.send("v")
	s.waitFor("Voice off: the words go on", 30*time.Second) // the message, for its three seconds
	screen := s.waitFor("Voice off · v turns it on", 30*time.Second)
	for _, want := range []string{"space pause", "q quit", "? help"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the session at 40×12 lacks %q:\n%s", want, screen)
		}
	}
	fits(t, screen, 40)
	s.resize(80, 24)
	wide := s.waitFor("Voice off: the words are on screen only · v turns it on", 30*time.Second)
	if !strings.Contains(wide, "Breathing") && !strings.Contains(wide, "Atmosphere") {
		t.Errorf("no phase named over the bar at 80×24:\n%s", wide)
	}
	s.send("v")
	s.waitFor("· volume 10 of 12 · other voices: lull doctor", 30*time.Second) // the voice auto chose, named
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
}

// fits fails when a row of the screen reaches into the margin lull keeps
// on the right of a width-cell terminal: what it draws fits, cut with "…"
// where it must be, rather than being cut off by the terminal's edge.
func fits(t *testing.T, screen string, width int) {
	t.Helper()
	for _, row := range strings.Split(screen, "\n") {
		if strings.Contains(row, "__EXIT") {
			continue
		}
		if n := utf8.RuneCountInString(strings.TrimRight(row, " ")); n > width-2 {
			t.Errorf("a row reaches column %d of %d: %q", n, width, row)
		}
	}
}
