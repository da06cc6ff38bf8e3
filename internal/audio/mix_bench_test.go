package audio

import (
	"testing"
	"time"

	"github.com/gopxl/beep/v2"
	"github.com/gopxl/beep/v2/generators"

	"github.com/lull-dev/lull/internal/engine"
)

// BenchmarkMixSecond measures the mixer's cost for one second of audio:
// an empty mix (the baseline, measured in the same run) and a mix as a
// session sounds in its breathing phase — a soundscape ducked under a
// voice, the pacer tone, a chime ringing. It reports the share of one core
// that playing in real time takes.
func BenchmarkMixSecond(b *testing.B) {
	second := Rate.N(time.Second)
	buf := make([][2]float64, 2205) // the speaker's 50 ms
	cases := []struct {
		name  string
		setUp func(m *mix)
	}{
		{"empty", func(*mix) {}},
		{"session", func(m *mix) {
			s, _ := newSoundscape("rain", Rate, 1)
			m.setSoundscape("rain", s)
			m.pacer = newPacer(engine.DefaultBreath, 0)
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			m := newMix(Rate)
			c.setUp(m)
			voice := make([]float32, second)
			for i := range voice {
				voice[i] = 0.1
			}
			b.ResetTimer()
			for range b.N {
				if c.name == "session" {
					m.queue(&segment{clip: voice, done: make(chan struct{})})
					m.chimes = m.chimes[:0]
					m.strike()
				}
				for done := 0; done < second; {
					n, _ := m.fill(buf[:min(len(buf), second-done)])
					done += n
				}
			}
			perSecond := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(perSecond/1e9*100, "%core")
		})
	}
	// The baseline: beep's own mixer playing one of beep's sine tones.
	b.Run("beep-sine", func(b *testing.B) {
		tone, err := generators.SineTone(Rate, 441)
		if err != nil {
			b.Fatal(err)
		}
		var mixer beep.Mixer
		mixer.Add(tone)
		b.ResetTimer()
		for range b.N {
			for done := 0; done < second; done += len(buf) {
				mixer.Stream(buf[:min(len(buf), second-done)])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e9*100, "%core")
	})
}
