package audio

import (
	"math"
	"testing"
	"time"
)

// A clip loses the silence around its words, beyond a short margin, and
// keeps every sample of the words themselves, their soft tail included.
func TestTrimSilenceKeepsTheWordsAndAMargin(t *testing.T) {
	silence := func(d time.Duration) []float32 { return make([]float32, Rate.N(d)) }
	words := make([]float32, Rate.N(time.Second))
	for i := range words {
		words[i] = float32(0.5 * math.Sin(float64(i)/7))
	}
	tail := make([]float32, Rate.N(50*time.Millisecond)) // a consonant's breath, 35 dB down
	for i := range tail {
		tail[i] = float32(0.009 * math.Sin(float64(i)/3))
	}
	clip := append(append(append(silence(200*time.Millisecond), words...), tail...), silence(600*time.Millisecond)...)
	got := trimSilence(clip, Rate)
	want := Rate.N(keepBefore) + len(words) + len(tail) + Rate.N(keepAfter)
	if d := len(got) - want; d < -Rate.N(time.Millisecond) || d > Rate.N(time.Millisecond) {
		t.Errorf("trimmed to %v, want %v", Rate.D(len(got)), Rate.D(want))
	}
	if got := trimSilence(silence(time.Second), Rate); len(got) != Rate.N(time.Second) {
		t.Errorf("a silent clip was trimmed to %v", Rate.D(len(got)))
	}
	short := append(silence(10*time.Millisecond), words...)
	if got := trimSilence(short, Rate); len(got) != len(short) {
		t.Errorf("a clip with less silence than the margins was cut to %v of %v", Rate.D(len(got)), Rate.D(len(short)))
	}
}
