package audio

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"lull/engine"
)

// hostile would be options, a file name or a shell command on a command
// line.
const hostile = "--help -o /tmp/x.wav $(rm -rf ~) `id`; say -v Bad"

// commandCase is a local engine's command for one phase, and the
// arguments it must carry.
type commandCase struct {
	engine string
	build  func(ctx context.Context, text string, p engine.Phase, dir string) *exec.Cmd
	want   map[engine.Phase][][]string
	stdin  bool // the text goes in on stdin, else in dir's text file
}

func commandCases() []commandCase {
	return []commandCase{
		{
			engine: "flite",
			build:  (&flite{path: "/usr/bin/flite"}).command,
			want: map[engine.Phase][][]string{
				engine.Atmosphere: {{"-voice", "slt", "--setf", "duration_stretch=1.1", "--setf", "int_f0_target_mean=160"}},
				engine.Relaxation: {{"--setf", "duration_stretch=1.32", "--setf", "int_f0_target_mean=146"}},
				engine.Resolution: {{"--setf", "duration_stretch=1.02", "--setf", "int_f0_target_mean=170"}},
			},
		},
		{
			engine: "say",
			build:  (&say{path: "/usr/bin/say"}).command,
			want: map[engine.Phase][][]string{
				engine.Atmosphere: {{"-v", "Samantha", "-r", "160", "-o"}, {"--file-format=WAVE", "--data-format=LEI16@22050", "-f"}},
				engine.Relaxation: {{"-r", "132"}},
				engine.Resolution: {{"-r", "165"}},
			},
		},
		{
			engine: "piper",
			build:  (&piper{path: "/opt/piper/piper", model: "/models/calm.onnx"}).command,
			want: map[engine.Phase][][]string{
				engine.Atmosphere: {{"--model", "/models/calm.onnx"}, {"--length_scale", "1.1", "--sentence_silence", "0"}},
				engine.Relaxation: {{"--length_scale", "1.35"}},
				engine.Resolution: {{"--length_scale", "1"}},
			},
			stdin: true,
		},
		{
			engine: "espeak-ng",
			build:  (&espeak{path: "/usr/bin/espeak-ng"}).command,
			want: map[engine.Phase][][]string{
				engine.Atmosphere: {{"-v", "en-us+f2", "-s", "150", "-p", "42", "-g", "1"}},
				engine.Relaxation: {{"-s", "128", "-p", "36", "-g", "3"}},
				engine.Resolution: {{"-s", "155", "-p", "44", "-g", "1"}},
			},
			stdin: true,
		},
	}
}

func TestLocalCommandsCarryThePhaseStyleAndNeverTheText(t *testing.T) {
	dir := t.TempDir()
	for _, c := range commandCases() {
		for p, want := range c.want {
			cmd := c.build(context.Background(), hostile, p, dir)
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

func TestEveryStyleIsSlowestInRelaxationAndQuickestInResolution(t *testing.T) {
	// Each is a duration per word: larger is slower.
	paces := map[string]func(engine.Phase) float64{
		"flite":     func(p engine.Phase) float64 { return fliteStyles[p].stretch },
		"say":       func(p engine.Phase) float64 { return 1 / float64(sayWPM[p]) },
		"piper":     func(p engine.Phase) float64 { return piperLength[p] },
		"espeak-ng": func(p engine.Phase) float64 { return 1 / float64(espeakStyles[p].wpm) },
		"openai":    func(p engine.Phase) float64 { return 1 / speechSpeed[p] },
	}
	for name, pace := range paces {
		for _, p := range engine.Phases {
			if p != engine.Relaxation && pace(p) >= pace(engine.Relaxation) {
				t.Errorf("%s: %v is as slow as relaxation", name, p)
			}
			if p != engine.Resolution && pace(p) < pace(engine.Resolution) {
				t.Errorf("%s: %v is quicker than resolution", name, p)
			}
		}
	}
	if fliteStyles[engine.Relaxation].pitch >= fliteStyles[engine.Atmosphere].pitch ||
		fliteStyles[engine.Resolution].pitch <= fliteStyles[engine.Atmosphere].pitch {
		t.Error("flite's pitch should sink in relaxation and brighten in resolution")
	}
}

func TestAPhaseOutOfRangeSpeaksLikeTheOpening(t *testing.T) {
	dir := t.TempDir()
	a := (&flite{path: "flite"}).command(context.Background(), "x", engine.Atmosphere, dir)
	b := (&flite{path: "flite"}).command(context.Background(), "x", engine.Phase(9), dir)
	if !slices.Equal(a.Args, b.Args) {
		t.Errorf("phase 9 gave %q, want %q", b.Args, a.Args)
	}
}
