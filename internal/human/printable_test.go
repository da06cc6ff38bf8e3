package human

import (
	"strings"
	"testing"
)

func TestLineRemovesWhatActsOnATerminal(t *testing.T) {
	cases := map[string]string{
		"sleep":                                     "sleep",
		"\x1b]0;pwned\a \x1b[2J":                    "",
		"calm\x1b]0;pwned\x1b\\ before a talk":      "calm before a talk",
		"red \x1b[31;1mtext\x1b[0m":                 "red text",
		"reset\x1bc here; save\x1b7 cursor":         "reset here; save cursor",
		"charset \x1b(B set":                        "charset set",
		"c1 \u009b2J csi and \u009d0;t\u009c osc":   "c1 csi and osc",
		"unended \x1b]0;the rest is a title":        "unended",
		"bell\a bs\b del\x7f nul\x00":               "bell bs del nul",
		"two\nlines\r\nand\ttab  and  spaces":       "two lines and tab and spaces",
		"bidi \u202eevil\u202c and \u2066iso\u2069": "bidi evil and iso",
		"bad \xff byte":                             "bad \uFFFD byte",
		"lone escape at the end \x1b":               "lone escape at the end",
		"  padded  ":                                "padded",
		"ünïcödé — fine … 🙂":                        "ünïcödé — fine … 🙂",
	}
	for in, want := range cases {
		got := Line(in)
		if got != want {
			t.Errorf("Line(%q) = %q, want %q", in, got, want)
		}
		if strings.ContainsFunc(got, func(r rune) bool { return Control(r) != "" }) {
			t.Errorf("Line(%q) = %q still holds a control", in, got)
		}
	}
}

func TestLinesKeepsLineBreaks(t *testing.T) {
	in := "session x is interrupted: 401 \x1b[2Jbad key sk-canary-5f0d2b7e9c41a3.\r\nRetry with: lull resume x\n  indented\t"
	want := "session x is interrupted: 401 bad key REDACTED.\nRetry with: lull resume x\n  indented"
	if got := Lines(in); got != want {
		t.Errorf("Lines:\n got %q\nwant %q", got, want)
	}
}

func TestLineRedacts(t *testing.T) {
	in := "see https://user:pw@h.example/v1?token=abc and sk-canary-5f0d2b7e9c41a3"
	want := "see https://h.example/v1?token=REDACTED and REDACTED"
	if got := Line(in); got != want {
		t.Errorf("Line(%q) = %q, want %q", in, got, want)
	}
}

func TestControlNamesWhatItFinds(t *testing.T) {
	for r, want := range map[rune]string{
		0x1b: "escape", 0x07: "bell", 0x9b: "U+009B", 0x202e: "bidirectional", 0x2067: "bidirectional",
		'\n': "line break", '\t': "tab", 0x01: "U+0001",
	} {
		if got := Control(r); !strings.Contains(got, want) {
			t.Errorf("Control(%U) = %q, want it to say %q", r, got, want)
		}
	}
	for _, r := range "aé—…🙂 \u200d" {
		if got := Control(r); got != "" {
			t.Errorf("Control(%U) = %q, want none", r, got)
		}
	}
}

// Invisible characters — zero-width spaces, the byte-order mark, word
// joiners, tag characters — are removed wherever text is shown, and
// refused in an intention: they hide what a session's file holds.
func TestInvisibleCharactersAreRemoved(t *testing.T) {
	for _, r := range []rune{0x200b, 0x200c, 0xfeff, 0x2060, 0xe0041, 0x180e} {
		in := "calm" + string(r) + "before"
		if got := Line(in); got != "calmbefore" {
			t.Errorf("Line(%q) = %q, want calmbefore", in, got)
		}
		if !strings.Contains(Control(r), "invisible") {
			t.Errorf("Control(%U) = %q, want it named invisible", r, Control(r))
		}
	}
}
