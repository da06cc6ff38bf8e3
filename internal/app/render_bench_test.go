package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// BenchmarkRender renders a 10-minute session to a WAV file and reports
// how many times faster than real time it was made: with espeak-ng (every
// line synthesized and resampled) and text only (the mixer and the engine
// alone, the baseline of the same run).
func BenchmarkRender(b *testing.B) {
	for _, voice := range []string{"espeak-ng", "none"} {
		b.Run(voice, func(b *testing.B) {
			if voice != "none" {
				if _, err := exec.LookPath(voice); err != nil {
					b.Skipf("%s is not installed", voice)
				}
			}
			var audioTime, wall time.Duration
			for i := range b.N {
				a, err := New(Options{Paths: Paths{Data: b.TempDir()}, Config: defaultConfig})
				if err != nil {
					b.Fatal(err)
				}
				f, err := os.Create(filepath.Join(b.TempDir(), "s.wav"))
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				r, err := a.Render(engine.Options{Seed: int64(i + 1), Length: 10 * time.Minute, Voice: voice, Soundscape: "brown"}, f)
				if err != nil {
					b.Fatal(err)
				}
				<-r.Done()
				if err := r.Close(); err != nil {
					b.Fatal(err)
				}
				wall += time.Since(start)
				audioTime += r.Snapshot().Elapsed
				f.Close()
				a.Close()
			}
			b.ReportMetric(audioTime.Seconds()/wall.Seconds(), "x_realtime")
		})
	}
}
