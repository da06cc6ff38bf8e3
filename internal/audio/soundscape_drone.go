package audio

import (
	"math"

	"github.com/gopxl/beep/v2"
)

// drone is a warm chord that drifts: a low root with its fifth, octave, a
// soft third and the twelfth, each a sine a few cents out of tune. Each
// tone swells and fades on its own slow cycles and wanders a little in
// pitch and across the stereo field. Above the root, each ear hears its
// tone a fraction of a hertz apart from the other, so the chord turns slowly
// between the ears — and, where the two meet in the air, breathes in a beat
// slower than once a second — while the root holds still beneath.
type drone struct {
	rate   float64
	tones  []chordTone
	wander oscillator // the whole chord's pitch drift
	blocks blocks     // of droneBlock samples
}

// chordTone is one tone of the chord: a sine for each ear.
type chordTone struct {
	osc         [2]oscillator // left, right
	hz          [2]float64    // their tuning, before the drift
	cents       oscillator    // its own pitch drift
	amp, depth  float64       // its level, and how far below it the swell dips
	swell       [2]oscillator
	place       float64 // its seat in the stereo field: 0 left … 1 right
	roam        oscillator
	left, right glide
}

// droneChord is the chord, as ratios to the root: just intervals, so no
// two tones come near enough to beat; spread is the most, in hertz, the
// right ear's tone sits above the left's.
var droneChord = []struct{ ratio, amp, depth, spread float64 }{
	{1, 0.100, 0.15, 0}, // root: steady and centred, it carries the level
	{1.5, 0.056, 0.35, 0.2},
	{2, 0.048, 0.35, 0.25},
	{2.5, 0.022, 0.60, 0.3}, // the third, an octave up where it is soft
	{3, 0.020, 0.60, 0.3},
	{4, 0.010, 0.60, 0.3},
}

// droneRoots are the roots a seed picks from: A1, C2, D2.
var droneRoots = []float64{55, 65.41, 73.42}

const (
	droneBlock  = 256 // samples between updates of pitch, level and place
	droneDetune = 4.0 // cents each tone sits off true, at most
	droneWander = 3.0 // cents the whole chord drifts by
	droneStray  = 1.5 // cents each tone drifts by on its own
)

func newDrone(rate beep.SampleRate, seed uint64) *drone {
	sr := float64(rate)
	rng := noiseFrom(seed ^ 0x64726f6e65)
	slow := sr / droneBlock
	// between is a period in seconds in [lo, hi): periods drawn apart never line up.
	between := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.unit() }
	phase := func() float64 { return 2 * math.Pi * rng.unit() }
	root := droneRoots[int(rng.unit()*float64(len(droneRoots)))]
	d := &drone{
		rate:   sr,
		wander: newOscillator(1/between(150, 240), slow, phase()),
		blocks: blocks{size: droneBlock},
	}
	for i, c := range droneChord {
		hz := root * c.ratio * math.Exp2(droneDetune*(2*rng.unit()-1)/1200)
		apart := c.spread * between(0.3, 1)
		place := 0.5
		if i > 0 {
			place = between(0.2, 0.8)
		}
		// The ears' tones set off together: the root, in unison, is one sine.
		start := phase()
		d.tones = append(d.tones, chordTone{
			osc:   [2]oscillator{newOscillator(hz, sr, start), newOscillator(hz+apart, sr, start)},
			hz:    [2]float64{hz, hz + apart},
			cents: newOscillator(1/between(50, 130), slow, phase()),
			amp:   c.amp, depth: c.depth,
			swell: [2]oscillator{
				newOscillator(1/between(23, 61), slow, phase()),
				newOscillator(1/between(67, 131), slow, phase()),
			},
			place: place,
			roam:  newOscillator(1/between(40, 110), slow, phase()),
		})
	}
	d.drift()
	for i := range d.tones {
		t := &d.tones[i]
		t.left, t.right = glide{v: t.left.target(droneBlock)}, glide{v: t.right.target(droneBlock)}
	}
	return d
}

//go:norace
func (d *drone) Stream(samples [][2]float64) (int, bool) {
	for i := range samples {
		if d.blocks.next() {
			d.drift()
		}
		var left, right float64
		for j := range d.tones {
			t := &d.tones[j]
			left += t.osc[0].next() * t.left.next()
			right += t.osc[1].next() * t.right.next()
		}
		samples[i] = [2]float64{left, right}
	}
	return len(samples), true
}

func (d *drone) Err() error { return nil }

// drift moves each tone's pitch, level and place a block along their slow
// cycles. Retuning keeps the oscillator's phase, so the pitch bends without
// a seam; the level and place glide there across the block.
func (d *drone) drift() {
	wander := droneWander * d.wander.next()
	for j := range d.tones {
		t := &d.tones[j]
		bend := math.Exp2((wander + droneStray*t.cents.next()) / 1200)
		for e := range t.osc {
			o := &t.osc[e]
			o.sin, o.cos = math.Sincos(2 * math.Pi * t.hz[e] * bend / d.rate)
			// Rounding would slowly grow or shrink the rotation over an
			// hour: pull it back onto the unit circle.
			k := 1.5 - 0.5*(o.c*o.c+o.s*o.s)
			o.c *= k
			o.s *= k
		}
		swell := 0.5 + 0.5*(0.6*t.swell[0].next()+0.4*t.swell[1].next())
		amp := t.amp * (1 - t.depth*swell)
		place := min(max(t.place+0.15*t.roam.next(), 0), 1) * math.Pi / 2
		t.left.toward(amp*math.Cos(place), droneBlock)
		t.right.toward(amp*math.Sin(place), droneBlock)
	}
}
