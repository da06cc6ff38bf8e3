package audio

import (
	"context"
	"math"
	"strconv"
	"sync"
	"testing"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// lineVoice records the line it is asked to speak.
type lineVoice struct {
	mu   sync.Mutex
	last engine.Line
}

func (v *lineVoice) Name() string { return "line" }

func (v *lineVoice) Speak(ctx context.Context, l engine.Line, rate beep.SampleRate) ([]float32, error) {
	v.mu.Lock()
	v.last = l
	v.mu.Unlock()
	return make([]float32, 100), nil
}

// spoken is the line the player gave the voice at rate r.
func spoken(t *testing.T, p *Player, v *lineVoice, r float64, l engine.Line) engine.Line {
	t.Helper()
	p.SetVoiceRate(r)
	if _, err := p.Prepare(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.last
}

// The listener's rate reaches every voice's own setting: espeak-ng's
// words a minute, flite's stretch, the speech server's speed, say's rate
// and piper's length scale, on top of the phase's and the line's pace.
func TestVoiceRateReachesEveryVoicesArguments(t *testing.T) {
	p := silentPlayer(t, 1000)
	v := &lineVoice{}
	p.mu.Lock()
	p.voice = v
	p.mu.Unlock()
	line := engine.Line{Text: "Let the shoulders soften.", Phase: engine.Relaxation, Delivery: engine.Delivery{Pace: 0.95}}
	normal := spoken(t, p, v, 1, line)
	slow := spoken(t, p, v, 0.8, line)
	fast := spoken(t, p, v, 1.2, line)

	if got, want := paceOf(slow)/paceOf(normal), 0.8; math.Abs(got-want) > 1e-9 {
		t.Errorf("at 0.8 the pace is %v of the normal, want %v", got, want)
	}
	if got, want := paceOf(fast)/paceOf(normal), 1.2; math.Abs(got-want) > 1e-9 {
		t.Errorf("at 1.2 the pace is %v of the normal, want %v", got, want)
	}
	wpm := func(l engine.Line) int { n, _ := strconv.Atoi(espeakArgs(l, false)[1]); return n }
	if !(wpm(slow) < wpm(normal) && wpm(normal) < wpm(fast)) {
		t.Errorf("espeak-ng -s: %d at 0.8, %d at 1, %d at 1.2", wpm(slow), wpm(normal), wpm(fast))
	}
	stretch := func(l engine.Line) float64 { s, _ := fliteStyle(l); return s }
	if got, want := stretch(slow)/stretch(normal), 1/0.8; math.Abs(got-want) > 1e-9 {
		t.Errorf("flite's stretch at 0.8 is %v of the normal, want %v", got, want)
	}
	if !(speedOf(slow) < speedOf(normal) && speedOf(normal) < speedOf(fast)) {
		t.Errorf("the speech server's speed: %v at 0.8, %v at 1, %v at 1.2", speedOf(slow), speedOf(normal), speedOf(fast))
	}
	if !(sayRate(slow) < sayRate(normal) && piperScale(slow) > piperScale(normal)) {
		t.Errorf("say %d→%d, piper %v→%v at 0.8", sayRate(normal), sayRate(slow), piperScale(normal), piperScale(slow))
	}
	if line.Delivery.Pace != 0.95 {
		t.Error("the engine's line was changed")
	}
}

// The rate is held to its bounds, on its step.
func TestVoiceRateHeldToItsBounds(t *testing.T) {
	p := silentPlayer(t, 1000)
	for in, want := range map[float64]float64{0: 1, 0.5: engine.MinVoiceRate, 3: engine.MaxVoiceRate, 0.9 + 0.05: 0.95, 1.1: 1.1} {
		if got := p.SetVoiceRate(in); got != want {
			t.Errorf("SetVoiceRate(%v) = %v, want %v", in, got, want)
		}
	}
}

// Text only reads at the listener's rate too: a slower rate, a longer line.
func TestTextOnlyLinesFollowTheVoiceRate(t *testing.T) {
	p := silentPlayer(t, 1000)
	l := lineOf("Breathe in slowly through your nose, and let the air fill you.")
	normal, _ := p.Prepare(context.Background(), l)
	p.SetVoiceRate(0.8)
	slow, _ := p.Prepare(context.Background(), l)
	if got := float64(slow.Duration()) / float64(normal.Duration()); math.Abs(got-1/0.8) > 0.01 {
		t.Errorf("at 0.8 a line lasts %v of its normal length, want %v", got, 1/0.8)
	}
}

// The soundscape's level is its own: turned down, the soundscape is
// softer by its steps and the voice is not.
func TestSoundscapeVolumeIsApartFromTheVoice(t *testing.T) {
	const rate = 8000
	m := newMix(rate)
	m.setSoundscape("dc", dc(1))
	pull(m, 3*rate, 160) // faded in
	m.scapeTarget = volumeGain(DefaultVolume - 2)
	out := pull(m, rate, 160) // glided down
	want := ambientGain * volumeGain(DefaultVolume-2)
	if got := out[len(out)-1][0]; math.Abs(got-want) > 1e-6 {
		t.Fatalf("the soundscape 2 steps down is at %v, want %v", got, want)
	}
	for i := 1; i < len(out); i++ {
		if math.Abs(out[i][0]-out[i-1][0]) > 0.01 {
			t.Fatalf("the soundscape's level stepped at sample %d: %v → %v", i, out[i-1][0], out[i][0])
		}
	}

	// The voice alone, with the soundscape silenced: at its own level.
	v := newMix(rate)
	v.setSoundscape("dc", dc(1))
	v.scapeTarget = volumeGain(0)
	pull(v, 3*rate, 160)
	v.queue(seg(constClip(rate, 0.5), 0))
	heard := pull(v, rate/2, 160)
	if got, want := heard[len(heard)-1][0], 0.5*voiceGain; math.Abs(got-want) > 1e-6 {
		t.Errorf("with the soundscape at 0 the voice is at %v, want %v (its own)", got, want)
	}
}

func TestPlayerSoundscapeVolume(t *testing.T) {
	p := silentPlayer(t, 1000)
	if p.SoundscapeVolume() != DefaultVolume {
		t.Errorf("the soundscape starts at %d", p.SoundscapeVolume())
	}
	if got := p.SetSoundscapeVolume(MaxVolume + 3); got != MaxVolume {
		t.Errorf("SetSoundscapeVolume above the scale = %d", got)
	}
	if got := p.SetSoundscapeVolume(4); got != 4 || p.Volume() != DefaultVolume {
		t.Errorf("soundscape %d, volume %d: want 4 and the volume untouched", got, p.Volume())
	}
}
