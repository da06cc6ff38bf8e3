//go:build unix

package e2e

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Issue 26: lull render is never silent while it works. To a pipe it says
// how far it has come, a line at each tenth, ending at 100 %; on a
// terminal it draws a bar over itself, fitted to the terminal.
func TestRenderShowsItsProgress(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	out := filepath.Join(t.TempDir(), "calm.wav")
	_, errOut, err := lull(t, home, "1", "render", "--length", "10", "--voice", "none", "--out", out)
	if err != nil {
		t.Fatalf("lull render: %v\n%s", err, errOut)
	}
	lines := regexp.MustCompile(`(?m)^Rendering: (\d+)%$`).FindAllStringSubmatch(errOut, -1)
	if len(lines) < 2 || lines[0][1] != "0" || lines[len(lines)-1][1] != "100" {
		t.Fatalf("the progress lines:\n%s", errOut)
	}
	for i := 1; i < len(lines); i++ {
		a, _ := strconv.Atoi(lines[i-1][1])
		b, _ := strconv.Atoi(lines[i][1])
		if b <= a || b%10 != 0 {
			t.Errorf("the progress goes %d%% then %d%%:\n%s", a, b, errOut)
		}
	}
	if strings.Contains(errOut, "█") || strings.Contains(errOut, "\r") {
		t.Errorf("a bar was drawn into a pipe:\n%q", errOut)
	}

	// On a terminal of any width one bar, drawn over itself: at 40
	// columns it once wrapped, and each redraw left a line behind.
	for _, c := range []struct {
		cols int
		want string
	}{
		{80, "] 100%  10:00 of 10:00"},
		{60, "] 100%  10:00 of 10:00"},
		{40, "] 100%"},
		{30, "] 100%"},
	} {
		s := sizedScreen(t, c.cols, []string{"LULL_HOME=" + home}, "render", "--length", "10", "--voice", "none", "--out", filepath.Join(t.TempDir(), "bar.wav"))
		s.waitFor("__EXIT=0", time.Minute)
		pane := s.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "lull")
		if !strings.Contains(pane, "[█") || !strings.Contains(pane, c.want) || strings.Contains(pane, "Rendering: ") || strings.Count(pane, "[█") != 1 {
			t.Errorf("at %d columns, not one bar ending %q on the terminal:\n%s", c.cols, c.want, pane)
		}
		fitsTerminal(t, s, c.cols, "", "the render's bar")
	}
}
