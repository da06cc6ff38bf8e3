package audio

import (
	"context"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// espeak is the espeak-ng voice: fast (about 25 ms a sentence here) and
// everywhere, if plain; through an mbrola voice (mb-us1…) it speaks with
// recorded human diphones instead of its own formants.
type espeak struct {
	path   string
	voice  string // an installed espeak-ng voice, as -v takes it
	mbrola bool   // voice is an mbrola voice
}

// espeakWPM is espeak-ng's -s at a pace of 1. Measured on whole sessions,
// the clips then come out near 123 words a minute in the opening and 80
// in the relaxation (the relaxation's lines pause more): espeak-ng's own
// pauses at commas count in the clip, the silence around it does not (see
// trimSilence). Its mbrola
// voices speak about 14 % quicker at the same -s.
const (
	espeakWPM       = 106
	espeakMbrolaWPM = 93
)

// espeakPitch is each phase's pitch (0–99): lower as the listener sinks,
// a little brighter in resolution.
var espeakPitch = [len(engine.Phases)]int{
	engine.Atmosphere: 42,
	engine.Breathing:  40,
	engine.Sensory:    40,
	engine.Relaxation: 36,
	engine.Resolution: 44,
}

// espeakVoice is a soft, low variant of English: what lull uses when no
// mbrola English voice is installed and the config names none.
const espeakVoice = "en-us+f2"

func (e *espeak) Name() string { return "espeak-ng" }

func (e *espeak) Speak(ctx context.Context, l engine.Line, rate beep.SampleRate) ([]float32, error) {
	le := localEngine{name: e.Name(), command: e.command}
	return le.speak(ctx, l, rate)
}

// espeakArgs are the pace, pitch and word gap of a line: -s from the one
// pace, and a gap between words (in 10 ms units) that opens as the pace
// slows, so slow speech gets room between its words, not only drawn-out
// vowels.
func espeakArgs(l engine.Line, mbrola bool) []string {
	pace, base := paceOf(l), float64(espeakWPM)
	if mbrola {
		base = espeakMbrolaWPM
	}
	wpm := max(int(math.Round(base*pace)), 80) // espeak-ng's slowest
	gap := max(int(math.Round(1+10*(1/pace-1))), 0)
	return []string{"-s", strconv.Itoa(wpm), "-p", strconv.Itoa(phaseStyle(&espeakPitch, l.Phase)), "-g", strconv.Itoa(gap)}
}

// command reads the sentence on stdin and writes the WAV to a file: a
// file's header carries the true sizes.
func (e *espeak) command(ctx context.Context, l engine.Line, dir string) *exec.Cmd {
	voice := e.voice
	if voice == "" {
		voice = espeakVoice
	}
	args := append([]string{"-w", filepath.Join(dir, wavFile), "-v", voice}, espeakArgs(l, e.mbrola)...)
	cmd := exec.CommandContext(ctx, e.path, args...)
	cmd.Stdin = strings.NewReader(l.Text)
	return cmd
}
