package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// transcriptRows is the session screen's transcript: the rows between the
// clock line and the key help, blank ones at either end left out.
func transcriptRows(t *testing.T, view string) []string {
	t.Helper()
	lines := strings.Split(ansi.Strip(view), "\n")
	from := -1
	for i, l := range lines {
		if strings.Contains(l, "elapsed") {
			from = i + 1
			break
		}
	}
	if from < 0 {
		t.Fatalf("no clock line on the screen:\n%s", view)
	}
	var rows []string
	for _, l := range lines[from:] {
		l = strings.TrimSpace(l)
		if strings.Contains(l, "q quit") || strings.Contains(l, "pause/resume") {
			break // the key help
		}
		rows = append(rows, l)
	}
	for len(rows) > 0 && rows[0] == "" {
		rows = rows[1:]
	}
	for len(rows) > 0 && rows[len(rows)-1] == "" {
		rows = rows[:len(rows)-1]
	}
	return rows
}

// withLast is the sample session with these sentences spoken last in its
// sensory phase, the last one being spoken now.
func withLast(w, h int, sentences ...string) Model {
	st := sessionState()
	for _, s := range sentences {
		st.History = append(st.History, engine.Entry{At: testNow, Phase: engine.Sensory, Role: engine.RoleGuide, Text: s})
	}
	return sessionModel(st, w, h)
}

// At 40×12 the transcript shows whole sentences: its top row begins a
// sentence (or is a phase heading), never the tail of one cut above, and
// the sentence being spoken is there in full.
func TestSmallTranscriptShowsWholeSentences(t *testing.T) {
	m := withLast(40, 12,
		"Feel the weight of your shoulders settle, a little lower with each breath out.",
		"Rest now.")
	rows := transcriptRows(t, m.View().Content)
	if len(rows) == 0 {
		t.Fatalf("no transcript at 40×12:\n%s", ansi.Strip(m.View().Content))
	}
	var said []string
	for _, e := range m.sess.words.lines {
		said = append(said, e.text)
	}
	top := rows[0]
	begins := strings.HasPrefix(top, "—") || strings.HasPrefix(top, "…")
	for _, s := range said {
		begins = begins || strings.HasPrefix(s, top)
	}
	if !begins {
		t.Errorf("the transcript's top row %q is the middle of a sentence:\n%s", top, strings.Join(rows, "\n"))
	}
	if rows[len(rows)-1] != "Rest now." {
		t.Errorf("the sentence being spoken is not the last row:\n%s", strings.Join(rows, "\n"))
	}
	// Every row the screen has is used: the sentence before the current
	// one fits in full at 40×12, so it is there.
	if !strings.Contains(strings.Join(rows, " "), "Feel the weight of your shoulders") {
		t.Errorf("room left unused, the sentence before is missing:\n%s", strings.Join(rows, "\n"))
	}
}

// A sentence being spoken that is taller than the room alone shows its
// end under a "…" that says it began above.
func TestTallSentenceIsMarkedWhereItIsCut(t *testing.T) {
	long := strings.Repeat("Let each breath be a little longer and softer than the one before it. ", 4) + "And rest."
	m := withLast(40, 12, long)
	rows := transcriptRows(t, m.View().Content)
	if len(rows) < 2 || rows[0] != "…" {
		t.Fatalf("a cut sentence without its marker:\n%s", strings.Join(rows, "\n"))
	}
	if rows[len(rows)-1] != "And rest." {
		t.Errorf("the end of the sentence being spoken is not shown:\n%s", strings.Join(rows, "\n"))
	}
}

// With the full key help and a status line, the footer is taller: the
// transcript gets fewer rows, and the sentence being spoken still ends on
// screen rather than under the footer.
func TestTranscriptMakesRoomForTheFooter(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {40, 12}, {60, 15}} {
		m := withLast(size[0], size[1], "Feel the weight of your shoulders settle, a little lower with each breath out, and out.")
		m.help.ShowAll = true
		m.status.set("Volume 80%.", levelInfo, 0)
		v := ansi.Strip(m.View().Content)
		if !strings.Contains(strings.Join(strings.Fields(v), " "), "breath out, and out.") {
			t.Errorf("at %dx%d the end of the sentence being spoken is cut off:\n%s", size[0], size[1], v)
		}
		if n := strings.Count(v, "\n") + 1; n > size[1] {
			t.Errorf("at %dx%d the screen has %d rows", size[0], size[1], n)
		}
	}
}
