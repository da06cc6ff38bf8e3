package audio

import (
	"fmt"
	"math"
	"math/cmplx"
	"testing"

	"github.com/gopxl/beep/v2"
)

// beepResample is the resampler lull used before its own: beep's 8-point
// Lagrange interpolation on the clip copied into two channels. Kept here
// only as the yardstick the polyphase filter must match or beat.
func beepResample(mono []float32, from, to int) []float32 {
	r := beep.Resample(4, beep.SampleRate(from), beep.SampleRate(to), &monoSource{s: mono})
	var out []float32
	buf := make([][2]float64, 1024)
	for {
		n, ok := r.Stream(buf)
		for _, v := range buf[:n] {
			out = append(out, float32(v[0]))
		}
		if !ok {
			return out
		}
	}
}

type monoSource struct {
	s   []float32
	pos int
}

func (m *monoSource) Stream(samples [][2]float64) (int, bool) {
	if m.pos >= len(m.s) {
		return 0, false
	}
	n := min(len(samples), len(m.s)-m.pos)
	for i, v := range m.s[m.pos : m.pos+n] {
		samples[i] = [2]float64{float64(v), float64(v)}
	}
	m.pos += n
	return n, true
}

func (m *monoSource) Err() error { return nil }

// tone is a sine of amplitude ½.
func tone(freq float64, rate, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(0.5 * math.Sin(2*math.Pi*freq*float64(i)/float64(rate)))
	}
	return s
}

// pcm16Floor is the SNR of a tone of amplitude ½ in 16-bit PCM, what
// voice engines hand over and what lull writes: its rounding noise
// (q²/12, q = 2⁻¹⁵) is 92 dB below the tone. Beyond it a resampler's
// error is below what either end can carry, so "at least as good as
// beep" reads "as good, or past the floor".
var pcm16Floor = 10 * math.Log10(0.125/(math.Pow(2, -30)/12))

// steady is the part of a resampled clip away from its edges (and the
// edge fade): 50 ms in from each end.
func steady(s []float32, rate int) []float32 {
	skip := rate / 20
	return s[skip : len(s)-skip]
}

// snr is how far above the error the exact tone at the target rate is,
// in dB, over the steady part.
func snr(out []float32, freq float64, to int) float64 {
	skip := to / 20
	var sig, noise float64
	for i := skip; i < len(out)-skip; i++ {
		want := 0.5 * math.Sin(2*math.Pi*freq*float64(i)/float64(to))
		d := float64(out[i]) - want
		sig += want * want
		noise += d * d
	}
	return 10 * math.Log10(sig/noise)
}

// above is the share of s's energy above freq, in dB below the whole,
// from a Blackman-Harris-windowed spectrum of its steady part.
func above(s []float32, rate int, freq float64) float64 {
	s = steady(s, rate)
	n := 1
	for n*2 <= len(s) {
		n *= 2
	}
	x := make([]complex128, n)
	for i := range x {
		a := 2 * math.Pi * float64(i) / float64(n-1)
		w := 0.35875 - 0.48829*math.Cos(a) + 0.14128*math.Cos(2*a) - 0.01168*math.Cos(3*a)
		x[i] = complex(float64(s[i])*w, 0)
	}
	fft(x)
	var total, high float64
	for k := range n / 2 {
		e := cmplx.Abs(x[k]) * cmplx.Abs(x[k])
		total += e
		if float64(k)*float64(rate)/float64(n) > freq {
			high += e
		}
	}
	return 10 * math.Log10(high/total)
}

// fft is an in-place radix-2 transform; len(x) is a power of two.
func fft(x []complex128) {
	n := len(x)
	for i, j := 1, 0; i < n; i++ {
		bit := n >> 1
		for ; j&bit != 0; bit >>= 1 {
			j ^= bit
		}
		j ^= bit
		if i < j {
			x[i], x[j] = x[j], x[i]
		}
	}
	for size := 2; size <= n; size <<= 1 {
		w := cmplx.Exp(complex(0, -2*math.Pi/float64(size)))
		for start := 0; start < n; start += size {
			wk := complex(1, 0)
			for k := range size / 2 {
				a, b := x[start+k], x[start+k+size/2]*wk
				x[start+k], x[start+k+size/2] = a+b, a-b
				wk *= w
			}
		}
	}
}

// Tones across the band, up to four fifths of the source's Nyquist
// frequency, come out at least as close to the exact tone as beep's
// resampler made them (or closer than 16-bit PCM can tell), and within
// 60 dB of it everywhere — beep's fell to 10 dB near the top — for the
// rates voice engines speak at.
func TestResampleTonesAtLeastAsCleanAsBeep(t *testing.T) {
	for _, c := range []struct {
		from  int
		tones []float64
	}{
		{22050, []float64{100, 440, 1000, 3000, 6000, 9000}},
		{16000, []float64{100, 440, 1000, 3000, 5000, 6500}},
		{24000, []float64{100, 1000, 5000, 9000}},
		{8000, []float64{100, 1000, 3000}},
	} {
		for _, f := range c.tones {
			in := tone(f, c.from, c.from/2) // half a second
			ours := snr(resample(in, beep.SampleRate(c.from), Rate), f, int(Rate))
			theirs := snr(beepResample(in, c.from, int(Rate)), f, int(Rate))
			t.Logf("%5d→%d %5.0f Hz: SNR ours %6.1f dB, beep %6.1f dB", c.from, Rate, f, ours, theirs)
			if ours < min(theirs, pcm16Floor) || ours < 60 {
				t.Errorf("%d→%d, %v Hz: SNR %.1f dB, beep's %.1f dB", c.from, Rate, f, ours, theirs)
			}
		}
	}
}

// Upsampling leaves no images above the source's Nyquist frequency: no
// more of them than beep's resampler left, or none a 16-bit PCM carries,
// and 60 dB down at most (beep's were 12 dB down for a 9 kHz tone).
func TestResampleImagesAtLeastAsLowAsBeep(t *testing.T) {
	for _, c := range []struct {
		from  int
		tones []float64
	}{
		{22050, []float64{1000, 3000, 6000, 9000}},
		{16000, []float64{1000, 3000, 6000}},
	} {
		for _, f := range c.tones {
			in := tone(f, c.from, c.from/2) // half a second
			nyquist := float64(c.from) / 2
			ours := above(resample(in, beep.SampleRate(c.from), Rate), int(Rate), nyquist)
			theirs := above(beepResample(in, c.from, int(Rate)), int(Rate), nyquist)
			t.Logf("%5d→%d %5.0f Hz: energy above %.0f Hz ours %6.1f dB, beep %6.1f dB", c.from, Rate, f, nyquist, ours, theirs)
			if ours > max(theirs, -pcm16Floor) || ours > -60 {
				t.Errorf("%d→%d, %v Hz: images at %.1f dB, beep's at %.1f dB", c.from, Rate, f, ours, theirs)
			}
		}
	}
}

// Downsampling drops a tone above the target's Nyquist frequency instead
// of folding it back into the audible band. Just past Nyquist (23 kHz at
// 48 kHz, inside the filter's transition) some folds back: at least 6 dB
// less than beep let through.
func TestResampleDownsamplingAliasesLessThanBeep(t *testing.T) {
	for _, c := range []struct {
		from int
		tone float64
	}{
		{48000, 23000},
		{96000, 30000},
	} {
		in := tone(c.tone, c.from, c.from/2)
		level := func(s []float32) float64 {
			var e float64
			for _, v := range steady(s, int(Rate)) {
				e += float64(v) * float64(v)
			}
			return 10 * math.Log10(e/float64(len(steady(s, int(Rate))))/0.125) // against the tone's own power
		}
		ours := level(resample(in, beep.SampleRate(c.from), Rate))
		theirs := level(beepResample(in, c.from, int(Rate)))
		t.Logf("%d→%d %5.0f Hz: aliased level ours %6.1f dB, beep %6.1f dB", c.from, Rate, c.tone, ours, theirs)
		if ours > theirs-6 {
			t.Errorf("%d→%d, %v Hz: aliased at %.1f dB, beep's at %.1f dB", c.from, Rate, c.tone, ours, theirs)
		}
	}
}

// A clip keeps its length and its timing: a click at input sample k
// peaks at output sample k·to/from, within a sample — the captions and
// the breath cues are placed by clip time.
func TestResampleKeepsLengthAndTiming(t *testing.T) {
	for _, from := range []int{22050, 16000, 8000, 11025, 24000, 48000, 22051} {
		n := from / 8
		in := make([]float32, n)
		if got, want := len(resample(in, beep.SampleRate(from), Rate)), len(beepResample(in, from, int(Rate))); got != want {
			t.Errorf("%d→%d: %d samples became %d, beep made %d", from, Rate, n, got, want)
		}
		for _, k := range []int{n / 7, n / 3, n/2 + 1, n - n/5} {
			clear(in)
			in[k] = 1
			out := resample(in, beep.SampleRate(from), Rate)
			peak := 0
			for i, v := range out {
				if math.Abs(float64(v)) > math.Abs(float64(out[peak])) {
					peak = i
				}
			}
			want := float64(k) * float64(Rate) / float64(from)
			if math.Abs(float64(peak)-want) > 1 {
				t.Errorf("%d→%d: a click at %d peaks at %d, want %.1f", from, Rate, k, peak, want)
			}
		}
	}
}

// BenchmarkResample converts one second of speech-rate sound to the
// output rate: the polyphase filter beside beep's resampler, which it
// replaced.
//
//	go test -run '^$' -bench Resample ./audio
func BenchmarkResample(b *testing.B) {
	for _, from := range []int{22050, 16000} {
		in := tone(440, from, from)
		b.Run(fmt.Sprintf("polyphase-%d", from), func(b *testing.B) {
			for range b.N {
				resample(in, beep.SampleRate(from), Rate)
			}
		})
		b.Run(fmt.Sprintf("beep-%d", from), func(b *testing.B) {
			for range b.N {
				beepResample(in, from, int(Rate))
			}
		})
	}
}
