package audio

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// outArg finds the output file among a fake's arguments.
const outArg = `out=; while [ $# -gt 0 ]; do case "$1" in -o|-w|--output_file) out="$2";; esac; shift; done`

// localVoices are the adapters of each local engine around one program.
func localVoices(path string) []Voice {
	return []Voice{&flite{path: path}, &say{path: path}, &piper{path: path, model: "m.onnx"}, &espeak{path: path}}
}

func TestLocalVoicesSayHowTheyFailed(t *testing.T) {
	for _, c := range []struct {
		name, script string
		want         []string
	}{
		{"exit", `echo "loading the voice" >&2; echo "Error: voice slt is broken" >&2; exit 1`,
			[]string{"exit status 1", "Error: voice slt is broken"}},
		{"garbage", outArg + `; echo "this is not a wav file" > "$out"`,
			[]string{"unreadable output", "not a WAV file"}},
		{"nothing", `exit 0`, []string{"wrote no speech"}},
		{"empty wav", outArg + `; printf 'RIFF\044\0\0\0WAVEfmt \020\0\0\0\001\0\001\0\042\126\0\0\104\254\0\0\002\0\020\0data\0\0\0\0' > "$out"`,
			[]string{"wrote no speech"}},
		{"huge", outArg + `; head -c 33554433 /dev/zero > "$out"`, []string{"more than 32 MiB"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("TMPDIR", t.TempDir())
			bin := installScript(t, t.TempDir(), "engine", c.script)
			for _, v := range localVoices(bin) {
				_, err := v.Speak(context.Background(), engine.Line{Text: "Rest here.", Phase: engine.Sensory}, Rate)
				if err == nil {
					t.Fatalf("%s: no error", v.Name())
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, v.Name()+": ") {
					t.Errorf("%s: %q does not name the engine", v.Name(), msg)
				}
				for _, w := range c.want {
					if !strings.Contains(msg, w) {
						t.Errorf("%s: %q does not say %q", v.Name(), msg, w)
					}
				}
			}
			if left, _ := os.ReadDir(os.Getenv("TMPDIR")); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

func TestAMissingEngineCannotRun(t *testing.T) {
	_, err := (&flite{path: filepath.Join(t.TempDir(), "flite")}).Speak(context.Background(), engine.Line{Text: "Hello.", Phase: engine.Sensory}, Rate)
	if err == nil || !strings.Contains(err.Error(), "flite: could not run") {
		t.Errorf("got %v", err)
	}
}

func TestAHungEngineStopsWithTheContext(t *testing.T) {
	// The sleep is a child of the shell: the whole group must go.
	bin := installScript(t, t.TempDir(), "engine", `sleep 600; echo never`)
	for _, v := range localVoices(bin) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		start := time.Now()
		_, err := v.Speak(ctx, engine.Line{Text: "Rest here.", Phase: engine.Sensory}, Rate)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: got %v, want the context's error", v.Name(), err)
		}
		// The engine sleeps ten minutes: half a minute is a bound only a
		// group left running could reach, however busy the machine.
		if took := time.Since(start); took > 30*time.Second {
			t.Errorf("%s: took %v to stop", v.Name(), took)
		}
	}
}

func TestAHungEngineTimesOut(t *testing.T) {
	bin := installScript(t, t.TempDir(), "flite", `sleep 600`)
	f := &flite{path: bin}
	l := localEngine{name: f.Name(), timeout: 200 * time.Millisecond, command: f.command}
	start := time.Now()
	_, err := l.speak(context.Background(), engine.Line{Text: "Rest here.", Phase: engine.Sensory}, Rate)
	if err == nil || !strings.Contains(err.Error(), "flite: timed out") {
		t.Errorf("got %v", err)
	}
	if took := time.Since(start); took > 30*time.Second { // it sleeps ten minutes
		t.Errorf("took %v to stop", took)
	}
}

func TestFakeEnginesSpeakAtEachPhasePace(t *testing.T) {
	dir := t.TempDir()
	const text = "Let your shoulders soften and feel the weight of your arms" // eleven words
	model := filepath.Join(dir, "calm.onnx")
	for _, c := range []struct {
		v    Voice
		pace func(engine.Phase) time.Duration // per word
	}{
		{&say{path: installFake(t, dir, "say")}, func(p engine.Phase) time.Duration {
			return time.Minute / time.Duration(sayRate(engine.Line{Phase: p}))
		}},
		{&piper{path: installFake(t, dir, "piper"), model: model}, func(p engine.Phase) time.Duration {
			return time.Duration(float64(fakeWordTime) * piperScale(engine.Line{Phase: p}))
		}},
		{&flite{path: installFake(t, dir, "flite")}, func(p engine.Phase) time.Duration {
			s, _ := fliteStyle(engine.Line{Phase: p})
			return time.Duration(float64(fakeWordTime) * s)
		}},
	} {
		// At the engines' own rate, to keep the race detector quick; one
		// phase goes through the resampler to the output rate.
		for _, p := range engine.Phases {
			rate := beep.SampleRate(22050)
			if p == engine.Relaxation {
				rate = Rate
			}
			clip, err := c.v.Speak(context.Background(), engine.Line{Text: text, Phase: p}, rate)
			if err != nil {
				t.Fatalf("%s %v: %v", c.v.Name(), p, err)
			}
			want := 11 * c.pace(p)
			if got := rate.D(len(clip)); !near(got, want, 20*time.Millisecond) {
				t.Errorf("%s %v: %v of speech, want %v", c.v.Name(), p, got, want)
			}
			if r := clipRMS(clip); r < 0.1 {
				t.Errorf("%s %v: nearly silent (rms %.3f)", c.v.Name(), p, r)
			}
		}
	}
}
