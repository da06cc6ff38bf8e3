package engine

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
)

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
// relative to the phase's other silences: 1 everywhere but in resolution.
func restWeight(p Phase, sleep bool, index, n int) float64 {
	if p != Resolution {
		return 1
	}
	x := arc(index, n)
	ratio := silencePerSpeech(Relaxation) / silencePerSpeech(Atmosphere)
	if sleep {
		return 1 + (ratio-1)*x
	}
	return ratio - (ratio-1)*x
}

// silencePerSpeech is the silence phase p plans for each second of speech
// at the voice's normal pace.
func silencePerSpeech(p Phase) float64 {
	s := phasePacing[p].speech
	return (1 - s) / s / p.Rate()
}
