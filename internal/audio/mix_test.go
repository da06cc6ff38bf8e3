package audio

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

func constClip(n int, v float32) []float32 {
	c := make([]float32, n)
	for i := range c {
		c[i] = v
	}
	return c
}

func seg(clip []float32, silence int) *segment {
	return &segment{clip: clip, silence: silence, done: make(chan struct{})}
}

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// pull streams n samples from m in chunks of size, the way a paced output
// does, and returns them.
func pull(m *mix, n, size int) [][2]float64 {
	out := make([][2]float64, 0, n)
	buf := make([][2]float64, size)
	for len(out) < n {
		k, _ := m.fill(buf[:min(size, n-len(out))])
		out = append(out, buf[:k]...)
	}
	return out
}

func TestVoiceTrackPlaysSegmentsBackToBack(t *testing.T) {
	m := newMix(8000)
	a, rest, b := seg(constClip(1000, 0.5), 0), seg(nil, 500), seg(constClip(300, -0.5), 0)
	m.queue(a)
	m.queue(rest)
	m.queue(b)

	buf := make([][2]float64, 4096)
	n, starved := m.fill(buf)
	if n != 1000 || starved || !closed(a.done) || closed(rest.done) {
		t.Fatalf("first fill: %d samples, starved %v; the clip should end the fill at 1000", n, starved)
	}
	if want := 0.5 * voiceGain; math.Abs(buf[999][0]-want) > 1e-6 {
		t.Errorf("clip sample %v, want %v", buf[999][0], want)
	}
	n, starved = m.fill(buf)
	if n != 500 || starved || !closed(rest.done) {
		t.Fatalf("rest: %d samples, starved %v", n, starved)
	}
	for _, s := range buf[:n] {
		if s != [2]float64{} {
			t.Fatal("the rest is not silent")
		}
	}
	n, starved = m.fill(buf)
	if n != 300 || !starved || !closed(b.done) {
		t.Fatalf("last clip: %d samples, starved %v; the track ran dry and should say so", n, starved)
	}
	n, starved = m.fill(buf)
	if n != len(buf) || starved {
		t.Errorf("an empty track: %d samples, starved %v; time should flow", n, starved)
	}
	if m.played != int64(1800+len(buf)) {
		t.Errorf("clock at %d samples", m.played)
	}
}

func TestPauseFreezesAndResumesAtTheSameSample(t *testing.T) {
	m := newMix(8000)
	ramp := make([]float32, 1000)
	for i := range ramp {
		ramp[i] = float32(i+1) / 1000
	}
	m.queue(seg(ramp, 0))
	got := pull(m, 400, 100)
	m.paused = true
	frozen := pull(m, 300, 100)
	for _, s := range frozen {
		if s != [2]float64{} {
			t.Fatal("sound while paused")
		}
	}
	if m.played != 400 {
		t.Errorf("the clock moved while paused: %d", m.played)
	}
	m.paused = false
	got = append(got, pull(m, 600, 100)...)
	for i, s := range got {
		if want := float64(ramp[i]) * voiceGain; math.Abs(s[0]-want) > 1e-6 {
			t.Fatalf("sample %d is %v, want %v: the resume did not continue where it stopped", i, s[0], want)
		}
	}
}

func TestDroppedSegmentNeverPlays(t *testing.T) {
	m := newMix(8000)
	a, b := seg(constClip(100, 0.5), 0), seg(constClip(100, 0.9), 0)
	m.queue(a)
	m.queue(b)
	m.voice.drop(b)
	out := pull(m, 400, 400)
	for i, s := range out[100:] {
		if s[0] != 0 {
			t.Fatalf("sample %d of a dropped segment played", 100+i)
		}
	}
}

// dc is a soundscape of constant level, to watch the gains move.
type dc float64

func (d dc) Stream(s [][2]float64) (int, bool) {
	for i := range s {
		s[i] = [2]float64{float64(d), float64(d)}
	}
	return len(s), true
}
func (dc) Err() error { return nil }

func TestVoiceDucksTheSoundscapeSmoothly(t *testing.T) {
	const rate = 8000
	m := newMix(rate)
	m.setSoundscape("dc", dc(1))
	full := ambientGain
	// Fade in, then a long clip of silence-valued speech, then nothing.
	out := pull(m, 3*rate, 160)
	if got := out[len(out)-1][0]; math.Abs(got-full) > 1e-6 {
		t.Fatalf("after the fade in the soundscape is at %v, want %v", got, full)
	}
	if out[0][0] > 0.01 {
		t.Errorf("the soundscape starts at %v, not faded in", out[0][0])
	}
	m.queue(seg(constClip(2*rate, 0), 0))
	out = append(out, pull(m, 3*rate, 160)...)
	ducked := out[5*rate-1][0]
	if math.Abs(ducked-full*duckGain) > 1e-6 {
		t.Errorf("under the voice the soundscape is at %v, want %v", ducked, full*duckGain)
	}
	maxStep := 0.0
	for i := 1; i < len(out); i++ {
		maxStep = math.Max(maxStep, math.Abs(out[i][0]-out[i-1][0]))
	}
	// The fastest ramp (the duck) moves (1-duckGain)·ambientGain in duckRamp seconds.
	if limit := 2 * (1 - duckGain) * full / (duckRamp * rate); maxStep > limit {
		t.Errorf("a gain step of %v per sample (limit %v): that clicks", maxStep, limit)
	}
}

// clickCheck fails when a signal clips or jumps by more than a quarter of
// full scale from one sample to the next.
func clickCheck(t *testing.T, name string, s [][2]float64) (peak, rms float64) {
	t.Helper()
	var sum float64
	for i, v := range s {
		for c := range v {
			peak = math.Max(peak, math.Abs(v[c]))
			sum += v[c] * v[c]
			if i > 0 && math.Abs(v[c]-s[i-1][c]) > 0.25 {
				t.Fatalf("%s: a click at sample %d: %v → %v", name, i, s[i-1][c], v[c])
			}
		}
	}
	if peak >= 1 {
		t.Errorf("%s clips: peak %v", name, peak)
	}
	return peak, math.Sqrt(sum / float64(2*len(s)))
}

func TestSoundscapesAreSoftAndClickFree(t *testing.T) {
	for _, name := range Soundscapes {
		s, err := newSoundscape(name, Rate, 1)
		if err != nil {
			t.Fatal(err)
		}
		m := newMix(Rate)
		m.setSoundscape(name, s)
		out := pull(m, Rate.N(40*time.Second), 1024)
		peak, rms := clickCheck(t, name, out)
		t.Logf("%s: peak %.3f, rms %.4f (%.1f dBFS)", name, peak, rms, 20*math.Log10(rms+1e-12))
		if name == "none" {
			if peak != 0 {
				t.Errorf("none is not silent")
			}
			continue
		}
		if db := 20 * math.Log10(rms); db < -40 || db > -18 {
			t.Errorf("%s at %.1f dBFS: it should sit softly under a voice", name, db)
		}
		if math.Abs(out[0][0]) > 1e-3 {
			t.Errorf("%s does not fade in: first sample %v", name, out[0][0])
		}
	}
}

func TestSoundscapeSwitchCrossfades(t *testing.T) {
	m := newMix(Rate)
	b, _ := newSoundscape("brown", Rate, 1)
	m.setSoundscape("brown", b)
	out := pull(m, Rate.N(5*time.Second), 1024)
	m.setSoundscape("none", nil)
	out = append(out, pull(m, Rate.N(5*time.Second), 1024)...)
	clickCheck(t, "brown → none", out)
	if len(m.layers) != 0 {
		t.Errorf("%d layers left after fading out", len(m.layers))
	}
	if tail := out[len(out)-1]; tail != [2]float64{} {
		t.Errorf("still sounding after the fade: %v", tail)
	}
}

func TestChimeRingsAndFadesWithoutAClick(t *testing.T) {
	var b []float64
	for s := newChime(Rate); s.left() > 0; {
		b = append(b, s.next())
	}
	if math.Abs(b[0]) > 1e-3 {
		t.Errorf("the strike starts at %v: a click", b[0])
	}
	if last := b[len(b)-1]; math.Abs(last) > 1e-3 {
		t.Errorf("the tail ends at %v, not silence", last)
	}
	m := newMix(Rate)
	m.strike()
	out := pull(m, len(b)+1000, 4096)
	peak, _ := clickCheck(t, "chime", out)
	if peak < chimeGain*0.9 {
		t.Errorf("the chime peaks at %v", peak)
	}
	if len(m.chimes) != 0 {
		t.Error("the chime never finished")
	}
	// Its energy falls over time: a bowl, not a beep.
	early, late := energy(out[Rate.N(time.Second):Rate.N(2*time.Second)]), energy(out[Rate.N(6*time.Second):Rate.N(7*time.Second)])
	if late > early/4 {
		t.Errorf("the chime barely decays: %v then %v", early, late)
	}
}

func energy(s [][2]float64) float64 {
	var e float64
	for _, v := range s {
		e += v[0] * v[0]
	}
	return e
}

var _ beep.Streamer = dc(0)

// A silence that strikes the bowl (Player.RestStriking) strikes it as it
// begins, on the track's own timeline: at the first sample after the
// silence before it, whatever the buffer's size, and once.
func TestASilenceStrikesTheBowlAsItBegins(t *testing.T) {
	m := newMix(8000)
	before, after := seg(nil, 1500), seg(nil, 2000)
	after.strike = true
	m.queue(before)
	m.queue(after)
	buf := make([][2]float64, 1024)
	for m.played < 1500 {
		if len(m.chimes) != 0 {
			t.Fatalf("the bowl was struck at sample %d, before the silence that strikes it", m.played)
		}
		m.fill(buf)
	}
	if m.played != 1500 {
		t.Fatalf("the first silence ended at sample %d", m.played)
	}
	m.fill(buf)
	if len(m.chimes) != 1 {
		t.Fatalf("%d chimes as the striking silence began", len(m.chimes))
	}
	var peak float64
	for _, s := range buf {
		peak = max(peak, math.Abs(s[0]))
	}
	if peak == 0 {
		t.Error("the strike is not heard in the buffer where it falls")
	}
	for !closed(after.done) {
		m.fill(buf)
	}
	if len(m.chimes) > 1 {
		t.Errorf("struck %d times", len(m.chimes))
	}
}

// A sleep session's bowl (Player.SoftChimes) rings at softChime of a
// waking one's, in a real render; a player set back rings in full again.
func TestASleepSessionsBowlRingsSoftly(t *testing.T) {
	peak := func(soft ...bool) float64 {
		var buf seekBuffer
		p, err := Open(Options{Voice: "none", Soundscape: "none", Render: &buf})
		if err != nil {
			t.Fatal(err)
		}
		for _, on := range soft {
			p.SoftChimes(on)
		}
		p.Chime()
		if err := p.Rest(context.Background(), 9*time.Second); err != nil {
			t.Fatal(err)
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		mono, _, err := decodeWAV(buf.b)
		if err != nil {
			t.Fatal(err)
		}
		var top float64
		for _, v := range mono {
			top = max(top, math.Abs(float64(v)))
		}
		return top
	}
	full, soft, again := peak(), peak(true), peak(true, false)
	if full < chimeGain*0.8 {
		t.Errorf("a waking chime peaks at %.3f", full)
	}
	// At least 6 dB down, and by exactly the soft level.
	if ratio := soft / full; ratio > 0.5 || math.Abs(ratio-softChime) > 0.03 {
		t.Errorf("a sleep session's chime peaks at %.3f of a waking one's, want %.2f", ratio, softChime)
	}
	if math.Abs(again-full) > 0.01 {
		t.Errorf("set back to full, the chime peaks at %.3f, a waking one at %.3f", again, full)
	}
}

// Unheard (the silent output), a chime keeps its time and makes no
// samples: it ends where a heard one ends, to the buffer.
func TestAnUnheardChimeKeepsItsTime(t *testing.T) {
	ends := map[bool]int64{}
	for _, unheard := range []bool{false, true} {
		m := newMix(Rate)
		m.unheard = unheard
		m.strike()
		buf := make([][2]float64, 4096)
		for len(m.chimes) > 0 {
			m.fill(buf)
			if unheard && slices.ContainsFunc(buf, func(s [2]float64) bool { return s != [2]float64{} }) {
				t.Fatal("an unheard chime made samples")
			}
		}
		ends[unheard] = m.played
	}
	if ends[true] != ends[false] {
		t.Errorf("an unheard chime ended at sample %d, a heard one at %d", ends[true], ends[false])
	}
}

// Unheard, the pacer makes no tone, and its breath is the clock's as a
// heard one's is; once stopped it is gone at the next buffer.
func TestAnUnheardPacerKeepsTheBreath(t *testing.T) {
	m := newMix(Rate)
	m.unheard = true
	m.pacer = newPacer(engine.DefaultBreath, 0)
	buf := make([][2]float64, 4096)
	for range 40 {
		m.fill(buf)
		if slices.ContainsFunc(buf, func(s [2]float64) bool { return s != [2]float64{} }) {
			t.Fatal("an unheard pacer made samples")
		}
	}
	want := engine.DefaultBreath.At(Rate.D(int(m.played)))
	if got := m.pacer.breath(m.played, float64(Rate)); got != want {
		t.Errorf("the breath at %v is %+v, want %+v", Rate.D(int(m.played)), got, want)
	}
	m.pacer.stopping = true
	m.fill(buf)
	if m.pacer != nil {
		t.Error("a stopped unheard pacer is still there")
	}
}
