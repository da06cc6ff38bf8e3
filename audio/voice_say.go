package audio

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/gopxl/beep/v2"

	"lull/engine"
)

// say is macOS's speech synthesizer.
type say struct{ path string }

// sayWPM is each phase's pace in words per minute (say's own is about
// 175): slower as the listener sinks, gently quicker in resolution.
var sayWPM = [len(engine.Phases)]int{
	engine.Atmosphere: 160,
	engine.Breathing:  150,
	engine.Sensory:    146,
	engine.Relaxation: 132,
	engine.Resolution: 165,
}

// sayVoice is a calm American English voice every macOS has.
const sayVoice = "Samantha"

func (s *say) Name() string { return "say" }

func (s *say) Speak(ctx context.Context, text string, p engine.Phase, rate beep.SampleRate) ([]float32, error) {
	l := localEngine{name: s.Name(), command: s.command}
	return l.speak(ctx, text, p, rate)
}

// command asks for 16-bit little-endian WAV: say writes AIFF unless told.
func (s *say) command(ctx context.Context, _ string, p engine.Phase, dir string) *exec.Cmd {
	return exec.CommandContext(ctx, s.path, "-v", sayVoice, "-r", strconv.Itoa(phaseStyle(&sayWPM, p)),
		"-o", filepath.Join(dir, wavFile), "--file-format=WAVE", "--data-format=LEI16@22050",
		"-f", filepath.Join(dir, textFile))
}
