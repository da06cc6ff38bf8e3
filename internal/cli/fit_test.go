package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Every line fits, and no word is broken: the words come back in order.
func checkFits(t *testing.T, got, text string, width int) {
	t.Helper()
	for _, l := range strings.Split(got, "\n") {
		// Only a word, or a command kept whole, may be wider.
		if w := ansi.StringWidth(l); w > width && len(strings.Fields(l)) > 1 && !strings.HasPrefix(strings.TrimSpace(l), "lull ") {
			t.Errorf("a line of %d columns at %d: %q", w, width, l)
		}
	}
	if a, b := strings.Fields(got), strings.Fields(text); strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("the words changed:\n%q\n%q", a, b)
	}
}

func TestFitTextWrapsBetweenWords(t *testing.T) {
	t.Parallel()
	newRoot(&cli{}) // lull's commands, to tell a command from prose
	text := "Paused at sensory, 3:42 of 10:00. Resume with: lull resume 20261123-120000-k3f9"
	for _, width := range []int{80, 60, 40, 30, 20} {
		got := fitText(text, width)
		checkFits(t, got, text, width)
		// The command is whole on one line, to paste.
		if !strings.Contains(got, "lull resume 20261123-120000-k3f9") {
			t.Errorf("at %d the command is split:\n%s", width, got)
		}
	}
	if got := fitText(text, 0); got != text {
		t.Errorf("no width wrapped: %q", got)
	}
	// Continuations keep the line's indent; a word wider than the line
	// stands alone, whole.
	got := fitText("    a very long line of words to be wrapped https://example.com/a/very/long/address", 24)
	for _, l := range strings.Split(got, "\n") {
		if !strings.HasPrefix(l, "    ") {
			t.Errorf("a continuation lost its indent: %q", l)
		}
	}
	if !strings.Contains(got, "https://example.com/a/very/long/address") {
		t.Errorf("a long word was broken:\n%s", got)
	}
	// A command ends at what ends its clause.
	got = fitText("A session (resume with: lull resume 20261123-120000-k3f9), and more words after it here.", 40)
	if !strings.Contains(got, "lull resume 20261123-120000-k3f9),") {
		t.Errorf("the command was split:\n%s", got)
	}
	checkFits(t, got, "A session (resume with: lull resume 20261123-120000-k3f9), and more words after it here.", 40)
}

func TestTableFitsItsWidth(t *testing.T) {
	t.Parallel()
	tb := newTable("", 4)
	tb.cols[1].drop = 2
	tb.cols[2].drop = 1
	tb.add("ID", "STATUS", "LENGTH", "INTENTION")
	tb.add("20261123-120000-k3f9", "paused (inactive)", "10 min", "calm before a talk I have to give tomorrow morning")
	tb.add("20261124-120000-abcd", "completed", "20 min", "sleep")

	wide := tb.render(0)
	if !strings.Contains(wide, "20261123-120000-k3f9  paused (inactive)  10 min  calm before a talk I have to give tomorrow morning\n") {
		t.Errorf("without a width the table is not as tabwriter lays it:\n%s", wide)
	}
	for _, width := range []int{100, 80, 60, 50, 40} {
		got := tb.render(width)
		for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if ansi.StringWidth(l) > width {
				t.Errorf("at %d a line of %d columns: %q\n%s", width, ansi.StringWidth(l), l, got)
			}
		}
		if !strings.Contains(got, "calm before") || !strings.Contains(got, "morning") || !strings.Contains(got, "20261124-120000-abcd") {
			t.Errorf("at %d the table lost its text:\n%s", width, got)
		}
	}
	// Too narrow for every column: LENGTH goes first, then STATUS.
	if got := tb.render(65); strings.Contains(got, "10 min") || !strings.Contains(got, "paused") {
		t.Errorf("at 65:\n%s", got)
	}
	if got := tb.render(45); strings.Contains(got, "paused") {
		t.Errorf("at 45:\n%s", got)
	}
}

// A hint and its command stay on one line; printed anywhere, it reads as
// plain spaces.
func TestUnbrokenStaysOnOneLine(t *testing.T) {
	t.Parallel()
	text := "Paused at Atmosphere, 0:12 of 5:00. " + unbroken("Resume with: lull resume 20261129-191226-hf4k")
	if got := fitText(text, 0); got != "Paused at Atmosphere, 0:12 of 5:00. Resume with: lull resume 20261129-191226-hf4k" {
		t.Errorf("without a width: %q", got)
	}
	got := fitText(text, 60)
	if got != "Paused at Atmosphere, 0:12 of 5:00.\nResume with: lull resume 20261129-191226-hf4k" {
		t.Errorf("at 60: %q", got)
	}
	if w := ansi.StringWidth(unbroken("a b")); w != 3 {
		t.Errorf("a kept space is %d columns wide", w)
	}
}

// "lull" in prose is no command: it wraps like any words.
func TestProseAboutLullWraps(t *testing.T) {
	t.Parallel()
	newRoot(&cli{})
	text := "lull · session 20261129-192637-qs4q · 5 min · seed 3249958992865603436"
	checkFits(t, fitText(text, 40), text, 40)
	text = "If you can, tell someone. lull will be here when you come back, whenever that is."
	checkFits(t, fitText(text, 30), text, 30)
}
