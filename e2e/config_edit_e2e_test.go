//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lull config edit on a terminal: a config lull refuses is explained with
// its line and the one meant, and the listener is asked whether to edit it
// again; yes opens the editor once more, and a good config ends it.
func TestConfigEditOnATerminalAsksToEditAgain(t *testing.T) {
	t.Parallel()
	home, dir := t.TempDir(), t.TempDir()
	count := filepath.Join(dir, "count")
	// The first edit misspells a key; the second mends it.
	editor := fileAt(t, filepath.Join(dir, "editor"), `#!/bin/sh
n=$(cat `+count+` 2>/dev/null || echo 0); n=$((n + 1)); echo $n > `+count+`
if [ $n = 1 ]; then echo "lenght: 20" >> "$1"; else sed -i 's/^lenght:/length:/' "$1"; fi
`, 0o700)
	s := newScreen(t, []string{"LULL_HOME=" + home, "VISUAL=" + editor}, "config", "edit")
	s.waitFor("Edit it again? [Y/n]", 30*time.Second)
	pane := flat(s.lines()) // lull wraps between words to fit the terminal
	if !strings.Contains(pane, "unknown key lenght") || !strings.Contains(pane, `did you mean "length"?`) {
		t.Errorf("the refusal does not say what is wrong:\n%s", pane)
	}
	s.send("y", "Enter")
	s.waitFor("__EXIT=", 30*time.Second)
	pane = flat(s.lines())
	if !strings.Contains(pane, "is good: lull will use it.") || !strings.Contains(pane, "__EXIT=0") {
		t.Errorf("after the second edit:\n%s", pane)
	}
	b, err := os.ReadFile(filepath.Join(home, "config.yaml"))
	if err != nil || !strings.HasSuffix(string(b), "\nlength: 20\n") {
		t.Errorf("the config is %q, %v", b, err)
	}
}
