package audio

import (
	"context"
	"io"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// The delivery a listener hears from the real local engines, through the
// Player as a session prepares each line: pace, pauses and loudness.

// sessionLines are lines of each phase as the built-in guide says them.
var sessionLines = [len(engine.Phases)][]string{
	engine.Atmosphere: {
		"You have arrived, and for a little while there is nothing else to do.",
		"Give yourself permission to be exactly as you are right now.",
		"This space asks nothing of you at all.",
	},
	engine.Breathing: {
		"Nothing to push, nothing to grip, just air coming and going.",
		"The out-breath can be long and smooth, like pouring warm water.",
		"Feel the cool air at the tip of your nose as you breathe in.",
	},
	engine.Sensory: {
		"The space behind your knees can grow soft and warm.",
		"Notice the warmth of your hands, and the soft sounds at the edge of the room.",
		"Let your attention settle into your hips, broad and steady.",
	},
	engine.Relaxation: {
		"Let go a little more, and then a little more.",
		"Each muscle soft, each thought slow.",
		"Your thoughts grow fainter, like voices in a distant room.",
	},
	engine.Resolution: {
		"Slowly, the world returns, soft at the edges and kind.",
		"Gently stretch your arms, or point and flex your feet, whatever feels good.",
		"Remember that you can return to this calm whenever you need it.",
	},
}

// preparer speaks lines as a session does: through a Player's Prepare at
// the output rate, or, without p, through voiceLine (what Prepare does)
// at the engine's own rate — the resampler is slow under the race
// detector, and neither pace nor loudness depends on it.
type preparer struct {
	t    *testing.T
	v    Voice
	rate beep.SampleRate
	p    *Player
}

// needPlayer is a Player set up with one voice engine.
func needPlayer(t *testing.T, voice string) *preparer {
	t.Helper()
	if _, err := exec.LookPath(voice); err != nil {
		t.Skipf("%s is not installed (make test installs it)", voice)
	}
	p, err := Open(Options{Voice: voice, Soundscape: "none", Render: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return &preparer{t: t, p: p, rate: Rate}
}

// needVoice is one voice engine as a session finds it, spoken at its own
// rate: 22050 Hz for espeak-ng's own voices, 16000 for flite and mbrola.
func needVoice(t *testing.T, voice string, cfg VoiceConfig) *preparer {
	t.Helper()
	if _, err := exec.LookPath(voice); err != nil {
		t.Skipf("%s is not installed (make test installs it)", voice)
	}
	v, _, err := findVoice(voice, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := v.(*chain).voices[0]
	if first.Name() != voice {
		t.Fatalf("asked for %s, got %s", voice, first.Name())
	}
	rate := beep.SampleRate(16000)
	if es, ok := first.(*espeak); ok && !es.mbrola {
		rate = 22050
	}
	return &preparer{t: t, v: first, rate: rate}
}

// speak prepares a line and returns its samples, at pr.rate.
func (pr *preparer) speak(l engine.Line) []float32 {
	pr.t.Helper()
	var samples []float32
	if pr.p != nil {
		u, err := pr.p.Prepare(context.Background(), l)
		if err != nil {
			pr.t.Fatalf("%q: %v", l.Text, err)
		}
		if c, ok := u.(*clip); ok {
			samples = c.samples
		}
	} else {
		var err error
		if samples, err = voiceLine(context.Background(), pr.v, l, pr.rate); err != nil {
			pr.t.Fatalf("%q: %v", l.Text, err)
		}
	}
	if len(samples) == 0 {
		pr.t.Fatalf("%q: no speech", l.Text)
	}
	return samples
}

func countWords(text string) int {
	return len(strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	}))
}

// The words a minute while speaking (words ÷ clip seconds) stay within
// the pace a listener can settle into: at most 125 in any phase, 105 in
// the relaxation.
func TestLocalVoicesSpeakUnhurried(t *testing.T) {
	for _, voice := range []string{"espeak-ng", "flite"} {
		t.Run(voice, func(t *testing.T) { checkUnhurried(t, needVoice(t, voice, VoiceConfig{})) })
	}
}

func checkUnhurried(t *testing.T, pr *preparer) {
	t.Helper()
	for _, p := range engine.Phases {
		words, secs := 0, 0.0
		for _, text := range sessionLines[p] {
			words += countWords(text)
			secs += pr.rate.D(len(pr.speak(engine.Line{Text: text, Phase: p}))).Seconds()
		}
		wpm := float64(words) / secs * 60
		limit := 125.0
		if p == engine.Relaxation {
			limit = 105
		}
		t.Logf("%v: %.0f words a minute", p, wpm)
		if wpm > limit {
			t.Errorf("%v: %.0f words a minute, want at most %.0f", p, wpm, limit)
		}
	}
}

// A line's delivery reaches the voice: a slower pace is a longer clip.
func TestTheLinesPaceReachesTheVoice(t *testing.T) {
	const text = "Let your shoulders soften, and feel the weight of your arms."
	for _, voice := range []string{"espeak-ng", "flite"} {
		t.Run(voice, func(t *testing.T) {
			pr := needVoice(t, voice, VoiceConfig{})
			normal := pr.rate.D(len(pr.speak(engine.Line{Text: text, Phase: engine.Resolution})))
			slow := pr.rate.D(len(pr.speak(engine.Line{Text: text, Phase: engine.Resolution, Delivery: engine.Delivery{Pace: 0.8}})))
			t.Logf("pace 1: %v, pace 0.8: %v", normal, slow)
			if float64(slow) < 1.15*float64(normal) {
				t.Errorf("at pace 0.8 the line lasts %v, at 1 %v: want it clearly longer", slow, normal)
			}
		})
	}
}

// Each comma is a pause a listener can hear, in every local voice.
func TestLocalVoicesPauseAtCommas(t *testing.T) {
	for _, voice := range []string{"espeak-ng", "flite"} {
		t.Run(voice, func(t *testing.T) { checkCommaPauses(t, needVoice(t, voice, VoiceConfig{})) })
	}
}

func checkCommaPauses(t *testing.T, pr *preparer) {
	t.Helper()
	const text = "Let your shoulders soften, and feel the weight of your arms, heavy and warm."
	pauses := innerPauses(pr.speak(engine.Line{Text: text, Phase: engine.Atmosphere}), pr.rate, 200*time.Millisecond)
	t.Logf("pauses inside the line: %v", pauses)
	if len(pauses) < 2 {
		t.Errorf("%d pauses of 200 ms or more inside a line with two commas, want 2: %v", len(pauses), pauses)
	}
}

// innerPauses are the silences of at least min between the clip's first
// and last sound, silence being 10 ms below −45 dBFS.
func innerPauses(clip []float32, rate beep.SampleRate, least time.Duration) []time.Duration {
	n := rate.N(10 * time.Millisecond)
	var quiet []bool
	for i := 0; i+n <= len(clip); i += n {
		quiet = append(quiet, testRMSdB(clip[i:i+n]) < -45)
	}
	first, last := 0, len(quiet)-1
	for first < len(quiet) && quiet[first] {
		first++
	}
	for last >= 0 && quiet[last] {
		last--
	}
	var pauses []time.Duration
	run := 0
	for i := first; i <= last; i++ {
		if quiet[i] {
			run++
			continue
		}
		if d := time.Duration(run) * 10 * time.Millisecond; run > 0 && d >= least {
			pauses = append(pauses, d)
		}
		run = 0
	}
	return pauses
}

// Every clip, from either engine, short or long, in any phase, is at
// −20 dBFS over its speech (within 1 dB), with no peak above −1 dBFS; a
// softened line is that many dB lower. First as the Player prepares them
// for a session, then more lines at the engines' own rates.
func TestEveryClipSpeaksAtOneLoudness(t *testing.T) {
	lines := []engine.Line{
		{Text: "Rest.", Phase: engine.Relaxation},
		{Text: "Breathe in.", Phase: engine.Breathing},
		{Text: sessionLines[engine.Atmosphere][0], Phase: engine.Atmosphere},
	}
	for _, voice := range []string{"espeak-ng", "flite"} {
		t.Run(voice, func(t *testing.T) { checkLoudness(t, needPlayer(t, voice), lines) })
	}
}

func TestShortAndLongLinesSpeakAtOneLoudness(t *testing.T) {
	for _, voice := range []string{"espeak-ng", "flite"} {
		t.Run(voice, func(t *testing.T) { checkLoudness(t, needVoice(t, voice, VoiceConfig{}), loudnessLines) })
	}
}

// loudnessLines are short and long, in several phases.
var loudnessLines = []engine.Line{
	{Text: "Rest.", Phase: engine.Relaxation},
	{Text: "Breathe in.", Phase: engine.Breathing},
	{Text: sessionLines[engine.Atmosphere][0], Phase: engine.Atmosphere},
	{Text: "Notice the warmth of your hands, the weight of your arms, the soft sounds at the edge of the room, " +
		"and the slow rise and fall of your breath as it comes and goes, all on its own.", Phase: engine.Sensory},
	{Text: sessionLines[engine.Resolution][1], Phase: engine.Resolution},
}

func checkLoudness(t *testing.T, pr *preparer, lines []engine.Line) {
	t.Helper()
	ceiling := math.Pow(10, -1.0/20)
	for i, l := range lines {
		c := pr.speak(l)
		level := speechLevelOf(c, pr.rate)
		t.Logf("%q: %.2f dBFS over the speech, peak %.2f dBFS", l.Text, level, 20*math.Log10(peakOf(c)))
		if math.Abs(level-(-20)) > 1 {
			t.Errorf("%q: %.2f dBFS over the speech, want −20 ± 1", l.Text, level)
		}
		if peakOf(c) > ceiling+1e-6 {
			t.Errorf("%q: peak %.2f dBFS, above −1", l.Text, 20*math.Log10(peakOf(c)))
		}
		if i != len(lines)-1 {
			continue
		}
		// Softening is a gain on the whole clip: compare the whole.
		soft := l
		soft.Delivery.Soften = 6
		if got := testRMSdB(c) - testRMSdB(pr.speak(soft)); math.Abs(got-6) > 0.3 {
			t.Errorf("%q softened by 6 dB is %.2f dB quieter", l.Text, got)
		}
	}
}

// speechLevelOf is a clip's RMS in dBFS over its 20 ms windows louder than
// −50 dBFS: its speech, not its silences (measured here on its own, not
// by the code under test).
func speechLevelOf(clip []float32, rate beep.SampleRate) float64 {
	n := rate.N(20 * time.Millisecond)
	var sum float64
	var count int
	for i := 0; i+n <= len(clip); i += n {
		w := clip[i : i+n]
		if testRMSdB(w) > -50 {
			for _, s := range w {
				sum += float64(s) * float64(s)
			}
			count += n
		}
	}
	return 10 * math.Log10(sum/float64(max(count, 1)))
}

func testRMSdB(w []float32) float64 { return 20 * math.Log10(clipRMS(w)+1e-12) }

func peakOf(clip []float32) float64 {
	var peak float64
	for _, s := range clip {
		peak = max(peak, math.Abs(float64(s)))
	}
	return peak
}
