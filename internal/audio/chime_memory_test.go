package audio

import (
	"runtime"
	"testing"

	"github.com/gopxl/beep/v2"
)

// A mix holds no recording of the bowl: a chime is computed as it rings
// (eight seconds of samples were 1.4 MB, held for the whole session).
func TestAMixHoldsNoBowl(t *testing.T) {
	const rate = beep.SampleRate(47999) // a rate nothing else opens, so nothing is cached for it yet
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m := newMix(rate)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(m)
	if held := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20); held > 0.25 {
		t.Errorf("a mix holds %.2f MB; want at most 0.25", held)
	}
}
