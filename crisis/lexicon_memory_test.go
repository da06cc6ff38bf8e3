package crisis

import (
	"runtime"
	"testing"

	"lull/prompts"
)

// heapHeld is how much of the heap stays reachable while keep holds what
// build made, in MB.
func heapHeld(build func() any) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
}

// The crisis concepts' tries likewise (0.53 MB with a map per node).
func TestCrisisLexiconIsCompact(t *testing.T) {
	held := heapHeld(func() any {
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
