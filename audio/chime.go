package audio

import (
	"math"
	"sync"
	"time"

	"github.com/gopxl/beep/v2"
)

// A singing bowl: inharmonic partials, each a slightly detuned pair so it
// beats slowly the way a struck bowl wavers, each fading at its own pace —
// the low hum lingers, the bright overtones go first.
type partial struct {
	ratio float64 // to the fundamental
	amp   float64
	decay float64 // seconds to fall by 60 dB
	beat  float64 // Hz between the pair
}

const (
	bowlPitch   = 196.0 // G3: low and warm
	bowlLength  = 8.0   // seconds, tail included: the closing hold
	bowlAttack  = 0.008 // a soft strike: no click
	bowlRelease = 1.5   // the last seconds glide to zero
)

var bowlPartials = [...]partial{
	{1.00, 1.00, 8.0, 0.9},
	{2.71, 0.45, 5.5, 1.7},
	{5.02, 0.22, 3.2, 2.3},
	{8.18, 0.10, 1.8, 3.1},
	{11.9, 0.04, 1.0, 3.7},
}

// bowl is one strike at rate, mono, peaking at 1. It is rendered once per
// rate and shared: every chime plays the same samples.
func bowl(rate beep.SampleRate) []float32 {
	bowls.Lock()
	defer bowls.Unlock()
	if b, ok := bowls.m[rate]; ok {
		return b
	}
	b := renderBowl(rate)
	bowls.m[rate] = b
	return b
}

var bowls = struct {
	sync.Mutex
	m map[beep.SampleRate][]float32
}{m: map[beep.SampleRate][]float32{}}

// renderBowl writes one strike straight into its float32 samples, then
// scales them to the peak: a scratch copy in float64, three times the
// size, was allocated at the moment a session starts.
func renderBowl(rate beep.SampleRate) []float32 {
	out := make([]float32, rate.N(time.Duration(bowlLength*float64(time.Second))))
	var peak float64
	strikeBowl(float64(rate), len(out), func(i int, v float64) {
		out[i] = float32(v)
		peak = math.Max(peak, math.Abs(v))
	})
	for i, v := range out {
		out[i] = float32(float64(v) / peak)
	}
	return out
}

// strikeBowl gives each of the n samples of one strike at rate sr to put.
func strikeBowl(sr float64, n int, put func(i int, v float64)) {
	var lo, hi [len(bowlPartials)]oscillator
	var env, fall [len(bowlPartials)]float64
	for j, p := range bowlPartials {
		f := bowlPitch * p.ratio
		lo[j], hi[j] = newOscillator(f, sr, 0), newOscillator(f+p.beat, sr, 0)
		env[j], fall[j] = p.amp, math.Exp(-math.Log(1000)/p.decay/sr) // −60 dB over decay seconds
	}
	for i := range n {
		var v float64
		for j := range bowlPartials {
			v += env[j] * (lo[j].next() + 0.6*hi[j].next())
			env[j] *= fall[j]
		}
		t := float64(i) / sr
		put(i, v*smoothstep(t/bowlAttack)*smoothstep((bowlLength-t)/bowlRelease))
	}
}

// smoothstep rises from 0 to 1 as x goes from 0 to 1, with no corner at
// either end.
func smoothstep(x float64) float64 {
	x = math.Max(0, math.Min(1, x))
	return x * x * (3 - 2*x)
}
