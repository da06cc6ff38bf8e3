//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An age prune could take for another is refused: --older-than 1m would
// be a minute to a Go duration and a month to the person typing it, and
// prune deletes on the difference. Months are mo; days d, weeks w.
func TestPruneRefusesAnAgeInM(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	spokenSession(t, home, "20260101-120000-aaaa") // an hour and a half old
	for _, age := range []string{"1m", "90m"} {
		out, errOut, err := lull(t, home, "1", "sessions", "prune", "--older-than", age, "--yes")
		if err == nil {
			t.Errorf("prune --older-than %s --yes succeeded:\n%s%s", age, out, errOut)
		}
		if !strings.Contains(errOut, "minutes or months") || !strings.Contains(errOut, "mo") {
			t.Errorf("prune --older-than %s does not say what to write instead:\n%s", age, errOut)
		}
		if strings.Contains(out, "Deleted") {
			t.Errorf("prune --older-than %s deleted:\n%s", age, out)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "sessions", "20260101-120000-aaaa")); err != nil {
		t.Fatalf("the session is gone: %v", err)
	}
	for _, age := range []string{"1mo", "2w", "3d"} {
		out, errOut, err := lull(t, home, "1", "sessions", "prune", "--older-than", age)
		if err != nil || !strings.Contains(out, "No session is older than "+age) {
			t.Errorf("prune --older-than %s (%v):\n%s%s", age, err, out, errOut)
		}
	}
	out, errOut, err := lull(t, home, "1", "sessions", "prune", "--older-than", "30m")
	if err == nil || out != "" {
		t.Errorf("prune --older-than 30m (%v):\n%s%s", err, out, errOut)
	}
}
