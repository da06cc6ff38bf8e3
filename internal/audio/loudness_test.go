package audio

import (
	"math"
	"testing"
	"time"
)

// toneClip is d of a sine at amplitude a, between lead and tail of
// silence, at the output rate.
func toneClip(a float64, lead, d, tail time.Duration) []float32 {
	clip := make([]float32, Rate.N(lead)+Rate.N(d)+Rate.N(tail))
	start := Rate.N(lead)
	for i := range Rate.N(d) {
		clip[start+i] = float32(a * math.Sin(2*math.Pi*220*float64(i)/float64(Rate)))
	}
	return clip
}

func TestLevelMeasuresTheSpeechNotTheSilenceAround(t *testing.T) {
	// Half a second of tone at −30 dBFS RMS, inside two seconds of
	// silence: levelled to −20 over the tone, whatever the silence.
	for _, silence := range []time.Duration{0, time.Second, 3 * time.Second} {
		clip := toneClip(math.Sqrt2*math.Pow(10, -30.0/20), silence, 500*time.Millisecond, silence)
		level(clip, Rate, 0)
		tone := clip[Rate.N(silence)+Rate.N(20*time.Millisecond) : Rate.N(silence)+Rate.N(480*time.Millisecond)]
		if got := dBFS(clipRMS(tone)); math.Abs(got+20) > 0.1 {
			t.Errorf("with %v of silence either side: the tone is at %.2f dBFS, want −20", silence, got)
		}
	}
}

func TestLevelSoftensByTheDeliverysDecibels(t *testing.T) {
	for _, soften := range []float64{0, 3, 9, -4} {
		clip := toneClip(0.5, 0, time.Second, 0)
		level(clip, Rate, soften)
		want := -20 - max(soften, 0) // softening is never a boost
		if got := dBFS(clipRMS(clip)); math.Abs(got-want) > 0.1 {
			t.Errorf("softened by %v dB: %.2f dBFS, want %.2f", soften, got, want)
		}
	}
}

func TestLevelLimitsPeaksSmoothly(t *testing.T) {
	// A quiet tone with one loud click: the gain that brings the tone to
	// −20 would push the click far past full scale.
	clip := toneClip(0.05, 0, time.Second, 0)
	click := Rate.N(500 * time.Millisecond)
	clip[click] = 0.9
	level(clip, Rate, 0)
	ceiling := math.Pow(10, peakCeiling/20)
	var peak float64
	for _, s := range clip {
		peak = max(peak, math.Abs(float64(s)))
	}
	if peak > ceiling+1e-6 {
		t.Errorf("peak %.3f, above the ceiling %.3f", peak, ceiling)
	}
	// The gain dips around the click and eases back: no step from one
	// sample to the next larger than the tone's own.
	for i := 1; i < len(clip); i++ {
		if d := math.Abs(float64(clip[i] - clip[i-1])); d > 0.9 {
			t.Fatalf("a jump of %.2f at sample %d", d, i)
		}
	}
	if got := dBFS(clipRMS(clip[:click-Rate.N(200*time.Millisecond)])); math.Abs(got+20) > 0.5 {
		t.Errorf("the tone away from the click is at %.2f dBFS, want −20", got)
	}
}

func TestLevelLeavesSilenceAndHissAlone(t *testing.T) {
	clip := make([]float32, Rate.N(time.Second))
	clip[100] = 1e-5 // −100 dBFS: no speech
	level(clip, Rate, 0)
	if clip[100] != 1e-5 {
		t.Errorf("a near-silent clip was made %v", clip[100])
	}
	// flite's "..." is a breath of noise near −60 dBFS: not raised to −20.
	hiss := toneClip(math.Sqrt2*math.Pow(10, -60.0/20), 0, 200*time.Millisecond, 0)
	level(hiss, Rate, 0)
	if got := dBFS(clipRMS(hiss)); got > -59 {
		t.Errorf("hiss at −60 dBFS was raised to %.1f", got)
	}
	// A clip near −52 dBFS over its speech (one moment at −35) is raised
	// by at most 20 dB.
	quiet := toneClip(math.Sqrt2*math.Pow(10, -55.0/20), 0, time.Second, 0)
	for i := range Rate.N(10 * time.Millisecond) {
		quiet[i] *= float32(math.Pow(10, 20.0/20))
	}
	before := dBFS(clipRMS(quiet))
	level(quiet, Rate, 0)
	if got := dBFS(clipRMS(quiet)) - before; math.Abs(got-maxGain) > 0.1 {
		t.Errorf("a quiet clip was raised by %.1f dB, want %v", got, maxGain)
	}
	level(nil, Rate, 0) // nothing to level
}
