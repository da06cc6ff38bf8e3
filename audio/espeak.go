package audio

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gopxl/beep/v2"

	"lull/engine"
)

// espeak is the espeak-ng voice: fast (about 25 ms a sentence here) and
// everywhere, if plain.
type espeak struct{ path string }

// espeakStyle is a phase's delivery: words per minute, pitch (0–99) and
// the pause between words (in 10 ms units). Slower and lower as the
// listener sinks; gently quicker in resolution.
type espeakStyle struct{ wpm, pitch, gap int }

var espeakStyles = [len(engine.Phases)]espeakStyle{
	engine.Atmosphere: {150, 42, 1},
	engine.Breathing:  {145, 40, 2},
	engine.Sensory:    {140, 40, 2},
	engine.Relaxation: {128, 36, 3},
	engine.Resolution: {155, 44, 1},
}

// espeakVoice is a soft, low variant of English.
const espeakVoice = "en-us+f2"

func (e *espeak) Name() string { return "espeak-ng" }

func (e *espeak) Speak(ctx context.Context, text string, p engine.Phase, rate beep.SampleRate) ([]float32, error) {
	l := localEngine{name: e.Name(), command: e.command}
	return l.speak(ctx, text, p, rate)
}

// command reads the sentence on stdin and writes the WAV to a file: a
// file's header carries the true sizes.
func (e *espeak) command(ctx context.Context, text string, p engine.Phase, dir string) *exec.Cmd {
	st := phaseStyle(&espeakStyles, p)
	cmd := exec.CommandContext(ctx, e.path, "-w", filepath.Join(dir, wavFile), "-v", espeakVoice,
		"-s", strconv.Itoa(st.wpm), "-p", strconv.Itoa(st.pitch), "-g", strconv.Itoa(st.gap))
	cmd.Stdin = strings.NewReader(text)
	return cmd
}
