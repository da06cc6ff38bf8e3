package audio

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// flite is CMU's flite with its slt voice: warmer than espeak-ng and still
// quick (about 50 ms a sentence here). It is given files, never pipes:
// flite writing to a pipe can hang.
type flite struct{ path string }

// fliteStretch is flite's duration_stretch at a pace of 1: every sound
// lasts this much longer than slt's own, which is near 180 words a
// minute. Measured on whole sessions, with the pauses at commas and
// without the silence around the words (see trimSilence), the clips come
// out near 123 words a minute in the opening, 83 in the relaxation.
const fliteStretch = 1.74

// flitePitch is each phase's target mean pitch in Hz (slt speaks near
// 165 Hz on its own): lower as the listener sinks, brighter in resolution.
var flitePitch = [len(engine.Phases)]float64{
	engine.Atmosphere: 160,
	engine.Breathing:  156,
	engine.Sensory:    154,
	engine.Relaxation: 146,
	engine.Resolution: 170,
}

// fliteVoice is built into Debian's flite.
const fliteVoice = "slt"

func (f *flite) Name() string { return "flite" }

func (f *flite) Speak(ctx context.Context, l engine.Line, rate beep.SampleRate) ([]float32, error) {
	l.Text = fliteText.Replace(l.Text)
	le := localEngine{name: f.Name(), command: f.command, shape: func(mono []float32, rate int, stdout []byte) []float32 {
		return widenPauses(mono, rate, stdout, commaPause(l))
	}}
	return le.speak(ctx, l, rate)
}

// fliteText spells typographic punctuation in ASCII: flite reads only
// ASCII, and would drop the pause of a dash or an ellipsis.
var fliteText = strings.NewReplacer(
	"\u2018", "'", "\u2019", "'", "\u201c", `"`, "\u201d", `"`,
	"\u2014", ", ", "\u2013", ", ", "\u2026", "...", "\u00a0", " ",
)

// fliteStyle is a line's duration stretch and pitch.
func fliteStyle(l engine.Line) (stretch, pitch float64) {
	return fliteStretch / paceOf(l), phaseStyle(&flitePitch, l.Phase)
}

// command asks flite for the segments' end times too (-psdur, on stdout):
// they say where its pauses at commas are, to widen them.
func (f *flite) command(ctx context.Context, l engine.Line, dir string) *exec.Cmd {
	stretch, pitch := fliteStyle(l)
	return exec.CommandContext(ctx, f.path, "-voice", fliteVoice,
		"--setf", "duration_stretch="+strconv.FormatFloat(stretch, 'f', 3, 64),
		"--setf", "int_f0_target_mean="+strconv.FormatFloat(pitch, 'f', -1, 64),
		"-psdur", "-f", filepath.Join(dir, textFile), "-o", filepath.Join(dir, wavFile))
}
