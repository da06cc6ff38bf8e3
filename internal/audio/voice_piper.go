package audio

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// piper is a neural voice from a model the listener downloaded. It loads
// the model for every sentence, so it is the slowest local voice.
type piper struct{ path, model string }

// piperLength is the length scale at a pace of 1 (above 1 is slower):
// piper's English models speak near 160 words a minute on their own, so
// this brings them near lull's 120 or so. Not measured here: piper is not
// packaged for Debian.
const piperLength = 1.3

// piperTimeout allows for loading a large model on a slow machine.
const piperTimeout = 45 * time.Second

func (v *piper) Name() string { return "piper" }

func (v *piper) Speak(ctx context.Context, l engine.Line, rate beep.SampleRate) ([]float32, error) {
	le := localEngine{name: v.Name(), timeout: piperTimeout, command: v.command}
	return le.speak(ctx, l, rate)
}

// piperScale is a line's length scale.
func piperScale(l engine.Line) float64 { return piperLength / paceOf(l) }

// command gives piper the sentence as one line on stdin: it speaks each
// line it reads.
func (v *piper) command(ctx context.Context, l engine.Line, dir string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, v.path, "--model", v.model,
		"--output_file", filepath.Join(dir, wavFile),
		"--length_scale", strconv.FormatFloat(piperScale(l), 'f', 3, 64),
		"--sentence_silence", "0")
	cmd.Stdin = strings.NewReader(strings.Join(strings.Fields(l.Text), " ") + "\n")
	return cmd
}
