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

var bowlPartials = []partial{
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

func renderBowl(rate beep.SampleRate) []float32 {
	n := rate.N(time.Duration(bowlLength * float64(time.Second)))
	sr := float64(rate)
	buf := make([]float64, n)
	for _, p := range bowlPartials {
		f := bowlPitch * p.ratio
		lo, hi := newOscillator(f, sr, 0), newOscillator(f+p.beat, sr, 0)
		env, fall := p.amp, math.Exp(-math.Log(1000)/p.decay/sr) // −60 dB over decay seconds
		for i := range buf {
			buf[i] += env * (lo.next() + 0.6*hi.next())
			env *= fall
		}
	}
	var peak float64
	for i, v := range buf {
		t := float64(i) / sr
		v *= smoothstep(t/bowlAttack) * smoothstep((bowlLength-t)/bowlRelease)
		buf[i] = v
		peak = math.Max(peak, math.Abs(v))
	}
	out := make([]float32, n)
	for i, v := range buf {
		out[i] = float32(v / peak)
	}
	return out
}

// smoothstep rises from 0 to 1 as x goes from 0 to 1, with no corner at
// either end.
func smoothstep(x float64) float64 {
	x = math.Max(0, math.Min(1, x))
	return x * x * (3 - 2*x)
}
