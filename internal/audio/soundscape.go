package audio

import (
	"fmt"
	"math"
	"strings"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/human"
)

// Soundscapes are the ambient beds lull synthesizes, in the order the
// listener cycles through them.
var Soundscapes = []string{"rain", "ocean", "brown", "drone", "none"}

// CheckSoundscape refuses a soundscape lull does not make.
func CheckSoundscape(name string) error {
	for _, s := range Soundscapes {
		if s == name {
			return nil
		}
	}
	return fmt.Errorf("unknown soundscape %q (choose %s)%s", name, strings.Join(Soundscapes, ", "), human.DidYouMean(name, Soundscapes))
}

// newSoundscape builds an endless soundscape; nil for "none". The mix
// fades it in and out.
func newSoundscape(name string, rate beep.SampleRate, seed uint64) (beep.Streamer, error) {
	switch name {
	case "rain":
		return newRain(rate, seed), nil
	case "ocean":
		return newOcean(rate, seed), nil
	case "brown":
		return newBrown(rate, seed), nil
	case "drone":
		return newDrone(rate, seed), nil
	case "none", "":
		return nil, nil
	}
	return nil, CheckSoundscape(name)
}

// noise is a small, fast generator of white noise in [-1, 1).
type noise uint64

func (x *noise) next() float64 {
	// xorshift64*
	*x ^= *x >> 12
	*x ^= *x << 25
	*x ^= *x >> 27
	v := uint64(*x) * 2685821657736338717
	return float64(v>>11)/(1<<52) - 1
}

// noiseFrom is a generator seeded from s: the multiply spreads nearby
// seeds far apart, and the low bit keeps it off zero, where xorshift
// would stay.
func noiseFrom(s uint64) noise { return noise(s*0x9e3779b97f4a7c15 | 1) }

// split is a new generator seeded from this one. Each step of a generator
// waits on the one before; separate streams are worked on side by side.
func (x *noise) split() noise {
	x.next()
	return noiseFrom(uint64(*x))
}

// brown is brown noise — white noise integrated, so its energy falls
// toward the treble like distant surf or wind — softened further by a low
// pass, with a slow swell in its level. The left and right channels share
// half their noise: wide, but never two separate sounds.
type brown struct {
	rng        noise
	leak, step float64 // the integrator: step in, leak out (keeps it off DC)
	lowpass    float64
	acc, low   [3]float64 // integrators and low-passed values: left, right, shared
	swell      swell
}

// brownLevel is the standard deviation brown aims for before the mix's gains.
const brownLevel = 0.1

func newBrown(rate beep.SampleRate, seed uint64) *brown {
	sr := float64(rate)
	b := &brown{
		rng:     noiseFrom(seed),
		leak:    1 - 2*math.Pi*12/sr,             // a 12 Hz high pass
		lowpass: 1 - math.Exp(-2*math.Pi*700/sr), // a 700 Hz low pass
		swell:   newSwell(rate),
	}
	// An integrator of uniform noise (variance 1/3) settles at a variance of
	// step²/3/(1−leak²); the low pass barely touches a signal this dark.
	b.step = brownLevel * math.Sqrt(3*(1-b.leak*b.leak))
	return b
}

//go:norace
func (b *brown) Stream(samples [][2]float64) (int, bool) {
	for i := range samples {
		for c := range b.acc {
			b.acc[c] = b.acc[c]*b.leak + b.rng.next()*b.step
			b.low[c] += b.lowpass * (b.acc[c] - b.low[c])
		}
		g := b.swell.next()
		shared := b.low[2] * 0.7
		samples[i][0] = (b.low[0]*0.7 + shared) * g
		samples[i][1] = (b.low[1]*0.7 + shared) * g
	}
	return len(samples), true
}

func (b *brown) Err() error { return nil }

// blocks counts a soundscape's samples in blocks of size: its slow parts
// (levels, pitches, waves) move once a block, and glide between.
type blocks struct{ size, left int }

// next counts a sample and reports whether it begins a block, as the
// first one does.
//
//go:norace
func (b *blocks) next() bool {
	begins := b.left == 0
	if begins {
		b.left = b.size
	}
	b.left--
	return begins
}

// swell is a level that rises and falls over tens of seconds, from two
// slow waves whose periods never line up, so it never audibly repeats.
type swell struct {
	a, b   oscillator
	blocks blocks  // between updates of the waves
	g, dg  float64 // current gain and its per-sample glide
}

func newSwell(rate beep.SampleRate) swell {
	const every = 64
	return swell{
		a:      newOscillator(1.0/19, float64(rate)/every, 0),
		b:      newOscillator(1.0/47, float64(rate)/every, 1),
		blocks: blocks{size: every},
		g:      0.8,
	}
}

//go:norace
func (s *swell) next() float64 {
	if s.blocks.next() {
		target := 0.8 + 0.12*s.a.next() + 0.08*s.b.next()
		s.dg = (target - s.g) / float64(s.blocks.size)
	}
	s.g += s.dg
	return s.g
}

// oscillator is a sine by rotation: no call to math.Sin per step.
type oscillator struct{ c, s, cos, sin float64 }

func newOscillator(freq, rate, phase float64) oscillator {
	w := 2 * math.Pi * freq / rate
	return oscillator{c: math.Cos(phase), s: math.Sin(phase), cos: math.Cos(w), sin: math.Sin(w)}
}

//go:norace
func (o *oscillator) next() float64 {
	o.c, o.s = o.c*o.cos-o.s*o.sin, o.c*o.sin+o.s*o.cos
	return o.s
}
