package audio

import (
	"context"
	"math"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// say is macOS's speech synthesizer.
type say struct{ path string }

// sayWPM is say's rate in words per minute at a pace of 1 (its own is
// about 175).
const sayWPM = 120

// sayRate is a line's rate.
func sayRate(l engine.Line) int { return int(math.Round(sayWPM * paceOf(l))) }

// sayVoice is a calm American English voice every macOS has.
const sayVoice = "Samantha"

func (s *say) Name() string { return "say" }

func (s *say) Speak(ctx context.Context, l engine.Line, rate beep.SampleRate) ([]float32, error) {
	le := localEngine{name: s.Name(), command: s.command}
	return le.speak(ctx, l, rate)
}

// command asks for 16-bit little-endian WAV: say writes AIFF unless told.
func (s *say) command(ctx context.Context, l engine.Line, dir string) *exec.Cmd {
	return exec.CommandContext(ctx, s.path, "-v", sayVoice, "-r", strconv.Itoa(sayRate(l)),
		"-o", filepath.Join(dir, wavFile), "--file-format=WAVE", "--data-format=LEI16@22050",
		"-f", filepath.Join(dir, textFile))
}
