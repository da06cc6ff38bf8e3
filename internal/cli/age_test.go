package cli

import (
	"strings"
	"testing"
	"time"
)

func TestParseAge(t *testing.T) {
	t.Parallel()
	day := 24 * time.Hour
	for in, want := range map[string]time.Duration{"30d": 30 * day, "2w": 14 * day, "12h": 12 * time.Hour, "1mo": 30 * day,
		"3MO": 90 * day, " 7d ": 7 * day, "1h": time.Hour} {
		if got, err := parseAge(in); err != nil || got != want {
			t.Errorf("parseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0d", "-3d", "d", "30", "3x", "1.5d", "soon", "99999999999999d", "1y", "1h30m", "2dd", "1 d"} {
		if got, err := parseAge(in); err == nil {
			t.Errorf("parseAge(%q) = %v, want an error", in, got)
		}
	}
	// m is minutes to Go and months to most people: refused, saying what
	// to write instead.
	for _, in := range []string{"1m", "90m", "1M", "1h30m", "5min"} {
		_, err := parseAge(in)
		if err == nil || !strings.Contains(err.Error(), "minutes or months") || !strings.Contains(err.Error(), "mo") {
			t.Errorf("parseAge(%q): %v; want a refusal that says m is minutes or months and to write mo", in, err)
		}
	}
}
