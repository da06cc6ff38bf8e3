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

// chime is one ringing of the bowl, computed as it plays: a few
// oscillators and envelopes instead of eight seconds of samples held for
// the whole session (1.4 MB at 44.1 kHz). Its samples peak at 1.
type chime struct {
	lo, hi    [len(bowlPartials)]oscillator
	env, fall [len(bowlPartials)]float64
	i, n      int
	sr, scale float64
	// Between attack and release both ramps are exactly 1: no need to
	// work them out for every sample.
	attack, release int
}

// newChime strikes the bowl at rate.
func newChime(rate beep.SampleRate) chime { return ringing(rate, bowlScale(rate)) }

// ringing is a strike at rate whose samples are scaled by scale.
func ringing(rate beep.SampleRate, scale float64) chime {
	s := chime{n: rate.N(time.Duration(bowlLength * float64(time.Second))), sr: float64(rate), scale: scale}
	s.attack = int(math.Ceil(bowlAttack*s.sr)) + 1
	s.release = int((bowlLength-bowlRelease)*s.sr) - 1
	for j, p := range bowlPartials {
		f := bowlPitch * p.ratio
		s.lo[j], s.hi[j] = newOscillator(f, s.sr, 0), newOscillator(f+p.beat, s.sr, 0)
		s.env[j], s.fall[j] = p.amp, math.Exp(-math.Log(1000)/p.decay/s.sr) // −60 dB over decay seconds
	}
	return s
}

// next is the chime's next sample; left is how many remain.
//
//go:norace
func (s *chime) next() float64 {
	var v float64
	for j := range s.lo {
		v += s.env[j] * (s.lo[j].next() + 0.6*s.hi[j].next())
		s.env[j] *= s.fall[j]
	}
	v *= s.scale
	if s.i < s.attack || s.i > s.release {
		t := float64(s.i) / s.sr
		v *= smoothstep(t/bowlAttack) * smoothstep((bowlLength-t)/bowlRelease)
	}
	s.i++
	return v
}

func (s *chime) left() int { return s.n - s.i }

// bowlScale is what brings a chime at rate to a peak of 1: found once per
// rate by striking it silently, before anything plays.
func bowlScale(rate beep.SampleRate) float64 {
	bowlScales.Lock()
	defer bowlScales.Unlock()
	if v, ok := bowlScales.m[rate]; ok {
		return v
	}
	var peak float64
	for s := ringing(rate, 1); s.left() > 0; {
		peak = math.Max(peak, math.Abs(s.next()))
	}
	bowlScales.m[rate] = 1 / peak
	return 1 / peak
}

var bowlScales = struct {
	sync.Mutex
	m map[beep.SampleRate]float64
}{m: map[beep.SampleRate]float64{}}

// smoothstep rises from 0 to 1 as x goes from 0 to 1, with no corner at
// either end.
func smoothstep(x float64) float64 {
	x = math.Max(0, math.Min(1, x))
	return x * x * (3 - 2*x)
}
