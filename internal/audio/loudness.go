package audio

import (
	"context"
	"math"
	"time"

	textspeech "github.com/lull-dev/lull/internal/speech"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// Every clip, whatever voice made it, is brought to one loudness over its
// speech, so a voice that takes over mid-session, or a line from another
// engine, sounds as loud as the one before; then a line's delivery may
// soften it: voiceLine, for every clip the Player prepares.
const (
	// speechLevel is a clip's RMS over its speech, in dBFS (the voice
	// track then plays it at voiceGain).
	speechLevel = -20.0
	// peakCeiling is the loudest any sample may be after the gain, in
	// dBFS: the few peaks above it are limited smoothly, never clipped.
	peakCeiling = -1.0
	// speechGate marks a 10 ms block as silence, not speech, when it is
	// this many dB below the clip's loudest block: the leading and
	// trailing silence and the pauses do not count.
	speechGate = 40.0
	// quietestSpeech is the least a clip's loudest 10 ms must reach to hold
	// speech: below it is an engine's hiss (flite says "..." as a breath
	// of noise near −60 dBFS), left as it is rather than raised to a roar.
	quietestSpeech = -40.0
	// maxGain bounds the raise, in dB: engines speak near −20 dBFS; a
	// clip far quieter is more likely noise than a whisper.
	maxGain = 20.0
	// maxSoften bounds how far a line may be softened, in dB.
	maxSoften = 30.0
)

const (
	levelBlock     = 10 * time.Millisecond
	limiterRelease = 30 * time.Millisecond // how quickly a limited peak's gain eases back
)

// voiceLine is how every clip comes to be, whatever the voice: its figures
// and symbols written out as words, spoken at rate, then levelled, then
// softened by the line's delivery.
func voiceLine(ctx context.Context, v Voice, l engine.Line, rate beep.SampleRate) ([]float32, error) {
	l.Text = textspeech.Spoken(l.Text)
	samples, err := v.Speak(ctx, l, rate)
	if err != nil {
		return nil, err
	}
	samples = trimSilence(samples, rate)
	level(samples, rate, l.Delivery.Soften)
	return samples, nil
}

// level sets clip (mono, at rate) in place to speechLevel less soften dB
// over its speech, with no sample above peakCeiling.
//
//go:norace
func level(clip []float32, rate beep.SampleRate, soften float64) {
	rms, ok := speechRMS(clip, rate)
	if !ok {
		return
	}
	target := speechLevel - min(max(soften, 0), maxSoften)
	gain := float32(math.Pow(10, min(target-dBFS(rms), maxGain)/20))
	for i := range clip {
		clip[i] *= gain
	}
	limitPeaks(clip, rate, float32(math.Pow(10, peakCeiling/20)))
}

// speechRMS is the RMS of the clip's speech: its 10 ms blocks within
// speechGate of the loudest. ok is false when the clip has no speech:
// nothing reaches quietestSpeech.
//
//go:norace
func speechRMS(clip []float32, rate beep.SampleRate) (rms float64, ok bool) {
	n := max(rate.N(levelBlock), 1)
	var squares []float64 // each block's mean square
	loudest := 0.0
	for start := 0; start < len(clip); start += n {
		block := clip[start:min(start+n, len(clip))]
		var sum float64
		for _, s := range block {
			sum += float64(s) * float64(s)
		}
		ms := sum / float64(len(block))
		squares = append(squares, ms)
		loudest = max(loudest, ms)
	}
	if loudest < math.Pow(10, quietestSpeech/10) {
		return 0, false
	}
	gate := loudest * math.Pow(10, -speechGate/10)
	var sum float64
	var count int
	for _, ms := range squares {
		if ms >= gate {
			sum += ms
			count++
		}
	}
	if count == 0 {
		return 0, false
	}
	return math.Sqrt(sum / float64(count)), true
}

// limitPeaks brings every sample within ceiling by a gain that dips
// around each peak and eases back over limiterRelease on both sides: a
// smooth envelope, so a limited peak neither clicks nor distorts.
//
//go:norace
func limitPeaks(clip []float32, rate beep.SampleRate, ceiling float32) {
	over := false
	for _, s := range clip {
		if s > ceiling || s < -ceiling {
			over = true
			break
		}
	}
	if !over {
		return
	}
	gain := make([]float32, len(clip))
	for i, s := range clip {
		gain[i] = 1
		if a := float32(math.Abs(float64(s))); a > ceiling {
			gain[i] = ceiling / a
		}
	}
	ease := float32(math.Exp(-1 / (limiterRelease.Seconds() * float64(rate))))
	for i := 1; i < len(gain); i++ { // after each peak
		gain[i] = min(gain[i], 1-(1-gain[i-1])*ease)
	}
	for i := len(gain) - 2; i >= 0; i-- { // and before it
		gain[i] = min(gain[i], 1-(1-gain[i+1])*ease)
	}
	for i := range clip {
		clip[i] *= gain[i]
	}
}

// dBFS is an amplitude in decibels against full scale.
func dBFS(amplitude float64) float64 { return 20 * math.Log10(amplitude) }
