//go:build unix

package e2e

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/guide"
)

// wavFile is a 16-bit PCM WAV read whole.
type wavFile struct {
	rate     int
	channels int
	samples  []int16 // interleaved
}

func (w wavFile) duration() time.Duration {
	return time.Duration(len(w.samples)/w.channels) * time.Second / time.Duration(w.rate)
}

func readWAV(t *testing.T, path string) wavFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseWAV(t, path, b, false)
}

// streamedSize is what a streamed WAV's header says of its data: sox's
// "length unspecified", read to the end of the stream.
const streamedSize = 0x7ffff000

// parseWAV reads a 16-bit PCM WAV. A whole file's header gives the real
// size of its data; a streamed one's says streamedSize, and the data runs
// to the end.
func parseWAV(t *testing.T, path string, b []byte, streamed bool) wavFile {
	t.Helper()
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		t.Fatalf("%s is not a WAV file", path)
	}
	var w wavFile
	for b = b[12:]; len(b) >= 8; {
		id, size := string(b[:4]), int(binary.LittleEndian.Uint32(b[4:8]))
		b = b[8:]
		switch id {
		case "fmt ":
			if format, bits := binary.LittleEndian.Uint16(b[0:2]), binary.LittleEndian.Uint16(b[14:16]); format != 1 || bits != 16 {
				t.Fatalf("%s: format %d, %d bits; want 16-bit PCM", path, format, bits)
			}
			w.channels = int(binary.LittleEndian.Uint16(b[2:4]))
			w.rate = int(binary.LittleEndian.Uint32(b[4:8]))
		case "data":
			switch {
			case streamed && size != streamedSize:
				t.Fatalf("%s: a streamed data chunk says %#x bytes, want %#x", path, size, streamedSize)
			case streamed:
				size = len(b) &^ 1
			case size != len(b):
				t.Fatalf("%s: the data chunk says %d bytes, the file holds %d: the header was not finished", path, size, len(b))
			}
			w.samples = pcm16(b[:size])
			return w
		}
		b = b[size:]
	}
	t.Fatalf("%s has no data", path)
	return w
}

// The loops over every sample of a render (tens of millions) are not
// instrumented by the race detector: each works on its own slices, and
// instrumented they took most of the root package's time under -race.

// pcm16 is little-endian 16-bit samples.
//
//go:norace
func pcm16(b []byte) []int16 {
	out := make([]int16, len(b)/2)
	for i := range out {
		out[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return out
}

// render runs lull render into a private home and returns the file.
func renderWAV(t *testing.T, args ...string) (path, stdout string) {
	t.Helper()
	dir := t.TempDir()
	path = filepath.Join(dir, "session.wav")
	out, errOut, err := lull(t, filepath.Join(dir, "home"), "1", append([]string{"render", "--out", path}, args...)...)
	if err != nil {
		t.Fatalf("lull render %v: %v\n%s%s", args, err, out, errOut)
	}
	return path, out
}

// windowsHeard is the fraction of 100 ms windows louder than −40 dBFS.
//
//go:norace
func windowsHeard(w wavFile) float64 {
	win := w.rate / 10 * w.channels
	heard, total := 0, 0
	for i := 0; i+win <= len(w.samples); i += win {
		var sum float64
		for _, s := range w.samples[i : i+win] {
			sum += float64(s) * float64(s)
		}
		if math.Sqrt(sum/float64(win))/32768 > 0.01 {
			heard++
		}
		total++
	}
	return float64(heard) / float64(total)
}

// peakAndStep are the loudest sample and the largest step between two
// consecutive samples of one channel, as fractions of full scale.
//
//go:norace
func peakAndStep(w wavFile) (peak, step float64, clipped int) {
	for i, s := range w.samples {
		a := math.Abs(float64(s)) / 32768
		peak = max(peak, a)
		if s == math.MaxInt16 || s == math.MinInt16 {
			clipped++
		}
		if i >= w.channels {
			step = max(step, math.Abs(float64(s)-float64(w.samples[i-w.channels]))/32768)
		}
	}
	return peak, step, clipped
}

// Issue 3, acceptance 1: renders with espeak-ng last their length to the
// percent, never clip, and are speech with pauses. How fast they are made
// is a figure for make bench (BenchmarkRender), not a test: it depends on
// how busy the machine is.
func TestRenderedSessionsLastTheirLength(t *testing.T) {
	t.Parallel()
	needVoice(t)
	lengths := []int{10, 20, 30}
	if testing.Short() {
		lengths = lengths[:1]
	}
	for _, minutes := range lengths {
		t.Run(fmt.Sprint(minutes), func(t *testing.T) {
			start := time.Now()
			path, out := renderWAV(t, "--length", fmt.Sprint(minutes), "--seed", "1", "--voice", "espeak-ng", "--soundscape", "none")
			took := time.Since(start)
			w := readWAV(t, path)
			want := time.Duration(minutes) * time.Minute
			got := w.duration()
			peak, _, clipped := peakAndStep(w)
			heard := windowsHeard(w)
			t.Logf("%d min: %v long, made in %v; peak %.3f, voice heard in %.0f%% of 100 ms windows; %s",
				minutes, got, took.Round(time.Millisecond), peak, heard*100, strings.TrimSpace(out))
			if w.rate != 44100 && w.rate != 48000 || w.channels != 2 {
				t.Errorf("%d Hz, %d channels", w.rate, w.channels)
			}
			if (got - want).Abs() > want/100 {
				t.Errorf("lasts %v, want %v ± 1 %%", got, want)
			}
			if clipped > 0 {
				t.Errorf("%d samples clip", clipped)
			}
			if heard < 0.2 || heard > 0.9 {
				t.Errorf("sound in %.0f%% of 100 ms windows: want speech with pauses (20–90 %%)", heard*100)
			}
		})
	}
}

// Issue 3, acceptance 2: a voiceless render over a soundscape keeps time,
// is not silent, never clips and never clicks.
func TestRenderedSoundscapeIsCleanAndOnTime(t *testing.T) {
	t.Parallel() // its own folder and files: nothing shared
	path, _ := renderWAV(t, "--length", "5", "--voice", "none", "--soundscape", "drone")
	w := readWAV(t, path)
	got := w.duration()
	peak, step, clipped := peakAndStep(w)
	t.Logf("%v long, peak %.3f, largest step %.4f of full scale", got, peak, step)
	if (got - 5*time.Minute).Abs() > 3*time.Second {
		t.Errorf("lasts %v, want 5:00 ± 3 s", got)
	}
	if peak < 0.01 {
		t.Error("the render is silent")
	}
	if clipped > 0 {
		t.Errorf("%d samples clip", clipped)
	}
	if step > 0.25 {
		t.Errorf("a click: a step of %.3f of full scale", step)
	}
}

// Issue 3, acceptance 3: in a render, every line of the breathing phase
// begins on the pacer's period, in the part of the breath it speaks to. Since issue 10 a
// line may begin late in its part of the breath, while no more than a
// third of it has gone and at least 1.2 s of it remain (engine.untilCue).
func TestRenderedInhaleCuesFallOnThePeriod(t *testing.T) {
	t.Parallel() // its own folder and files: nothing shared
	needVoice(t)
	dir := t.TempDir()
	captions := filepath.Join(dir, "s.vtt")
	// Fifteen minutes: a ten-minute session's breathing is the taught breaths
	// and their close, too few inhales to judge.
	renderWAV(t, "--length", "15", "--seed", "2", "--voice", "espeak-ng", "--soundscape", "none", "--captions", captions)
	b := engine.DefaultBreath
	period := b.Period()
	tags := guide.BreathTags(b) // the part of the breath each line is written for
	var first time.Duration = -1
	inhales, lines := 0, 0
	for _, c := range readCaptions(t, captions) {
		if c.phase != "breathing" {
			continue
		}
		stage, ok := tags[c.text]
		if !ok {
			t.Errorf("%q is not a tagged breathing line", c.text)
			continue
		}
		if first < 0 {
			first = c.start - b.Offset(stage) // the pacer begins with the phase's first line
		}
		off := ((c.start-first-b.Offset(stage))%period + period) % period
		if off > period/2 {
			off -= period
		}
		// A line may begin late while at most a third of its part is gone
		// and 1.2 s of it is left (the engine's rule), give or take a sample.
		length := b.Length(stage)
		late := off > 50*time.Millisecond && (off > length/3+50*time.Millisecond || length-off < 1150*time.Millisecond)
		if off < -50*time.Millisecond || late {
			t.Errorf("%q (%v) begins %v off its breath", c.text, stage, off)
		}
		lines++
		if stage == engine.StageInhale {
			inhales++
		}
	}
	// The taught breaths and the one that hands the counts back speak on
	// the inhale; after them the built-in guide speaks on out-breaths only.
	if inhales < 4 || lines < 8 {
		t.Fatalf("only %d cues in the breathing phase, %d of them inhales", lines, inhales)
	}
}

func needVoice(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng is not installed (make test installs it)")
	}
}
