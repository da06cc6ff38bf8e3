package safety

import (
	"testing"

	"github.com/lull-dev/lull/internal/testutil/heaptest"

	"github.com/lull-dev/lull/internal/prompts"
)

// The compiled safety screen lives as long as a session: its tries step by
// sorted slices, not a map per node (2.7 MB when they did).
func TestSafetyScreenIsCompact(t *testing.T) {
	sr, err := prompts.Safety()
	if err != nil {
		t.Fatal(err)
	}
	held := heaptest.Held(func() any {
		sc, err := compileRules(sr)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	})
	t.Logf("%.2f MB", held)
	if held > 2 {
		t.Errorf("the compiled safety screen holds %.2f MB; want at most 2", held)
	}
}

// The whole screen lives as long as a session: the rules, the vocabulary
// (sorted words searched in place: a map held a megabyte and a half), and
// the classifier, read in place from the binary's own data.
func TestWholeScreenIsCompact(t *testing.T) {
	held := heaptest.Held(func() any { return newScreen(defaultRules()) })
	t.Logf("%.2f MB", held)
	if held > 2.5 {
		t.Errorf("the safety screen holds %.2f MB; want at most 2.5", held)
	}
}
