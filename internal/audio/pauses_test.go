package audio

import (
	"slices"
	"testing"
	"time"
)

func TestWidenPausesAddsSilenceInsideEachUtterancesPauses(t *testing.T) {
	const rate = 1000 // a sample a millisecond
	// Two utterances: 0.5 s with a 100 ms pause at 0.2–0.3 s, then 0.4 s
	// with a 300 ms pause (already long enough) and none other.
	mono := make([]float32, 900)
	for i := range mono {
		mono[i] = 1
	}
	psdur := "pau:0.050 a:0.200 pau:0.300 b:0.450 pau:0.500\npau:0.020 c:0.050 pau:0.350 d:0.380 pau:0.400\n"
	out := widenPauses(mono, rate, []byte(psdur), 250*time.Millisecond)
	if len(out) != 900+150 {
		t.Fatalf("%d samples, want %d: 150 ms added to the short pause only", len(out), 1050)
	}
	// The silence goes in the middle of the pause, at 0.25 s.
	if !slices.Equal(out[250:400], make([]float32, 150)) || out[249] != 1 || out[400] != 1 {
		t.Errorf("the silence is not at 0.25 s: %v…", out[245:255])
	}
}

func TestWidenPausesTrustsOnlyAMatchingAccount(t *testing.T) {
	const rate = 1000
	mono := make([]float32, 500)
	for name, psdur := range map[string]string{
		"nothing":             "",
		"too long":            "pau:0.050 a:0.200 pau:0.300 b:0.900 pau:1.000\n",
		"not flite's":         "Segmentation fault\n",
		"time going back":     "pau:0.050 a:0.200 pau:0.100 b:0.450 pau:0.500\n",
		"no inner pauses":     "pau:0.050 a:0.450 pau:0.500\n",
		"a pause long enough": "pau:0.050 a:0.100 pau:0.400 b:0.450 pau:0.500\n",
	} {
		if out := widenPauses(mono, rate, []byte(psdur), 250*time.Millisecond); len(out) != len(mono) {
			t.Errorf("%s: %d samples, want them as they came", name, len(out))
		}
	}
}
