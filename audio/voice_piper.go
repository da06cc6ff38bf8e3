package audio

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gopxl/beep/v2"

	"lull/engine"
)

// piper is a neural voice from a model the listener downloaded. It loads
// the model for every sentence, so it is the slowest local voice.
type piper struct{ path, model string }

// piperLength is each phase's length scale: above 1 is slower. The
// relaxation lingers; resolution returns to the model's own pace.
var piperLength = [len(engine.Phases)]float64{
	engine.Atmosphere: 1.10,
	engine.Breathing:  1.15,
	engine.Sensory:    1.18,
	engine.Relaxation: 1.35,
	engine.Resolution: 1.00,
}

// piperTimeout allows for loading a large model on a slow machine.
const piperTimeout = 45 * time.Second

func (v *piper) Name() string { return "piper" }

func (v *piper) Speak(ctx context.Context, text string, p engine.Phase, rate beep.SampleRate) ([]float32, error) {
	l := localEngine{name: v.Name(), timeout: piperTimeout, command: v.command}
	return l.speak(ctx, text, p, rate)
}

// command gives piper the sentence as one line on stdin: it speaks each
// line it reads.
func (v *piper) command(ctx context.Context, text string, p engine.Phase, dir string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, v.path, "--model", v.model,
		"--output_file", filepath.Join(dir, wavFile),
		"--length_scale", strconv.FormatFloat(phaseStyle(&piperLength, p), 'f', -1, 64),
		"--sentence_silence", "0")
	cmd.Stdin = strings.NewReader(strings.Join(strings.Fields(text), " ") + "\n")
	return cmd
}
