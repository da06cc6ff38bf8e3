package audio

import (
	"math"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// The breathing pacer's tone: a soft, low sine whose pitch rises as the
// lungs fill and falls as they empty, heard on the inhale and the exhale
// and resting at the top and bottom. It reads the breath off the mix's own
// sample clock with engine.BreathPattern.At — the same function and clock
// the engine's Progress, and so the TUI's animation, read.
const (
	pacerPitch  = 174.0 // Hz with empty lungs
	pacerRise   = 0.26  // up to about a major third higher when full
	pacerGain   = 0.07
	pacerUpdate = 64  // samples between readings of the breath
	pacerFade   = 0.4 // seconds to fade the tone in or out at a stage's edge
)

// pacer is the tone's state inside the mix.
type pacer struct {
	pattern  engine.BreathPattern
	anchor   int64 // the mix's clock when the rhythm began
	stopping bool  // fading out for good

	osc   oscillator
	count int
	amp   float64 // current amplitude, gliding to target each update
	dAmp  float64
	freq  float64
}

func newPacer(pattern engine.BreathPattern, anchor int64) *pacer {
	return &pacer{pattern: pattern, anchor: anchor, osc: newOscillator(0, 1, 0), freq: pacerPitch}
}

// breath is the pacer's reading at the mix's clock now.
func (pc *pacer) breath(now int64, rate float64) engine.Breath {
	return pc.pattern.At(time.Duration(float64(now-pc.anchor) / rate * float64(time.Second)))
}

// level is how loud the tone is at a point in the breath: present through
// the inhale and exhale, fading at their ends, quieter holding, silent at
// the bottom.
func (pc *pacer) level(b engine.Breath) float64 {
	var stage time.Duration
	switch b.Stage {
	case engine.StageInhale:
		stage = pc.pattern.Inhale
	case engine.StageExhale:
		stage = pc.pattern.Exhale
	case engine.StageHold:
		return 0.45
	default:
		return 0
	}
	secs := stage.Seconds()
	in, left := b.Progress*secs, (1-b.Progress)*secs
	return math.Min(1, math.Min(in, left)/pacerFade)
}

// stream adds the tone into out; now is the mix's clock at out[0]. It
// reports false once a stopped tone has faded away.
func (pc *pacer) stream(out [][2]float64, now int64, rate float64, duck float64) bool {
	for i := range out {
		if pc.count == 0 {
			b := pc.breath(now+int64(i), rate)
			target := pc.level(b)
			if pc.stopping {
				target = math.Max(0, pc.amp-pacerUpdate/(pacerFade*rate))
			}
			pc.dAmp = (target - pc.amp) / pacerUpdate
			pc.freq = pacerPitch * (1 + pacerRise*b.Fill)
			w := 2 * math.Pi * pc.freq / rate
			// Keep the sine's position, change only its step; renormalize so
			// rounding never makes it grow or fade.
			r := math.Hypot(pc.osc.c, pc.osc.s)
			if r == 0 {
				pc.osc.c, r = 1, 1
			}
			pc.osc.c, pc.osc.s = pc.osc.c/r, pc.osc.s/r
			pc.osc.cos, pc.osc.sin = math.Cos(w), math.Sin(w)
			pc.count = pacerUpdate
			if pc.stopping && pc.amp <= 0 && target == 0 {
				return false
			}
		}
		pc.count--
		pc.amp += pc.dAmp
		v := pc.osc.next()
		// A touch of the octave warms it without brightening it.
		x := (v + 0.15*(2*v*pc.osc.c)) * pc.amp * pacerGain * duck
		out[i][0] += x
		out[i][1] += x
	}
	return true
}
