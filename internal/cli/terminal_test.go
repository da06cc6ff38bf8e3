package cli

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// answering is a terminal's input that says answer, or nothing at all.
func answering(t *testing.T, answer string) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	if answer != "" {
		if _, err := w.WriteString(answer); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// A terminal that never answers is given up on: the query returns, with
// no colour, and the output goes on in dark. (The test's own deadline is
// the only bound on how long; terminalQueryTimeout says how long.)
func TestABackgroundQueryNobodyAnswersGivesUp(t *testing.T) {
	var asked bytes.Buffer
	bg, err := queryBackground(answering(t, ""), &asked, terminalQueryTimeout)
	if bg != nil || !errors.Is(err, errNoAnswer) {
		t.Errorf("got %v, %v; want no colour and errNoAnswer", bg, err)
	}
	if asked.String() != ansi.RequestBackgroundColor+ansi.RequestPrimaryDeviceAttributes {
		t.Errorf("asked %q", asked.String())
	}
	if terminalQueryTimeout > 300e6 {
		t.Errorf("terminalQueryTimeout is %v: a terminal that does not answer holds lull up", terminalQueryTimeout)
	}
}

func TestABackgroundQueryReadsTheAnswer(t *testing.T) {
	const da1 = "\x1b[?62;22c"
	for _, c := range []struct {
		answer string
		dark   bool
		none   bool
	}{
		{"\x1b]11;rgb:ffff/ffff/ffff\x07" + da1, false, false},  // light, ended by BEL
		{"\x1b]11;rgb:1e1e/1e1e/2e2e\x1b\\" + da1, true, false}, // dark, ended by ST
		{da1, true, true}, // a terminal that does not know OSC 11 says only its attributes
	} {
		bg, err := queryBackground(answering(t, c.answer), new(bytes.Buffer), terminalQueryTimeout)
		if err != nil || (bg == nil) != c.none || (bg != nil && tea.BackgroundColorMsg{Color: bg}.IsDark() != c.dark) {
			t.Errorf("%q: %v, %v", strings.ReplaceAll(c.answer, "\x1b", "ESC"), bg, err)
		}
	}
}

// Files that are not a terminal are not asked: dark.
func TestDarkBackgroundWithoutATerminal(t *testing.T) {
	r := answering(t, "")
	if !darkBackground(r, r) {
		t.Error("not a terminal, and not dark")
	}
}
