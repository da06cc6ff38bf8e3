package audio

import (
	"math"
	"time"

	"github.com/gopxl/beep/v2"
)

// The silence a voice leaves around its words is trimmed to a breath of
// its own: espeak-ng ends every clip with about half a second of nothing,
// flite begins with a fifth of one. Left in, a cue timed to its part of
// the breath would run past it in silence, and every silence the engine
// plans would be longer than planned.
const (
	keepBefore = 30 * time.Millisecond
	keepAfter  = 120 * time.Millisecond
	// quietBelow is what counts as silence, against the clip's peak: well
	// under the softest consonant's tail.
	quietBelow = -45.0 // dB
)

// trimSilence returns clip without its leading and trailing silence
// beyond keepBefore and keepAfter. A clip that is silence throughout is
// returned as it is.
func trimSilence(clip []float32, rate beep.SampleRate) []float32 {
	var peak float32
	for _, s := range clip {
		peak = max(peak, s, -s)
	}
	if peak == 0 {
		return clip
	}
	floor := peak * float32(math.Pow(10, quietBelow/20))
	loud := func(s float32) bool { return s > floor || s < -floor }
	first, last := -1, -1
	for i, s := range clip {
		if loud(s) {
			first = i
			break
		}
	}
	for i := len(clip) - 1; i >= 0; i-- {
		if loud(clip[i]) {
			last = i
			break
		}
	}
	if first < 0 {
		return clip
	}
	from := max(first-rate.N(keepBefore), 0)
	to := min(last+1+rate.N(keepAfter), len(clip))
	return clip[from:to]
}
