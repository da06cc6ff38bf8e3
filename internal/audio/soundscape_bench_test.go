package audio

import (
	"testing"
)

// BenchmarkSoundscape measures what each soundscape costs to synthesize:
// ns per stereo sample, and the share of one core it takes to keep up with
// real time at Rate. The mix may run it a thousand times faster in renders.
func BenchmarkSoundscape(b *testing.B) {
	for _, name := range Soundscapes {
		if name == "none" {
			continue
		}
		b.Run(name, func(b *testing.B) {
			s, err := newSoundscape(name, Rate, 1)
			if err != nil {
				b.Fatal(err)
			}
			buf := make([][2]float64, 1024)
			for b.Loop() {
				s.Stream(buf)
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N*len(buf))
			b.ReportMetric(ns, "ns/sample")
			b.ReportMetric(ns*float64(Rate)/1e9*100, "%core")
		})
	}
}
