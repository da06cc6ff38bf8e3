//go:build linux

package e2e

import (
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/testutil/pulsetest"
)

// The binary people install (built without cgo: TestMain builds it so)
// plays into a real sound server, a PulseAudio null sink recorded from
// its monitor, at the level it renders the same session at; and Ctrl-C,
// which pauses and saves, silences it.
//
// How soon is a speed, and this machine is shared: it is logged, and
// BenchmarkPauseLatency in internal/audio measures it (30-40 ms here, on
// a machine with a load of 15 on its 2 cores); the bound asserted is a
// second, where the noise would go on for minutes if the pause did not
// stop it.
func TestPureGoBinaryPlaysIntoPulseAudio(t *testing.T) {
	t.Parallel()
	srv := pulsetest.Start(t)
	rec := srv.Record(t)
	session := []string{"--length", "5", "--seed", "3", "--voice", "none", "--soundscape", "brown"}

	// What it plays: the same session, rendered.
	wav := filepath.Join(t.TempDir(), "session.wav")
	render := exec.Command(lullBin, append([]string{"render", "--out", wav}, session...)...)
	render.Env = append(hermeticEnv(), "LULL_HOME="+t.TempDir())
	if out, err := render.CombinedOutput(); err != nil {
		t.Fatalf("lull render: %v\n%s", err, out)
	}
	played := monoOf(readWAV(t, wav))

	cmd := exec.Command(lullBin, append([]string{"new", "--no-tui"}, session...)...)
	cmd.Env = append(hermeticEnv(), srv.Env, "LULL_HOME="+t.TempDir())
	var out, errOut lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	// Twelve seconds of sound at the sink, however long the start takes:
	// the level is compared where the soundscape plays alone.
	const rate = 44100
	deadline := time.Now().Add(2 * time.Minute)
	for {
		s := rec.Samples()
		if start := firstSound(s); start >= 0 && len(s)-start > 12*rate {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("twelve seconds of sound never reached the sink\nstdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if strings.Contains(errOut.String(), "No sound device") {
		t.Fatalf("lull played to its silent output:\n%s", errOut.String())
	}

	heard := rec.Samples()
	heard, played = heard[firstSound(heard):], played[firstSound(played):]
	// Two seconds of the soundscape alone: the opening chime rings for
	// eight, and where it is struck against the soundscape moves with a
	// busy machine's timing (the mix then matches the render nowhere).
	from, to := 9*rate, 11*rate
	want := levelOf(played, from, to)
	ratio, found := gainAt(heard, played, from, to)
	if found < 10 {
		t.Fatalf("only %d of the render's 20 tenths of a second were found at the sink", found)
	}
	diff := 20 * math.Log10(ratio)
	t.Logf("the same samples %+.2f dB at the sink (the render at %.1f dBFS; %d of 20 tenths found)", diff, 20*math.Log10(want), found)
	if math.Abs(diff) > 1 {
		t.Errorf("the sink heard the session %+.2f dB from the level it renders at", diff)
	}

	// Ctrl-C: pause, save, exit.
	stopped := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !strings.Contains(errOut.String()+out.String(), "Resume with:") {
		t.Errorf("Ctrl-C did not say how to resume:\n%s%s", out.String(), errOut.String())
	}
	// Half a second of the sink after lull has gone.
	for n := len(rec.Samples()); len(rec.Samples()) < n+rate/2; {
		time.Sleep(20 * time.Millisecond)
	}
	s := rec.Samples()
	last := lastSound(s, want/10)
	latency := rec.When(last).Sub(stopped)
	t.Logf("the sink fell silent %v after SIGINT", latency.Round(time.Millisecond))
	if latency > time.Second {
		t.Errorf("the sound went on %v after Ctrl-C", latency)
	}
}

// monoOf is a stereo render as PulseAudio folds it into the mono
// recording: the mean of its channels, in full scale.
func monoOf(w wavFile) []float64 {
	mono := make([]float64, 0, len(w.samples)/w.channels)
	for i := 0; i+w.channels <= len(w.samples); i += w.channels {
		var sum float64
		for c := range w.channels {
			sum += float64(w.samples[i+c]) / 32768
		}
		mono = append(mono, sum/float64(w.channels))
	}
	return mono
}

// firstSound is the first sample that is not silence, -1 when none.
func firstSound(s []float64) int {
	for i, v := range s {
		if math.Abs(v) > 1.0/4096 {
			return i
		}
	}
	return -1
}

// gainAt is the sink's level over the render's, measured where both hold
// the same samples: the median over each tenth of a second of
// played[from:to], and how many tenths were found in heard. A busy machine
// may starve the stream for a moment: the sink then records silence and
// all that follows comes later, and brown noise two seconds apart differs
// by a decibel or more (a comparison of the same span of each measured
// -26.4 against -25.1 dBFS). So each tenth is looked for in the recording,
// from half a second before where the last was found to a second after.
func gainAt(heard, played []float64, from, to int) (float64, int) {
	const tenth, mark = 4410, 441 // a tenth of a second, found by its first 10 ms
	var ratios []float64
	lag := 0
	for at := from; at+tenth <= to; at += tenth {
		sig := played[at : at+mark]
		// Found by the shape of the wave, whatever its level: a stream
		// played too soft or too loud is found, and fails the comparison.
		found, best, bestCorr := false, 0, 0.99
		for l := max(lag-22050, -at); l <= lag+44100 && at+l+tenth <= len(heard); l++ {
			var hv, hh, vv float64
			for i, v := range sig {
				h := heard[at+l+i]
				hv, hh, vv = hv+h*v, hh+h*h, vv+v*v
			}
			if c := hv / math.Sqrt(hh*vv); c > bestCorr {
				if found, best, bestCorr = true, l, c; c > 0.9999 {
					break // the same samples
				}
			}
		}
		if !found {
			continue
		}
		lag = best
		ratios = append(ratios, levelOf(heard, at+lag, at+lag+tenth)/levelOf(played, at, at+tenth))
	}
	if len(ratios) == 0 {
		return 0, 0
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2], len(ratios)
}

// lastSound is the start of the last 5 ms frame louder than floor.
func lastSound(s []float64, floor float64) int {
	const frame = 44100 / 200
	for i := len(s) - frame; i >= 0; i -= frame {
		if levelOf(s, i, i+frame) > floor {
			return i + frame
		}
	}
	return 0
}

// levelOf is s[from:to]'s level, leaving out the 5 ms frames that are
// silence: an underrun on a busy machine inserts some, and they are no
// part of what was played.
func levelOf(s []float64, from, to int) float64 {
	const frame = 44100 / 200
	var sum float64
	var n int
	for i := from; i+frame <= min(to, len(s)); i += frame {
		var f float64
		for _, v := range s[i : i+frame] {
			f += v * v
		}
		if f > 0 {
			sum += f
			n += frame
		}
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(sum / float64(n))
}

// gainAt finds the render's samples past a stall (silence recorded, the
// rest later) or a skip (samples lost, the rest sooner), and measures
// their level whatever it is: the same samples compare at 0 dB, played at
// half their amplitude at -6 dB.
func TestGainAtFindsTheSamplesPastAStall(t *testing.T) {
	const rate = 44100
	played := make([]float64, 5*rate)
	x := uint32(1)
	var brown float64
	for i := range played {
		x = x*1664525 + 1013904223
		brown = 0.98*brown + 0.02*(float64(x>>8)/(1<<24)-0.5)
		played[i] = brown * float64(min(i, rate)) / rate // a second's fade-in
	}
	for name, sink := range map[string][]float64{
		"stalled": slices.Concat(played[:2*rate], make([]float64, rate/5), played[2*rate:]),
		"skipped": slices.Concat(played[:2*rate], played[2*rate+rate/5:]),
	} {
		for _, c := range []struct {
			scale, want float64
		}{{1, 0}, {0.5, -6.02}} {
			heard := make([]float64, len(sink))
			for i, v := range sink {
				heard[i] = v * c.scale
			}
			ratio, found := gainAt(heard, played, 1500*rate/1000, 3500*rate/1000)
			if got := 20 * math.Log10(ratio); found < 18 || math.Abs(got-c.want) > 0.05 {
				t.Errorf("%s, played at %v: %+.2f dB (%d tenths found), want %+.2f", name, c.scale, got, found, c.want)
			}
		}
	}
}
