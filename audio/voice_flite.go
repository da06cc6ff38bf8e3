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

// flite is CMU's flite with its slt voice: warmer than espeak-ng and still
// quick (about 50 ms a sentence here). It is given files, never pipes:
// flite writing to a pipe can hang.
type flite struct{ path string }

// fliteStyle is a phase's delivery: how much longer each sound lasts, and
// the target mean pitch in Hz (slt speaks near 165 Hz on its own).
type fliteStyle struct{ stretch, pitch float64 }

var fliteStyles = [len(engine.Phases)]fliteStyle{
	engine.Atmosphere: {1.10, 160},
	engine.Breathing:  {1.15, 156},
	engine.Sensory:    {1.18, 154},
	engine.Relaxation: {1.32, 146},
	engine.Resolution: {1.02, 170},
}

// fliteVoice is built into Debian's flite.
const fliteVoice = "slt"

func (f *flite) Name() string { return "flite" }

func (f *flite) Speak(ctx context.Context, text string, p engine.Phase, rate beep.SampleRate) ([]float32, error) {
	l := localEngine{name: f.Name(), command: f.command}
	return l.speak(ctx, fliteText.Replace(text), p, rate)
}

// fliteText spells typographic punctuation in ASCII: flite reads only
// ASCII, and would drop the pause of a dash or an ellipsis.
var fliteText = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201c", `"`, "\u201d", `"`,
	"\u2014", ", ", "\u2013", ", ", "\u2026", "...", "\u00a0", " ",
)

func (f *flite) command(ctx context.Context, _ string, p engine.Phase, dir string) *exec.Cmd {
	st := phaseStyle(&fliteStyles, p)
	return exec.CommandContext(ctx, f.path, "-voice", fliteVoice,
		"--setf", "duration_stretch="+strconv.FormatFloat(st.stretch, 'f', -1, 64),
		"--setf", "int_f0_target_mean="+strconv.FormatFloat(st.pitch, 'f', -1, 64),
		"-f", filepath.Join(dir, textFile), "-o", filepath.Join(dir, wavFile))
}
