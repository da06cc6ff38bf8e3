package engine

import "time"

// Resolution is an arc, not a step: the voice and the silences move
// gradually across the phase, never at its boundary. A waking close
// begins at relaxation's pace and quickens to its own by the last line,
// its silences shrinking from relaxation's toward atmosphere's; a sleep
// session's close slows and softens instead, its silences lengthening.

const (
	// sleepSlowing is the pace a sleep session's last line keeps of the
	// pace its resolution began at.
	sleepSlowing = 0.9
	// sleepSoften is how much softer than the voice's level a sleep
	// session's last line is, in decibels.
	sleepSoften = 6.0
	// sleepGrowth is how many times longer a sleep session's last silence
	// in relaxation and resolution is than its first: the voice thins out
	// as the listener drifts, instead of keeping time like a waking one.
	sleepGrowth = 4.0
	// sleepSpeech is the share of relaxation's speech a sleep session's
	// relaxation and resolution keep: fewer lines, more quiet.
	sleepSpeech = 0.7
	// sleepSensing is the share of its waking speech a sleep session's
	// sensory phase keeps: a listener settling into bed is given room
	// between the things to notice, not a line every few breaths.
	sleepSensing = 0.75
	// sleepMost is the longest silence after a line in a sleep session's
	// relaxation and resolution (a waking one's is its phase's most).
	sleepMost = 90 * time.Second
	// A sleep session leaves the soundscape alone after the goodnight for
	// a tenth of its time beyond its first ten minutes (a minute of a
	// 20-minute session, five of an hour's), and never less than the
	// chime needs: a drowsy listener is not spoken to in the last minutes.
	// A short one keeps its time for its few lines.
	sleepTailFrom  = 10 * time.Minute
	sleepTailShare = 1.0 / 10
	// settlingGrowth is how many times longer atmosphere's last silence is
	// than its first: the opening speaks close together while the
	// listener arrives (their reason for coming within the first minute)
	// and leaves them more room as they settle.
	settlingGrowth = 3.0
)

// thins says whether phase p of a sleep session thins its voice out.
func thins(p Phase, sleep bool) bool {
	return sleep && (p == Relaxation || p == Resolution)
}

// tail is the quiet after the last word of a session this long: the
// chime ringing out, and for a sleep session its soundscape alone.
func tail(length time.Duration, sleep bool) time.Duration {
	if !sleep {
		return closingTail
	}
	return max(closingTail, time.Duration(float64(length-sleepTailFrom)*sleepTailShare)).Round(time.Second)
}

// arc is how far line index lies across a phase of n planned lines: 0 at
// its first, 1 at its last and at any a close runs on past it.
func arc(index, n int) float64 {
	if n <= 1 {
		return 1
	}
	return min(max(float64(index)/float64(n-1), 0), 1)
}

// lineDelivery is how the line at index of phase p, of n planned, is
// voiced beyond its phase's style.
func lineDelivery(p Phase, sleep bool, index, n int) Delivery {
	if p != Resolution {
		return Delivery{}
	}
	x := arc(index, n)
	from := Relaxation.Rate() / Resolution.Rate() // relaxation's pace, where the phase begins
	if sleep {
		return Delivery{Pace: from * (1 - (1-sleepSlowing)*x), Soften: sleepSoften * x}
	}
	return Delivery{Pace: from + (1-from)*x}
}

// meanPace is the average delivery pace across phase p: the ramps are
// straight lines, so the mean of their ends.
func meanPace(p Phase, sleep bool) float64 {
	return (lineDelivery(p, sleep, 0, 2).PaceOr1() + lineDelivery(p, sleep, 1, 2).PaceOr1()) / 2
}

// restWeight is the silence after line index of phase p, of n planned,
// relative to the phase's other silences: 1 everywhere but in atmosphere,
// resolution and a sleep session's relaxation.
func restWeight(p Phase, sleep bool, index, n int) float64 {
	if p == Atmosphere {
		return 1 + (settlingGrowth-1)*arc(index, n)
	}
	if sleep && p == Relaxation {
		return 1 + (sleepGrowth-1)*arc(index, n)
	}
	if p != Resolution {
		return 1
	}
	x := arc(index, n)
	ratio := silencePerSpeech(Relaxation) / silencePerSpeech(Atmosphere)
	if sleep {
		// Relaxation has already thinned out: the drift's few lines keep
		// long silences that still lengthen, a little.
		return 1 + x
	}
	return ratio - (ratio-1)*x
}

// silencePerSpeech is the silence phase p plans for each second of speech
// at the voice's normal pace.
func silencePerSpeech(p Phase) float64 {
	s := phasePacing[p].speech
	return (1 - s) / s / p.Rate()
}
