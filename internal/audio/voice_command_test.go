package audio

import (
	"context"
	"io"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// hostile would be options, a file name or a shell command on a command
// line.
const hostile = "--help -o /tmp/x.wav $(rm -rf ~) `id`; say -v Bad"

// commandCase is a local engine's command for one phase, and the
// arguments it must carry.
type commandCase struct {
	engine string
	build  func(ctx context.Context, l engine.Line, dir string) *exec.Cmd
	want   map[engine.Phase][][]string
	stdin  bool // the text goes in on stdin, else in dir's text file
}

func commandCases() []commandCase {
	return []commandCase{
		{
			engine: "flite",
			build:  (&flite{path: "/usr/bin/flite"}).command,
			want: map[engine.Phase][][]string{
				engine.Atmosphere: {{"-voice", "slt", "--setf", "duration_stretch=1.740", "--setf", "int_f0_target_mean=160", "-psdur"}},
				engine.Relaxation: {{"--setf", "duration_stretch=2.047", "--setf", "int_f0_target_mean=146"}},
				engine.Resolution: {{"--setf", "duration_stretch=1.740", "--setf", "int_f0_target_mean=170"}},
			},
		},
		{
			engine: "say",
			build:  (&say{path: "/usr/bin/say"}).command,
			want: map[engine.Phase][][]string{
				engine.Atmosphere: {{"-v", "Samantha", "-r", "120", "-o"}, {"--file-format=WAVE", "--data-format=LEI16@22050", "-f"}},
				engine.Relaxation: {{"-r", "102"}},
				engine.Resolution: {{"-r", "120"}},
			},
		},
		{
			engine: "piper",
			build:  (&piper{path: "/opt/piper/piper", model: "/models/calm.onnx"}).command,
			want: map[engine.Phase][][]string{
				engine.Atmosphere: {{"--model", "/models/calm.onnx"}, {"--length_scale", "1.300", "--sentence_silence", "0"}},
				engine.Relaxation: {{"--length_scale", "1.529"}},
				engine.Resolution: {{"--length_scale", "1.300"}},
			},
			stdin: true,
		},
		{
			engine: "espeak-ng",
			build:  (&espeak{path: "/usr/bin/espeak-ng"}).command,
			want: map[engine.Phase][][]string{
				engine.Atmosphere: {{"-v", "en-us+f2", "-s", "106", "-p", "42", "-g", "1"}},
				engine.Relaxation: {{"-s", "90", "-p", "36", "-g", "3"}},
				engine.Resolution: {{"-s", "106", "-p", "44", "-g", "1"}},
			},
			stdin: true,
		},
	}
}

func TestLocalCommandsCarryThePhaseStyleAndNeverTheText(t *testing.T) {
	dir := t.TempDir()
	for _, c := range commandCases() {
		for p, want := range c.want {
			cmd := c.build(context.Background(), engine.Line{Text: hostile, Phase: p}, dir)
			args := cmd.Args[1:]
			for _, run := range want {
				if !containsRun(args, run) {
					t.Errorf("%s %v: args %q lack %q", c.engine, p, args, run)
				}
			}
			if !slices.Contains(args, filepath.Join(dir, wavFile)) {
				t.Errorf("%s %v: args %q do not write %s in the private dir", c.engine, p, args, wavFile)
			}
			for _, a := range args {
				for _, w := range []string{"--help", "/tmp/x.wav", "$(rm", "`id`", "Bad"} {
					if strings.Contains(a, w) {
						t.Errorf("%s %v: the text's %q is in argument %q", c.engine, p, w, a)
					}
				}
			}
			if c.stdin {
				in, _ := io.ReadAll(cmd.Stdin)
				if !strings.Contains(string(in), hostile) {
					t.Errorf("%s %v: stdin %q, want the text", c.engine, p, in)
				}
			} else if !slices.Contains(args, filepath.Join(dir, textFile)) {
				t.Errorf("%s %v: args %q do not read the text file", c.engine, p, args)
			}
		}
	}
}

// containsRun reports whether want appears in args as a contiguous run.
func containsRun(args, want []string) bool {
	for i := range args {
		if len(args)-i >= len(want) && slices.Equal(args[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

func TestEveryVoiceFollowsThePhaseRateAndTheLinesPace(t *testing.T) {
	// Each is a duration per word: larger is slower.
	perWord := map[string]func(engine.Line) float64{
		"flite":     func(l engine.Line) float64 { s, _ := fliteStyle(l); return s },
		"say":       func(l engine.Line) float64 { return 1 / float64(sayRate(l)) },
		"piper":     piperScale,
		"espeak-ng": func(l engine.Line) float64 { wpm, _ := strconv.Atoi(espeakArgs(l, false)[1]); return 1 / float64(wpm) },
		"openai":    func(l engine.Line) float64 { return 1 / speedOf(l) },
	}
	for name, per := range perWord {
		base := per(engine.Line{Phase: engine.Atmosphere})
		for _, p := range engine.Phases {
			for _, pace := range []float64{0, 0.9, 1.1} {
				l := engine.Line{Phase: p, Delivery: engine.Delivery{Pace: pace}}
				want := 1 / (p.Rate() * l.Delivery.PaceOr1())
				if got := per(l) / base; math.Abs(got/want-1) > 0.02 {
					t.Errorf("%s %v at pace %v: %.3f times as long a word, want %.3f", name, p, pace, got, want)
				}
			}
		}
	}
	if flitePitch[engine.Relaxation] >= flitePitch[engine.Atmosphere] ||
		flitePitch[engine.Resolution] <= flitePitch[engine.Atmosphere] {
		t.Error("flite's pitch should sink in relaxation and brighten in resolution")
	}
}

func TestAPaceOutOfReasonIsHeld(t *testing.T) {
	for pace, want := range map[float64]float64{-1: 1, 0: 1, 0.1: minPace, 5: maxPace, 0.9: 0.9} {
		if got := paceOf(engine.Line{Phase: engine.Atmosphere, Delivery: engine.Delivery{Pace: pace}}); math.Abs(got-want) > 1e-9 {
			t.Errorf("pace %v: %v, want %v", pace, got, want)
		}
	}
	if got := paceOf(engine.Line{Phase: engine.Phase(9)}); got != engine.Atmosphere.Rate() {
		t.Errorf("phase 9: pace %v", got)
	}
}

func TestAPhaseOutOfRangeSpeaksLikeTheOpening(t *testing.T) {
	dir := t.TempDir()
	a := (&flite{path: "flite"}).command(context.Background(), engine.Line{Text: "x", Phase: engine.Atmosphere}, dir)
	b := (&flite{path: "flite"}).command(context.Background(), engine.Line{Text: "x", Phase: engine.Phase(9)}, dir)
	if !slices.Equal(a.Args, b.Args) {
		t.Errorf("phase 9 gave %q, want %q", b.Args, a.Args)
	}
}
