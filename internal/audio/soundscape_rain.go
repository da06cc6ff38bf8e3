package audio

import (
	"math"

	"github.com/gopxl/beep/v2"
)

// rain is steady, soft rainfall: a bed of band-passed noise — the hiss of
// countless far drops — and over it near droplets, each landing at a random
// moment and place across the stereo field. How hard it rains drifts slowly,
// and the bed and the droplets follow it together.
type rain struct {
	rate      float64
	rng       noise         // the droplets' noise, and when and how they land
	bedNoise  [3]noise      // the bed's: left, right and shared, three streams so none waits on another
	bed       [2]bandpass   // left, right
	bedGain   float64       // brings the bed's noise to rainBed
	level     glide         // the bed's level, following the downpour
	downpour  float64       // how hard it rains: 0 light … 1 heavy
	gusts     [2]oscillator // the downpour's two slow waves
	blocks    blocks        // of rainBlock samples
	untilDrop int           // samples until the next droplet lands
	droplets  []droplet
}

const (
	rainBlock   = 64    // samples between updates of the downpour
	rainBed     = 0.03  // the bed's standard deviation before the mix's gains
	dropLevel   = 0.065 // the loudest droplet's standard deviation at its peak
	maxDroplets = 24    // sounding at once; a crowd beyond that is not heard apart
)

func newRain(rate beep.SampleRate, seed uint64) *rain {
	sr := float64(rate)
	r := &rain{
		rate:   sr,
		rng:    noiseFrom(seed ^ 0x7261696e),
		blocks: blocks{size: rainBlock},
	}
	for c := range r.bed {
		// Around 2 kHz and wide: most of rain's hiss, none of its rumble.
		r.bed[c] = newBandpass(2000, 0.6, sr)
	}
	// The bed's input is uniform noise of variance 1/3.
	probe := r.bed[0]
	r.bedGain = 1 / (whiteGain(probe.step) * math.Sqrt(1.0/3))
	for c := range r.bedNoise {
		r.bedNoise[c] = r.rng.split()
	}
	r.gusts[0] = newOscillator(1.0/53, sr/rainBlock, 2*math.Pi*r.rng.unit())
	r.gusts[1] = newOscillator(1.0/137, sr/rainBlock, 2*math.Pi*r.rng.unit())
	r.drift()
	r.level = glide{v: r.level.target(rainBlock)} // start where it means to be
	r.untilDrop = r.interval()
	r.droplets = make([]droplet, 0, maxDroplets)
	return r
}

//go:norace
func (r *rain) Stream(samples [][2]float64) (int, bool) {
	for i := range samples {
		if r.blocks.next() {
			r.drift()
		}
		if r.untilDrop--; r.untilDrop <= 0 {
			r.land()
			r.untilDrop = r.interval()
		}
		// Left and right share some of their noise: one rain, wide.
		shared := r.bedNoise[2].next() * 0.6
		g := r.level.next()
		left := r.bed[0].step(r.bedNoise[0].next()*0.8+shared) * g
		right := r.bed[1].step(r.bedNoise[1].next()*0.8+shared) * g
		for j := 0; j < len(r.droplets); {
			d := &r.droplets[j]
			y := d.ring.step(r.rng.next() * (d.fall - d.rise))
			left += y * d.left
			right += y * d.right
			d.fall *= d.kFall
			if d.rise *= d.kRise; d.rise < 1e-12 {
				d.rise = 0 // long gone; spare the slow arithmetic of vanishing numbers
			}
			if d.fall < 1e-3 { // −60 dB: it has gone, and leaving is silent
				last := len(r.droplets) - 1
				r.droplets[j] = r.droplets[last]
				r.droplets = r.droplets[:last]
				continue
			}
			j++
		}
		samples[i] = [2]float64{left, right}
	}
	return len(samples), true
}

func (r *rain) Err() error { return nil }

// drift moves the downpour along two slow waves whose periods never line
// up, and sets the bed's level to glide toward it over the next block.
func (r *rain) drift() {
	r.downpour = 0.5 + 0.3*r.gusts[0].next() + 0.2*r.gusts[1].next()
	r.level.toward(rainBed*r.bedGain*(0.8+0.4*r.downpour), rainBlock)
}

// interval is the wait, in samples, for the next droplet: the gaps of
// drops falling independently, 4 a second in a drizzle, 30 in a downpour.
func (r *rain) interval() int {
	perSecond := 4 + 26*r.downpour
	return 1 + int(-math.Log(1-r.rng.unit())*r.rate/perSecond)
}

// droplet is one near drop: noise shaped by two decaying exponentials — a
// fast one taken from a slow one, so it rises smoothly from zero instead of
// clicking on — rung through a band pass: wide for a tap, narrow for a plink.
type droplet struct {
	ring         bandpass
	fall, rise   float64 // the slow and the fast exponential; fall − rise is the envelope
	kFall, kRise float64
	left, right  float64 // pan and loudness
}

// land starts a droplet somewhere in the stereo field.
func (r *rain) land() {
	if len(r.droplets) == maxDroplets {
		return
	}
	freq := 1500 * math.Pow(3.3, r.rng.unit()) // 1.5–5 kHz
	q := 1.5 + 6*math.Pow(r.rng.unit(), 2)     // mostly taps, a few plinks
	attack := (0.25 + 0.6*r.rng.unit()) * 1e-3 * r.rate
	decay := (3 + 18*r.rng.unit()) * 1e-3 * r.rate
	// Most droplets are faint; a few land close.
	loud := dropLevel * (0.1 + 0.9*math.Pow(r.rng.unit(), 2))
	pan := r.rng.unit() * math.Pi / 2
	// The envelope peaks where the two exponentials are furthest apart;
	// starting both at 1/peak makes that peak 1.
	t := math.Log(decay/attack) * attack * decay / (decay - attack)
	start := 1 / (math.Exp(-t/decay) - math.Exp(-t/attack))
	ring := newBandpass(freq, q, r.rate)
	// A band pass with peak gain 1 passes about π·f/(q·rate) of white
	// noise's power; the noise in is uniform, of variance 1/3.
	g := loud / math.Sqrt(math.Pi*freq/(q*r.rate)/3)
	r.droplets = append(r.droplets, droplet{
		ring: ring,
		fall: start, rise: start,
		kFall: math.Exp(-1 / decay), kRise: math.Exp(-1 / attack),
		left: g * math.Cos(pan), right: g * math.Sin(pan),
	})
}

// bandpass is a two-pole band pass with a peak gain of 1 (the audio EQ
// cookbook's), in transposed direct form II.
type bandpass struct{ b0, a1, a2, z1, z2 float64 }

func newBandpass(freq, q, rate float64) bandpass {
	freq = min(freq, 0.45*rate) // a low output rate must not fold it over
	sin, cos := math.Sincos(2 * math.Pi * freq / rate)
	alpha := sin / (2 * q)
	a0 := 1 + alpha
	return bandpass{b0: alpha / a0, a1: -2 * cos / a0, a2: (1 - alpha) / a0}
}

func (f *bandpass) step(x float64) float64 {
	y := f.b0*x + f.z1
	f.z1 = f.z2 - f.a1*y
	f.z2 = -f.b0*x - f.a2*y
	return y
}

// whiteGain is how much a filter, given by its step from rest, scales the
// standard deviation of white noise: the root of its impulse response's
// energy.
func whiteGain(step func(x float64) float64) float64 {
	var e float64
	x := 1.0
	for range 1 << 14 {
		y := step(x)
		e += y * y
		x = 0
	}
	return math.Sqrt(e)
}

// glide is a control that moves in a straight line to each new target, one
// step a sample, so a change made once a block never steps.
type glide struct{ v, dv float64 }

// toward sets the glide to reach target in n samples.
func (g *glide) toward(target float64, n int) { g.dv = (target - g.v) / float64(n) }

// target is where the glide will be after n more samples.
func (g *glide) target(n int) float64 { return g.v + g.dv*float64(n) }

func (g *glide) next() float64 {
	g.v += g.dv
	return g.v
}

// unit is uniform noise in [0, 1).
func (x *noise) unit() float64 { return (x.next() + 1) / 2 }
