package audio

import (
	"math"

	"github.com/gopxl/beep/v2"
)

// ocean is slow waves on a shore: noise through a low pass that opens as
// each wave rises and closes as it draws back, louder as it opens, with a
// hiss of swash as it breaks. No two waves take the same time or stand as
// high. Each ear hears the waves a moment apart, and which ear hears them
// first sways slowly, so the shore feels wide.
type ocean struct {
	rate   float64
	rng    noise
	wave   breaker
	past   []surge // the shore's sound, one a block, newest at now: the late ear reads back
	now    int
	sway   oscillator // which ear hears the waves first
	blocks blocks     // of oceanBlock samples
	ears   [2]ear
	// The swash band: the difference of two one-pole low passes.
	swashHigh, swashLow, swashGain float64
}

const (
	oceanBlock  = 64     // samples between updates of the waves
	oceanBody   = 0.072  // the body's standard deviation at a full crest, before the mix's gains
	oceanTrough = 0.25   // the body's level between waves, of a full crest
	oceanSwash  = 0.025  // the swash's standard deviation at a full crest
	oceanLow    = 170.0  // Hz: the low pass between waves, a rumble
	oceanHigh   = 1700.0 // Hz: the low pass at a full crest
	oceanLag    = 0.25   // seconds, on average, between the ears
	oceanSway   = 0.2    // seconds either way the lag sways by
)

// surge is the shore's sound at one moment: the body's level and how far
// its low pass is open (a one-pole coefficient), and the swash's level.
type surge struct{ level, open, swash float64 }

// breaker is the wave now coming in.
type breaker struct {
	phase, step float64 // 0 … 1 across the wave; its advance per block
	crest       float64 // the phase it breaks at
	height      float64 // 0 … 1
}

// ear is one channel: its filters, and the surge it glides along.
type ear struct {
	low1, low2         float64 // the body's two-pole low pass
	high, low          float64 // the swash band's one-poles
	level, open, swash glide
}

func newOcean(rate beep.SampleRate, seed uint64) *ocean {
	sr := float64(rate)
	o := &ocean{
		rate:      sr,
		rng:       noiseFrom(seed ^ 0x6f6365616e),
		blocks:    blocks{size: oceanBlock},
		past:      make([]surge, int((oceanLag+oceanSway)*sr/oceanBlock)+2),
		swashHigh: 1 - math.Exp(-2*math.Pi*min(6000, 0.4*sr)/sr),
		swashLow:  1 - math.Exp(-2*math.Pi*1200/sr),
	}
	// The swash's input is uniform noise of variance 1/3, like the body's.
	var high, low float64
	o.swashGain = 1 / (math.Sqrt(1.0/3) * whiteGain(func(x float64) float64 {
		high += o.swashHigh * (x - high)
		low += o.swashLow * (x - low)
		return high - low
	}))
	o.sway = newOscillator(1.0/89, sr/oceanBlock, 2*math.Pi*o.rng.unit())
	o.wave.begin(&o.rng, sr)
	o.wave.phase = o.rng.unit()
	// Fill the past, so the late ear has waves to hear from the start.
	for range o.past {
		o.advance()
	}
	o.listen()
	for c := range o.ears {
		e := &o.ears[c]
		e.level, e.open, e.swash = glide{v: e.level.target(oceanBlock)}, glide{v: e.open.target(oceanBlock)}, glide{v: e.swash.target(oceanBlock)}
	}
	return o
}

//go:norace
func (o *ocean) Stream(samples [][2]float64) (int, bool) {
	for i := range samples {
		if o.blocks.next() {
			o.advance()
			o.listen()
		}
		// Left and right share some of their noise: one sea, wide.
		shared := o.rng.next() * 0.6
		for c := range o.ears {
			e := &o.ears[c]
			x := o.rng.next()*0.8 + shared
			k := e.open.next()
			e.low1 += k * (x - e.low1)
			e.low2 += k * (e.low1 - e.low2)
			e.high += o.swashHigh * (x - e.high)
			e.low += o.swashLow * (x - e.low)
			samples[i][c] = e.low2*e.level.next() + (e.high-e.low)*e.swash.next()
		}
	}
	return len(samples), true
}

func (o *ocean) Err() error { return nil }

// advance moves the wave on by a block and records how the shore sounds.
func (o *ocean) advance() {
	w := &o.wave
	if w.phase += w.step; w.phase >= 1 {
		w.phase--
		w.begin(&o.rng, o.rate)
	}
	// A smooth rise to the crest and a smooth fall back: both ends flat and
	// at zero, so a new wave of another height or length joins seamlessly.
	var s float64
	if w.phase < w.crest {
		s = (1 - math.Cos(math.Pi*w.phase/w.crest)) / 2
	} else {
		s = (1 + math.Cos(math.Pi*(w.phase-w.crest)/(1-w.crest))) / 2
	}
	h := w.height * s
	cutoff := oceanLow * math.Exp(h*math.Log(oceanHigh/oceanLow))
	a := 1 - math.Exp(-2*math.Pi*cutoff/o.rate)
	// Two one-poles of coefficient a pass a⁴(1+p²)/(1−p²)³ of white noise's
	// power (p = 1−a); the noise in has variance 1/3. Dividing it out keeps
	// the level the envelope's, whatever the cutoff.
	p2 := (1 - a) * (1 - a)
	power := a * a * a * a * (1 + p2) / ((1 - p2) * (1 - p2) * (1 - p2)) / 3
	o.now = (o.now + 1) % len(o.past)
	o.past[o.now] = surge{
		level: oceanBody * (oceanTrough + (1-oceanTrough)*h) / math.Sqrt(power),
		open:  a,
		swash: oceanSwash * o.swashGain * h * h * h, // only near the crest
	}
}

// listen sets each ear gliding toward the shore as it hears it: one a
// little after the other.
func (o *ocean) listen() {
	sway := o.sway.next()
	for c, lag := range [2]float64{oceanLag + oceanSway*sway, oceanLag - oceanSway*sway} {
		back := lag * o.rate / oceanBlock
		i := int(back)
		f := back - float64(i)
		n := len(o.past)
		a, b := o.past[(o.now-i+n)%n], o.past[(o.now-i-1+n)%n]
		e := &o.ears[c]
		e.level.toward(a.level+(b.level-a.level)*f, oceanBlock)
		e.open.toward(a.open+(b.open-a.open)*f, oceanBlock)
		e.swash.toward(a.swash+(b.swash-a.swash)*f, oceanBlock)
	}
}

// begin starts a new wave: 8 to 14 seconds long, of its own height, breaking
// a little early or late.
func (w *breaker) begin(rng *noise, rate float64) {
	w.step = oceanBlock / ((8 + 6*rng.unit()) * rate)
	w.crest = 0.4 + 0.25*rng.unit()
	w.height = 0.55 + 0.45*rng.unit()
}
