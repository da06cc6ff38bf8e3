package audio

import (
	"math"
	"slices"
	"testing"
	"time"
)

// sounding is every soundscape that makes a sound.
func sounding() []string {
	return slices.DeleteFunc(slices.Clone(Soundscapes), func(s string) bool { return s == "none" })
}

// synthesize streams d of a soundscape straight from its generator, in the
// buffer size an output asks for.
func synthesize(t testing.TB, name string, seed uint64, d time.Duration) [][2]float64 {
	t.Helper()
	s, err := newSoundscape(name, Rate, seed)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][2]float64, Rate.N(d))
	for done := 0; done < len(out); {
		n, ok := s.Stream(out[done:min(done+1024, len(out))])
		if !ok {
			t.Fatalf("%s ended after %d samples", name, done)
		}
		done += n
	}
	return out
}

// throughMix is d of a soundscape as the listener hears it: faded in,
// at the ambient gain.
func throughMix(t testing.TB, name string, d time.Duration) [][2]float64 {
	t.Helper()
	s, err := newSoundscape(name, Rate, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := newMix(Rate)
	m.setSoundscape(name, s)
	return pull(m, Rate.N(d), 1024)
}

func rms(s [][2]float64) float64 {
	var sum float64
	for _, v := range s {
		sum += v[0]*v[0] + v[1]*v[1]
	}
	return math.Sqrt(sum / float64(2*len(s)))
}

func dB(x float64) float64 { return 20 * math.Log10(x+1e-12) }

// windowLevels is the level in dBFS of each whole window of length w.
func windowLevels(s [][2]float64, w time.Duration) []float64 {
	n := Rate.N(w)
	var levels []float64
	for i := 0; i+n <= len(s); i += n {
		levels = append(levels, dB(rms(s[i:i+n])))
	}
	return levels
}

// brightness is the level of the signal's first difference against the
// signal's own: near 0 for a rumble, about 1.4 for white noise.
func brightness(s [][2]float64) float64 {
	var sig, diff float64
	for i := 1; i < len(s); i++ {
		for c := range 2 {
			d := s[i][c] - s[i-1][c]
			sig += s[i][c] * s[i][c]
			diff += d * d
		}
	}
	return math.Sqrt(diff / sig)
}

func TestSoundscapesNeverDropOut(t *testing.T) {
	for _, name := range sounding() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := throughMix(t, name, 40*time.Second)
			peak, level := clickCheck(t, name, out)
			if db := dB(level); db < -40 || db > -18 {
				t.Errorf("at %.1f dBFS: it should sit softly under a voice", db)
			}
			// After the fade in, every second has sound in it: the waves'
			// troughs and the lightest drizzle included.
			levels := windowLevels(out[Rate.N(3*time.Second):], time.Second) // past the mix's fade in
			quiet, loud := slices.Min(levels), slices.Max(levels)
			t.Logf("%s: peak %.3f, %.1f dBFS; seconds from %.1f to %.1f dBFS; brightness %.3f",
				name, peak, dB(level), quiet, loud, brightness(out))
			if quiet < -48 {
				t.Errorf("a second at %.1f dBFS: it drops out", quiet)
			}
		})
	}
}

func TestSoundscapesAreDeterministic(t *testing.T) {
	for _, name := range sounding() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a, b := synthesize(t, name, 7, 3*time.Second), synthesize(t, name, 7, 3*time.Second)
			if !slices.Equal(a, b) {
				t.Error("one seed gave two different soundscapes")
			}
			// Nor does it matter how an output slices the stream.
			s, _ := newSoundscape(name, Rate, 7)
			ragged := make([][2]float64, len(a))
			for done, size := 0, 1; done < len(ragged); size = size*7%1009 + 1 {
				n, _ := s.Stream(ragged[done:min(done+size, len(ragged))])
				done += n
			}
			if !slices.Equal(a, ragged) {
				t.Error("streamed in other buffer sizes it sounds different")
			}
			c := synthesize(t, name, 8, 3*time.Second)
			same := 0
			for i := range a {
				if a[i] == c[i] {
					same++
				}
			}
			if same > len(a)/100 {
				t.Errorf("seeds 7 and 8 agree on %d of %d samples", same, len(a))
			}
		})
	}
}

// TestSoundscapesNeverRepeat looks for a loop: no 5-second stretch of a
// 2-minute soundscape comes back, at any offset.
func TestSoundscapesNeverRepeat(t *testing.T) {
	w := Rate.N(5 * time.Second)
	// First, that the search finds a loop where there is one.
	loop := synthesize(t, "brown", 3, 7*time.Second)
	loop = append(loop, loop...)
	if _, _, found := recurrence(loop, w); !found {
		t.Fatal("a 7 s loop went unnoticed")
	}
	for _, name := range sounding() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if i, j, found := recurrence(synthesize(t, name, 3, 2*time.Minute), w); found {
				t.Errorf("the 5 s from %v recur at %v", Rate.D(i), Rate.D(j))
			}
		})
	}
}

// recurrence finds a window of w samples, starting on a multiple of w, that
// comes again at j.
func recurrence(s [][2]float64, w int) (i, j int, found bool) {
	// Each window by its first sample: a repeat must begin with one of these.
	starts := map[[2]float64][]int{}
	for i := 0; i+w <= len(s); i += w {
		starts[s[i]] = append(starts[s[i]], i)
	}
	for j := 0; j+w <= len(s); j++ {
		for _, i := range starts[s[j]] {
			if i != j && slices.Equal(s[i:i+w], s[j:j+w]) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

func TestSoundscapesAreStereo(t *testing.T) {
	for _, name := range sounding() {
		out := synthesize(t, name, 1, 10*time.Second)
		var lr, ll, rr float64
		for _, v := range out {
			lr += v[0] * v[1]
			ll += v[0] * v[0]
			rr += v[1] * v[1]
		}
		corr := lr / math.Sqrt(ll*rr)
		t.Logf("%s: left–right correlation %.2f", name, corr)
		if corr > 0.95 {
			t.Errorf("%s: left and right correlate at %.2f: it is mono", name, corr)
		}
	}
}

// Rain hisses: far more of its energy is high than brown noise's.
func TestRainIsBrighterThanBrown(t *testing.T) {
	r, b := brightness(synthesize(t, "rain", 1, 20*time.Second)), brightness(synthesize(t, "brown", 1, 20*time.Second))
	t.Logf("brightness: rain %.3f, brown %.3f", r, b)
	if r < 4*b {
		t.Errorf("rain (%.3f) is not much brighter than brown (%.3f)", r, b)
	}
}

// The ocean is mostly low, and it comes in waves: its seconds rise and fall.
func TestOceanIsLowAndComesInWaves(t *testing.T) {
	out := synthesize(t, "ocean", 1, time.Minute)
	br := brightness(out)
	levels := windowLevels(out, time.Second/2)
	swing := slices.Max(levels) - slices.Min(levels)
	t.Logf("brightness %.3f; half-seconds swing %.1f dB", br, swing)
	if br > 0.35 {
		t.Errorf("brightness %.3f: the sea should be mostly low", br)
	}
	if swing < 6 {
		t.Errorf("the level swings only %.1f dB: no waves", swing)
	}
}

// The drone holds its level, and no beat pulses in it faster than a breath.
func TestDroneIsSteady(t *testing.T) {
	out := synthesize(t, "drone", 1, time.Minute)
	long := windowLevels(out, 5*time.Second)
	short := windowLevels(out, 250*time.Millisecond)
	var jump float64
	for i := 1; i < len(short); i++ {
		jump = math.Max(jump, math.Abs(short[i]-short[i-1]))
	}
	t.Logf("5 s windows from %.1f to %.1f dBFS; quarter seconds step by up to %.2f dB; brightness %.4f",
		slices.Min(long), slices.Max(long), jump, brightness(out))
	if d := slices.Max(long) - slices.Min(long); d > 3 {
		t.Errorf("its level moves %.1f dB between 5 s windows", d)
	}
	if jump > 1 {
		t.Errorf("its level jumps %.2f dB in a quarter second: a fast beat", jump)
	}
}
