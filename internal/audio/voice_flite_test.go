package audio

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// phaseSentences are one line of each phase, as a session says them.
var phaseSentences = [len(engine.Phases)]string{
	engine.Atmosphere: "Welcome. Find a comfortable place, and let the room grow quiet around you.",
	engine.Breathing:  "Breathe in slowly through your nose, and let the breath go, long and easy.",
	engine.Sensory:    "Notice the warmth of your hands, and the soft sounds at the edge of the room.",
	engine.Relaxation: "Let your shoulders soften, and feel the weight of your arms sink down.",
	engine.Resolution: "Now begin to move your fingers, and open your eyes when you are ready.",
}

func needFlite(t *testing.T) *flite {
	t.Helper()
	path, err := exec.LookPath("flite")
	if err != nil {
		t.Skip("flite is not installed (sudo apt-get install flite)")
	}
	return &flite{path: path}
}

// speakEveryPhase has a real engine say a sentence of each phase, at the
// engine's own rate (the resampler is slow under the race detector), and
// checks each is speech of a plausible length.
func speakEveryPhase(t *testing.T, v Voice, native beep.SampleRate) [len(engine.Phases)]time.Duration {
	t.Helper()
	var d [len(engine.Phases)]time.Duration
	for _, p := range engine.Phases {
		start := time.Now()
		clip, err := v.Speak(context.Background(), engine.Line{Text: phaseSentences[p], Phase: p}, native)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		d[p] = native.D(len(clip))
		t.Logf("%v: %v of speech in %v", p, d[p].Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
		if d[p] < 2*time.Second || d[p] > 12*time.Second {
			t.Errorf("%v: a fourteen-word sentence lasts %v", p, d[p])
		}
		if r := clipRMS(clip); r < 0.01 {
			t.Errorf("%v: nearly silent (rms %.4f)", p, r)
		}
	}
	return d
}

func TestFliteSpeaksEveryPhaseSlowerInRelaxation(t *testing.T) {
	v := needFlite(t)
	speakEveryPhase(t, v, 16000)
	// The same sentence in both styles, so only the pace differs.
	const text = "Let your shoulders soften, and feel the weight of your arms."
	relax, err := v.Speak(context.Background(), engine.Line{Text: text, Phase: engine.Relaxation}, Rate)
	if err != nil {
		t.Fatal(err)
	}
	quick, err := v.Speak(context.Background(), engine.Line{Text: text, Phase: engine.Resolution}, 16000)
	if err != nil {
		t.Fatal(err)
	}
	dr, dq := Rate.D(len(relax)), beep.SampleRate(16000).D(len(quick))
	if dr <= dq*11/10 {
		t.Errorf("relaxation (%v) is not clearly slower than resolution (%v)", dr, dq)
	}
}

func TestEspeakSpeaksEveryPhase(t *testing.T) {
	speakEveryPhase(t, needEspeak(t), 22050)
}

func TestFliteTakesHostileTextAsWords(t *testing.T) {
	v := needFlite(t)
	for _, text := range []string{"--help", "-o /tmp/x.wav", "$(rm -rf /)"} {
		clip, err := v.Speak(context.Background(), engine.Line{Text: text, Phase: engine.Sensory}, 16000)
		if err != nil {
			t.Errorf("%q: %v", text, err)
		} else if len(clip) == 0 {
			t.Errorf("%q: no speech", text)
		}
	}
}

func TestFliteStopsWithItsContext(t *testing.T) {
	v := needFlite(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := v.Speak(ctx, engine.Line{Text: "Never heard.", Phase: engine.Sensory}, Rate); err == nil {
		t.Error("a cancelled synthesis succeeded")
	}
}

// The synthesis of one sentence, decoded and resampled to the output rate.
func BenchmarkFliteSentence(b *testing.B) {
	benchmarkSentence(b, "flite", func(p string) Voice { return &flite{path: p} })
}
func BenchmarkEspeakSentence(b *testing.B) {
	benchmarkSentence(b, "espeak-ng", func(p string) Voice { return &espeak{path: p} })
}

func benchmarkSentence(b *testing.B, name string, voice func(path string) Voice) {
	path, err := exec.LookPath(name)
	if err != nil {
		b.Skip(name + " is not installed")
	}
	v := voice(path)
	for i := 0; b.Loop(); i++ {
		p := engine.Phases[i%len(engine.Phases)]
		if _, err := v.Speak(context.Background(), engine.Line{Text: phaseSentences[p], Phase: p}, Rate); err != nil {
			b.Fatal(err)
		}
	}
}

func TestFliteHearsTypographicPausesInASCII(t *testing.T) {
	got := fliteText.Replace("Let’s rest — slowly… “gently”.")
	if want := `Let's rest ,  slowly... "gently".`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
