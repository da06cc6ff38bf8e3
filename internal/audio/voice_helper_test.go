package audio

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for a voice engine: a fake on
// PATH re-runs it with LULL_FAKE_ENGINE set (the helper-process trick).
func TestMain(m *testing.M) {
	if os.Getenv("LULL_FAKE_ENGINE") != "" {
		os.Exit(fakeEngine(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeWordTime is how long the fake speaks a word at its normal pace.
const fakeWordTime = 400 * time.Millisecond

// fakeEngine reads its text from -f or stdin and writes a WAV to -o, -w or
// --output_file: a tone lasting as long as the words at the pace asked
// (-r/-s words per minute, --length_scale, duration_stretch).
func fakeEngine(args []string) int {
	var out, textPath string
	wordTime := fakeWordTime
	for i := 0; i+1 < len(args); i++ {
		v := args[i+1]
		switch args[i] {
		case "-o", "-w", "--output_file":
			out = v
		case "-f":
			textPath = v
		case "-r", "-s":
			wpm, _ := strconv.Atoi(v)
			wordTime = time.Minute / time.Duration(wpm)
		case "--length_scale":
			x, _ := strconv.ParseFloat(v, 64)
			wordTime = time.Duration(float64(fakeWordTime) * x)
		case "--setf":
			if s, ok := strings.CutPrefix(v, "duration_stretch="); ok {
				x, _ := strconv.ParseFloat(s, 64)
				wordTime = time.Duration(float64(fakeWordTime) * x)
			}
		}
	}
	var text []byte
	var err error
	if textPath != "" {
		text, err = os.ReadFile(textPath)
	} else {
		text, err = io.ReadAll(os.Stdin)
	}
	if err != nil || out == "" {
		fmt.Fprintln(os.Stderr, "fake engine: no text or no output file")
		return 2
	}
	d := time.Duration(len(strings.Fields(string(text)))) * wordTime
	if err := os.WriteFile(out, toneWAV(22050, d, false), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// installFake puts an engine named name in dir that is the fake above.
func installFake(t *testing.T, dir, name string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The race detector would otherwise wait a second before exiting.
	return installScript(t, dir, name, fmt.Sprintf("GORACE=atexit_sleep_ms=0 LULL_FAKE_ENGINE=1 exec %q \"$@\"", exe))
}

// installScript writes an executable shell script.
func installScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// toneWAV is d of a soft 220 Hz tone as 16-bit mono WAV. streamed leaves
// the sizes at 0xFFFFFFFF, as OpenAI does when it streams.
func toneWAV(rate int, d time.Duration, streamed bool) []byte {
	n := int(d.Seconds() * float64(rate))
	le := binary.LittleEndian
	riff, data := uint32(36+2*n), uint32(2*n)
	if streamed {
		riff, data = 0xFFFFFFFF, 0xFFFFFFFF
	}
	b := append([]byte("RIFF"), le.AppendUint32(nil, riff)...)
	b = append(b, "WAVEfmt "...)
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, 1) // PCM
	b = le.AppendUint16(b, 1)
	b = le.AppendUint32(b, uint32(rate))
	b = le.AppendUint32(b, uint32(2*rate))
	b = le.AppendUint16(b, 2)
	b = le.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = le.AppendUint32(b, data)
	return append(b, tonePCM(rate, n)...)
}

// tonePCM is n samples of the tone, raw 16-bit LE.
func tonePCM(rate, n int) []byte {
	b := make([]byte, 0, 2*n)
	for i := range n {
		v := 0.3 * math.Sin(2*math.Pi*220*float64(i)/float64(rate))
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(v*32767)))
	}
	return b
}

func clipRMS(clip []float32) float64 {
	var sum float64
	for _, s := range clip {
		sum += float64(s) * float64(s)
	}
	return math.Sqrt(sum / float64(max(len(clip), 1)))
}

// near reports whether got is within tol of want.
func near(got, want, tol time.Duration) bool {
	return got >= want-tol && got <= want+tol
}
