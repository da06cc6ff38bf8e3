package cli

import (
	"runtime"
	"strings"
	"testing"
)

// lull --version and -v say what lull version says.
func TestVersionFlagSaysWhatTheCommandSays(t *testing.T) {
	home := t.TempDir()
	want, _, code := runIn(t, home, "version")
	if code != 0 || !strings.HasPrefix(want, "lull "+version+" ("+runtime.Version()) {
		t.Fatalf("lull version: exit %d, %q", code, want)
	}
	for _, flag := range []string{"--version", "-v"} {
		got, stderr, code := runIn(t, home, flag)
		if code != 0 || got != want || stderr != "" {
			t.Errorf("lull %s: exit %d, %q (stderr %q); want %q", flag, code, got, stderr, want)
		}
	}
}
