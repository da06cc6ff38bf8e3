package engine

import (
	"strings"
	"testing"
	"time"
)

func TestCleanIntentionFoldsWhitespace(t *testing.T) {
	for in, want := range map[string]string{
		"":                                    "",
		"  sleep  ":                           "sleep",
		"calm\n\tbefore   a\r\ntalk":          "calm before a talk",
		"ünïcödé — fine … 🙂":                  "ünïcödé — fine … 🙂",
		strings.Repeat("é", MaxIntention):     strings.Repeat("é", MaxIntention), // runes, not bytes
		" " + strings.Repeat("a", 120) + "\n": strings.Repeat("a", 120),
	} {
		got, err := CleanIntention(in)
		if err != nil || got != want {
			t.Errorf("CleanIntention(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestCleanIntentionRefuses(t *testing.T) {
	for in, says := range map[string]string{
		"\x1b]0;pwned\a \x1b[2J":            "an escape character",
		"sleep\a":                           "a bell character",
		"calm \u202eklat a erofeb":          "bidirectional-text control (U+202E)",
		"rest \u2066x\u2069":                "U+2066",
		"nul\x00":                           "a null character",
		"c1 \u009b2J":                       "U+009B",
		"bad \xff":                          "not valid text",
		strings.Repeat("a", MaxIntention+1): "121 characters long; it holds at most 120",
		strings.Repeat("x", 130_000):        "130000 characters long",
	} {
		got, err := CleanIntention(in)
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("CleanIntention(%.40q) = %q, %v; want a refusal saying %q", in, got, err, says)
		}
	}
}

func TestNewStateAppliesTheRule(t *testing.T) {
	if _, err := NewState("x", Options{Length: 10 * time.Minute, Intention: "sleep\x1b[2J"}, epoch); err == nil {
		t.Error("NewState took an intention with an escape sequence")
	}
	if _, err := NewState("x", Options{Length: 10 * time.Minute, Intention: strings.Repeat("a", 200)}, epoch); err == nil {
		t.Error("NewState took a 200-character intention")
	}
	st, err := NewState("x", Options{Length: 10 * time.Minute, Intention: " calm\nbefore  a talk "}, epoch)
	if err != nil || st.Intention != "calm before a talk" {
		t.Errorf("NewState: %q, %v", st.Intention, err)
	}
}

func TestKeptIntentionNeverRefuses(t *testing.T) {
	for in, want := range map[string]string{
		"\x1b]0;pwned\a calm\nbefore \u202ea talk\x1b[2J": "calm before a talk",
		strings.Repeat("ab ", 100):                        strings.TrimSpace(strings.Repeat("ab ", 40)[:MaxIntention-1]) + "…",
	} {
		got := KeptIntention(in)
		if got != want {
			t.Errorf("KeptIntention(%.40q) = %q, want %q", in, got, want)
		}
		if _, err := CleanIntention(got); err != nil {
			t.Errorf("KeptIntention(%.40q) = %q does not pass the rule: %v", in, got, err)
		}
	}
}
