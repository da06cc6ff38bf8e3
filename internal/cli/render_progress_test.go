package cli

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The render's bar fits every terminal, from a wide one to the narrowest,
// for a long render too: never into the last column, where the terminal
// would wrap it and each redraw leave a line behind. It says as much as
// fits: the times, then the label, go before the percentage.
func TestRenderBarFitsEveryWidth(t *testing.T) {
	for _, total := range []time.Duration{10 * time.Minute, time.Hour} {
		for width := 1; width <= 80; width++ {
			p := &renderProgress{width: width, total: total}
			for _, pct := range []int{0, 7, 50, 99, 100} {
				line := p.bar(pct, total*time.Duration(pct)/100)
				if n := utf8.RuneCountInString(line); n >= width && width > 4 {
					t.Errorf("%v at %d columns, %d%%: a line of %d: %q", total, width, pct, n, line)
				}
				if !strings.Contains(line, "%") {
					t.Errorf("%v at %d columns: no percentage in %q", total, width, line)
				}
			}
		}
	}
	for _, c := range []struct {
		width int
		want  string
	}{
		{80, "] 100%  10:00 of 10:00"},
		{40, "Rendering [██"},
		{30, "[██"},
	} {
		p := &renderProgress{width: c.width, total: 10 * time.Minute}
		if line := p.bar(100, 10*time.Minute); !strings.Contains(line, c.want) {
			t.Errorf("at %d columns the bar is %q, want it to hold %q", c.width, line, c.want)
		}
	}
}
