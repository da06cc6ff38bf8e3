package crisis

import (
	"testing"

	"github.com/lull-dev/lull/internal/testutil/heaptest"

	"github.com/lull-dev/lull/internal/prompts"
)

// The crisis concepts' tries likewise (0.53 MB with a map per node).
func TestCrisisLexiconIsCompact(t *testing.T) {
	held := heaptest.Held(func() any {
		lx, err := parseLexicon(prompts.CrisisConcepts)
		if err != nil {
			t.Fatal(err)
		}
		return lx
	})
	t.Logf("%.2f MB", held)
	if held > 0.45 {
		t.Errorf("the crisis lexicon holds %.2f MB; want at most 0.45", held)
	}
}
