package audio

import (
	"math"
	"sync"
)

// A polyphase resampler for mono clips. Converting from one rate to
// another by the ratio up/down (the two rates over their gcd), output
// sample n sits at input position n·down/up: its integer part picks the
// input samples, its fraction — one of up phases — picks a row of
// precomputed weights. The weights are a Kaiser-windowed sinc whose
// cut-off is the lower of the two Nyquist frequencies, so upsampling
// leaves no images, and downsampling folds back only a little of what
// lies just past the lower Nyquist frequency. The kernel is symmetric
// about the output sample's own position: no delay, and a click at input
// sample k lands at output sample k·up/down, where the captions and the
// breath cues expect it.

// resampleZeros is how many zero crossings of the sinc each side of the
// output position the kernel spans at the lower rate: 32 taps when
// upsampling. With the window below, a tone up to four fifths of the
// lower Nyquist frequency passes within 90 dB of exact, and its images
// are 90 dB down (the TestResample… tests in resample_test.go measure
// both).
const resampleZeros = 16

// resampleBeta is the Kaiser window's shape: ripple and stopband about
// 90 dB down, the depth of a 16-bit clip.
const resampleBeta = 9.0

// maxPhases bounds the table cached for a rate pair: a pair whose ratio
// reduces to more phases (an odd rate such as 22051 Hz) gets its weights
// computed per sample instead of a table of megabytes.
const maxPhases = 4096

// polyphase is the weights for one rate pair: phase p's taps start at
// weights[p*taps], for the input samples from the output position's
// integer part minus lead.
type polyphase struct {
	up, down int
	taps     int
	lead     int
	cutoff   float64 // of the input's Nyquist
	half     float64 // the kernel's half-width, in input samples
	weights  []float32
	// exact marks the phases that fall on an input sample when the
	// cut-off is the input's own Nyquist: the sinc is zero at every
	// other sample, so the output is that sample (half of a 2× upsampling).
	exact []bool
}

var (
	polyphaseMu    sync.Mutex
	polyphaseCache = map[[2]int]*polyphase{}
)

// polyphaseFor is the filter from one rate to another, built once per
// pair: a voice synthesizes hundreds of clips at the same rate.
func polyphaseFor(from, to int) *polyphase {
	polyphaseMu.Lock()
	defer polyphaseMu.Unlock()
	key := [2]int{from, to}
	if f, ok := polyphaseCache[key]; ok {
		return f
	}
	f := newPolyphase(from, to)
	polyphaseCache[key] = f
	return f
}

func newPolyphase(from, to int) *polyphase {
	g := gcd(from, to)
	f := &polyphase{up: to / g, down: from / g}
	f.cutoff = min(1, float64(f.up)/float64(f.down))
	f.half = resampleZeros / min(1, float64(f.up)/float64(f.down))
	reach := int(math.Ceil(f.half))
	f.taps, f.lead = 2*reach, reach-1
	if f.up <= maxPhases {
		f.weights = make([]float32, f.up*f.taps)
		f.exact = make([]bool, f.up)
		for p := range f.up {
			w := f.weights[p*f.taps : (p+1)*f.taps]
			f.phase(p, w)
			f.exact[p] = impulse(w, f.lead)
		}
	}
	return f
}

// phase fills w with phase p's weights, normalized to sum to one so a
// steady level passes unchanged.
func (f *polyphase) phase(p int, w []float32) {
	frac := float64(p) / float64(f.up)
	var sum float64
	k := make([]float64, len(w))
	for j := range k {
		t := float64(j-f.lead) - frac // distance from the output position
		k[j] = f.kernel(t)
		sum += k[j]
	}
	for j := range w {
		w[j] = float32(k[j] / sum)
	}
}

// kernel is the windowed sinc at t input samples from the output position.
func (f *polyphase) kernel(t float64) float64 {
	if math.Abs(t) >= f.half {
		return 0
	}
	x := math.Pi * f.cutoff * t
	s := 1.0
	if x != 0 {
		s = math.Sin(x) / x
	}
	r := t / f.half
	return f.cutoff * s * besselI0(resampleBeta*math.Sqrt(1-r*r)) / besselI0(resampleBeta)
}

// besselI0 is the modified Bessel function of the first kind, order zero,
// by its power series (which converges quickly for the window's β).
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	for k := 1; k < 64; k++ {
		term *= (x / (2 * float64(k))) * (x / (2 * float64(k)))
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}

// convert resamples in: ⌈len·up/down⌉ samples, the input taken as silent
// beyond its ends.
//
//go:norace
func (f *polyphase) convert(in []float32) []float32 {
	n := (len(in)*f.up + f.down - 1) / f.down
	out := make([]float32, n)
	scratch := make([]float32, f.taps)
	// Output sample o sits at input position i + p/up, o·down = i·up + p:
	// each step moves it on by down/up.
	i, p := 0, 0
	step, carry := f.down/f.up, f.down%f.up
	for o := range out {
		if f.exact != nil && f.exact[p] {
			if i < len(in) {
				out[o] = in[i]
			}
		} else {
			w := scratch
			if f.weights != nil {
				w = f.weights[p*f.taps : (p+1)*f.taps]
			} else {
				f.phase(p, scratch)
			}
			out[o] = f.at(in, i-f.lead, w)
		}
		i, p = i+step, p+carry
		if p >= f.up {
			i, p = i+1, p-f.up
		}
	}
	return out
}

// at is the weighted sum of the input from start on, the input taken as
// silent beyond its ends.
//
//go:norace
func (f *polyphase) at(in []float32, start int, w []float32) float32 {
	if start >= 0 && start+len(w) <= len(in) {
		return dot(w, in[start:start+len(w)])
	}
	var acc float32
	for j, v := range w {
		if k := start + j; k >= 0 && k < len(in) {
			acc += v * in[k]
		}
	}
	return acc
}

// dot is the sum of w[j]·x[j], four at a time (taps is even, and a
// multiple of four for every rate pair but odd ones).
//
//go:norace
func dot(w, x []float32) float32 {
	x = x[:len(w)]
	var a0, a1, a2, a3 float32
	for len(w) >= 4 && len(x) >= 4 {
		a0 += w[0] * x[0]
		a1 += w[1] * x[1]
		a2 += w[2] * x[2]
		a3 += w[3] * x[3]
		w, x = w[4:], x[4:]
	}
	for i := range min(len(w), len(x)) {
		a0 += w[i] * x[i]
	}
	return (a0 + a1) + (a2 + a3)
}

// impulse says whether w is one at at and nothing anywhere else, to
// float32's precision.
func impulse(w []float32, at int) bool {
	for j, v := range w {
		if j != at && math.Abs(float64(v)) > 1e-9 || j == at && v != 1 {
			return false
		}
	}
	return true
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
