package audio

import (
	"math"
	"time"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// Levels, as linear gains.
const (
	voiceGain   = 0.85
	chimeGain   = 0.30
	ambientGain = 0.55
	// duckGain is the soundscape under the voice: about −4 dB.
	duckGain = 0.63
	// softChime is a sleep session's bowl against a waking one's: about
	// −8 dB, a mark between phases that does not call anyone back.
	softChime = 0.4
)

// voiceGlide is the voice's gain step per sample when it is switched on or
// off: about 50 ms from full to silent at 44.1 kHz.
const voiceGlide = voiceGain / 2205

// Volume is set in steps of engine.VolumeStepDB: the scale is the
// engine's (level 10 lull's own, 0 silent, 12 the loudest).
const (
	DefaultVolume = engine.DefaultVolume
	MaxVolume     = engine.MaxVolume
	volumeGlide   = 0.1 // seconds for the master gain to move one step
)

// Ramps: long enough never to click, short enough to follow speech.
const (
	duckRamp  = 0.35 // seconds from full to ducked
	layerFade = 2.0  // seconds for a soundscape to fade in or out
)

// layer is a soundscape with its own fade: a new one fades in while the
// old one fades out.
type layer struct {
	name   string
	s      beep.Streamer
	gain   float64
	target float64
	fade   float64 // seconds from silent to full, or back
}

// mix is the one streamer every output plays: the voice track over the
// soundscape, with the chimes ringing on top. It is only touched under
// the output's lock. While paused it gives silence and its clock stands
// still, so a resume continues at the same sample.
type mix struct {
	rate         beep.SampleRate
	paused       bool
	played       int64 // samples streamed while not paused: the session's clock
	voice        track
	layers       []*layer
	chimes       []chime // one per ringing chime
	soft         bool    // chimes ring softly: a sleep session's (Player.SoftChimes)
	pacer        *pacer  // the breathing pacer's tone, while it sounds
	master       float64 // the master gain, gliding to masterTarget
	masterTarget float64
	scape        float64 // the soundscape's own gain under the master, gliding to scapeTarget
	scapeTarget  float64
	duck         float64 // the soundscape's gain under the voice, ramped
	scratch      [][2]float64
	// unheard says no one hears this mix (the silent output): the
	// soundscape's gains still glide and its layers still end on time,
	// but its samples, half of a silent session's work, are not made.
	unheard bool
	// wake is signalled when a segment is queued, so an output that paused
	// for the voice track can go on at once.
	wake chan struct{}
}

func newMix(rate beep.SampleRate) *mix {
	bowlScale(rate) // now, not when the first chime strikes, under the output's lock
	return &mix{
		rate:   rate,
		voice:  track{gain: voiceGain, target: voiceGain},
		master: 1, masterTarget: 1,
		scape: 1, scapeTarget: 1,
		duck: 1,
		wake: make(chan struct{}, 1),
	}
}

// Stream fills samples whole, for outputs that simply play (the speaker).
func (m *mix) Stream(samples [][2]float64) (int, bool) {
	for done := 0; done < len(samples); {
		n, _ := m.fill(samples[done:])
		done += n
	}
	return len(samples), true
}

func (m *mix) Err() error { return nil }

var _ beep.Streamer = (*mix)(nil)

// fill streams into samples and stops early, right after a voice segment
// ends with nothing queued behind it. A paced output then gives the engine
// a moment to queue the next segment, so the time it takes to do so does
// not enter the timeline.
func (m *mix) fill(samples [][2]float64) (n int, starved bool) {
	clear(samples)
	if m.paused {
		return len(samples), false
	}
	speaking := m.voice.speaking() && m.voice.target > 0 // a muted voice ducks nothing
	if m.voice.striking() {
		m.strike() // at this buffer's first sample, where the segment begins
	}
	n, ended := m.voice.stream(samples, m.played)
	samples = samples[:n]
	m.ambient(samples, speaking)
	switch {
	case m.pacer == nil:
	case m.unheard:
		// No tone to make: the breath is read from the clock (Breath),
		// and a stopped tone has nothing to fade.
		if m.pacer.stopping {
			m.pacer = nil
		}
	case !m.pacer.stream(samples, m.played, float64(m.rate), m.duck):
		m.pacer = nil
	}
	m.ring(samples)
	if g0 := m.master; g0 != 1 || m.masterTarget != 1 {
		m.master = approach(g0, m.masterTarget, float64(n)/(volumeGlide*float64(m.rate)))
		for i := range samples {
			g := g0 + (m.master-g0)*float64(i)/float64(n)
			samples[i][0] *= g
			samples[i][1] *= g
		}
	}
	m.played += int64(n)
	return n, ended && m.voice.empty()
}

// ambient adds the soundscape layers, ducked while the voice speaks. Gains
// glide linearly across the buffer: a ramp never steps, so it never clicks.
func (m *mix) ambient(out [][2]float64, speaking bool) {
	n := len(out)
	target := 1.0
	if speaking {
		target = duckGain
	}
	duck0 := m.duck
	m.duck = approach(duck0, target, float64(n)*(1-duckGain)/(duckRamp*float64(m.rate)))
	// The soundscape's own level glides as the master does, within the
	// duck: each is a factor of the layers' gain, and neither touches the
	// voice.
	scape0 := m.scape
	m.scape = approach(scape0, m.scapeTarget, float64(n)/(volumeGlide*float64(m.rate)))
	duck0, duck1 := duck0*scape0, m.duck*m.scape
	if len(m.layers) == 0 || n == 0 {
		return
	}
	if cap(m.scratch) < n {
		m.scratch = make([][2]float64, n)
	}
	buf := m.scratch[:n]
	keep := m.layers[:0]
	for _, l := range m.layers {
		sn, ok := 0, true
		if !m.unheard {
			sn, ok = l.s.Stream(buf)
		}
		g0 := l.gain
		l.gain = approach(g0, l.target, float64(n)/(l.fade*float64(m.rate)))
		step := 1 / float64(n) // a multiplication a sample, not a division
		for i := range buf[:sn] {
			f := float64(i) * step
			g := (g0 + (l.gain-g0)*f) * (duck0 + (duck1-duck0)*f) * ambientGain
			out[i][0] += buf[i][0] * g
			out[i][1] += buf[i][1] * g
		}
		if ok && (l.gain > 0 || l.target > 0) {
			keep = append(keep, l)
		}
	}
	clear(m.layers[len(keep):])
	m.layers = keep
}

// ring adds the chimes that are still sounding. Unheard, a chime only
// keeps its time: working out its partials was a third of a silent
// session's CPU.
func (m *mix) ring(out [][2]float64) {
	keep := m.chimes[:0]
	for _, c := range m.chimes {
		if m.unheard {
			c.i += min(len(out), c.left())
		} else {
			for i := range out[:min(len(out), c.left())] {
				x := c.next() * chimeGain
				out[i][0] += x
				out[i][1] += x
			}
		}
		if c.left() > 0 {
			keep = append(keep, c)
		}
	}
	m.chimes = keep
}

// strike starts a chime ringing, softly when m.soft is set.
func (m *mix) strike() {
	c := newChime(m.rate)
	if m.soft {
		c.scale *= softChime
	}
	m.chimes = append(m.chimes, c)
}

// setSoundscape fades the current soundscape out and s in.
func (m *mix) setSoundscape(name string, s beep.Streamer) {
	for _, l := range m.layers {
		l.target = 0
	}
	if s != nil {
		m.layers = append(m.layers, &layer{name: name, s: s, target: 1, fade: layerFade})
	}
}

// volumeGain is the master gain of a volume level.
func volumeGain(level int) float64 {
	if level <= 0 {
		return 0
	}
	return math.Pow(10, engine.VolumeStepDB*float64(level-DefaultVolume)/20)
}

// fadeOut fades every soundscape away over d.
func (m *mix) fadeOut(d time.Duration) {
	for _, l := range m.layers {
		l.target, l.fade = 0, max(d.Seconds(), 0.1)
	}
}

// soundscape is the name of the soundscape fading in or playing.
func (m *mix) soundscape() string {
	for i := len(m.layers) - 1; i >= 0; i-- {
		if m.layers[i].target > 0 {
			return m.layers[i].name
		}
	}
	return "none"
}

// queue puts a segment on the voice track and wakes a waiting output.
func (m *mix) queue(s *segment) {
	m.voice.add(s)
	signal(m.wake)
}

// approach moves x toward target by at most step.
func approach(x, target, step float64) float64 {
	switch {
	case x < target:
		return math.Min(x+step, target)
	case x > target:
		return math.Max(x-step, target)
	}
	return x
}
