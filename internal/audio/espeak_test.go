package audio

import (
	"context"
	"math"
	"os/exec"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

func needEspeak(t *testing.T) *espeak {
	t.Helper()
	path, err := exec.LookPath("espeak-ng")
	if err != nil {
		t.Skip("espeak-ng is not installed (make test installs it)")
	}
	return &espeak{path: path}
}

func TestEspeakSpeaksAtTheOutputRateSlowerInRelaxation(t *testing.T) {
	v := needEspeak(t)
	const text = "Let your shoulders soften, and feel the weight of your arms."
	ctx := context.Background()
	relax, err := v.Speak(ctx, engine.Line{Text: text, Phase: engine.Relaxation}, Rate)
	if err != nil {
		t.Fatal(err)
	}
	quick, err := v.Speak(ctx, engine.Line{Text: text, Phase: engine.Resolution}, Rate)
	if err != nil {
		t.Fatal(err)
	}
	dr, dq := Rate.D(len(relax)), Rate.D(len(quick))
	t.Logf("relaxation %v, resolution %v", dr, dq)
	if dr < 2*time.Second || dr > 10*time.Second {
		t.Errorf("a twelve-word sentence lasts %v", dr)
	}
	if dr <= dq {
		t.Errorf("relaxation (%v) is not slower than resolution (%v)", dr, dq)
	}
	var sum float64
	for _, s := range relax {
		sum += float64(s) * float64(s)
	}
	if rms := math.Sqrt(sum / float64(len(relax))); rms < 0.01 {
		t.Errorf("the clip is nearly silent: rms %v", rms)
	}
}

func TestEspeakTakesHostileTextAsWords(t *testing.T) {
	v := needEspeak(t)
	// Text that would be options or a file name on a command line.
	for _, text := range []string{"--help", "-w /tmp/x.wav", "$(rm -rf /)"} {
		clip, err := v.Speak(context.Background(), engine.Line{Text: text, Phase: engine.Sensory}, Rate)
		if err != nil {
			t.Errorf("%q: %v", text, err)
		} else if len(clip) == 0 {
			t.Errorf("%q: no speech", text)
		}
	}
}

func TestEspeakStopsWithItsContext(t *testing.T) {
	v := needEspeak(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := v.Speak(ctx, engine.Line{Text: "Never heard.", Phase: engine.Sensory}, Rate); err == nil {
		t.Error("a cancelled synthesis succeeded")
	}
}
