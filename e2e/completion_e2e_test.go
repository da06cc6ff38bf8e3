//go:build unix

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The shells' completion scripts, as a user installs them, ask the
// binary for session IDs (fish shows each with its intention) and for
// flag values.
func TestShellsCompleteSessionsAndValues(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if _, stderr, err := lull(t, home, "10000", "new", "--no-tui", "--length", "5", "--voice", "none", "--intention", "calm before a talk"); err != nil {
		t.Fatalf("a session: %v\n%s", err, stderr)
	}
	id, _ := onlySession(t, home)
	env := append(hermeticEnv(), "LULL_HOME="+home, "PATH="+filepath.Dir(lullBin)+string(os.PathListSeparator)+os.Getenv("PATH"))

	t.Run("fish", func(t *testing.T) {
		if _, err := exec.LookPath("fish"); err != nil {
			t.Skip("fish is not installed (make test installs it)")
		}
		out := shell(t, env, "fish", "-c", `lull completion fish | source
complete -C "lull replay "
complete -C "lull new --soundscape r"
complete -C "lull breathe b"`)
		for _, want := range []string{id + "\tcalm before a talk · completed", "rain\n", "box\t4 in, hold 4, 4 out, hold 4"} {
			if !strings.Contains(out, want) {
				t.Errorf("fish offered %q, want %q in it", out, want)
			}
		}
	})
	t.Run("bash", func(t *testing.T) {
		const bashCompletion = "/usr/share/bash-completion/bash_completion"
		if _, err := os.Stat(bashCompletion); err != nil {
			t.Skip("bash-completion is not installed (make test installs it)")
		}
		out := shell(t, env, "bash", "--norc", "-c", `source `+bashCompletion+`
source <(lull completion bash)
try() {
  read -ra COMP_WORDS <<< "$1"; [[ "$1" == *" " ]] && COMP_WORDS+=("")
  COMP_LINE="$1"; COMP_POINT=${#1}; COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
  __start_lull 2>/dev/null
  printf '%s\n' "${COMPREPLY[@]}"
}
try "lull sessions show "
try "lull new --voice espe"`)
		if got := strings.Fields(out); len(got) != 2 || got[0] != id || got[1] != "espeak-ng" {
			t.Errorf("bash offered %q, want %s and espeak-ng", got, id)
		}
	})
}

// shell runs a shell's script and returns what it printed.
func shell(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	return string(out)
}
