package safety

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/speech"
)

// benchSentences are the held-out corpus's sentences as the screen meets
// them, harmful and safe, each in its place.
func benchSentences(tb testing.TB) (texts []string, at []Place) {
	for _, e := range readTestCorpus(tb, "heldout") {
		var sp speech.Speech
		for _, s := range append(sp.Feed(e.Text), sp.Flush()...) {
			texts = append(texts, s)
			at = append(at, e.At)
		}
	}
	return texts, at
}

// quantile is the q-th quantile of ds, sorted in place.
func quantile(ds []time.Duration, q float64) time.Duration {
	slices.Sort(ds)
	return ds[int(q*float64(len(ds)-1))]
}

// BenchmarkScreen is the time the local screen takes per sentence (p50,
// p99), beside its anchor measured in the same run: the time espeak-ng,
// lull's quickest voice, takes to synthesize one. The listener waits on
// the voice, never on the screen: its p99 must stay under a tenth of the
// voice's p50. Run with `make bench`, or
//
//	go test -run '^$' -bench Screen ./safety
func BenchmarkScreen(b *testing.B) {
	texts, at := benchSentences(b)
	s := Default()
	s.Sentence(texts[0], at[0]) // the first check loads what later ones share
	var took []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		s.Sentence(texts[i%len(texts)], at[i%len(texts)])
		took = append(took, time.Since(start))
		i++
	}
	p50, p99 := quantile(took, 0.5), quantile(took, 0.99)
	b.ReportMetric(float64(p50.Microseconds()), "screen-p50-µs")
	b.ReportMetric(float64(p99.Microseconds()), "screen-p99-µs")
	voice, err := exec.LookPath("espeak-ng")
	if err != nil {
		b.Logf("no espeak-ng: the screen's figures stand without their anchor")
		return
	}
	dir := b.TempDir()
	var synth []time.Duration
	for j := 0; j < 40; j++ {
		wav := filepath.Join(dir, "s.wav")
		start := time.Now()
		if err := exec.Command(voice, "-w", wav, texts[(j*97)%len(texts)]).Run(); err != nil {
			b.Fatalf("espeak-ng: %v", err)
		}
		synth = append(synth, time.Since(start))
		_ = os.Remove(wav)
	}
	voiceP50 := quantile(synth, 0.5)
	b.ReportMetric(float64(voiceP50.Microseconds()), "espeak-p50-µs")
	b.ReportMetric(float64(p99)/float64(voiceP50), "ratio")
	b.ReportMetric(0.1, "max-ratio")
}
