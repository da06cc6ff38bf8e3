package engine

import (
	"math"
	"strings"
	"time"
)

// Planning assumptions until real durations are measured.
const (
	estimateWPM  = 150 // a calm speaking pace, words per minute
	typicalWords = 13  // a typical guide sentence
	// closingTail is how long the last chime rings out after the last word:
	// the whole bowl, while the soundscape fades away.
	closingTail = 8 * time.Second
	// opening is the quiet before the first word: the soundscape and the
	// first chime arrive alone.
	opening = 3 * time.Second
)

// EstimateSpeech is how long a sentence takes to say at the phase's pace
// when no voice can tell exactly (text-only sessions).
func EstimateSpeech(text string, p Phase) time.Duration {
	words := len(strings.Fields(text))
	minutes := float64(words) / (estimateWPM * p.Rate())
	return time.Duration(minutes*float64(time.Minute)) + 300*time.Millisecond
}

// minSentences is the least a phase ever says; resolution needs room for
// its whole grounding.
func minSentences(p Phase) int {
	if p == Resolution {
		return 5
	}
	return 3
}

// windDownLines is how many of a phase's sentences lead onward.
func windDownLines(p Phase, sentences int) int {
	switch {
	case p == Resolution:
		return 2
	case sentences >= 20:
		return 3
	case sentences >= 8:
		return 2
	default:
		return 1
	}
}

// planner turns the time left into phase budgets, learning the real length
// of sentences as they are spoken.
type planner struct {
	length time.Duration
	breath BreathPattern // the breathing phase speaks one line per breath or two
	// speech at the normal pace (rate 1) measured so far.
	measured time.Duration
	count    int
}

// learn records one spoken sentence's duration.
func (pl *planner) learn(p Phase, d time.Duration) {
	pl.measured += time.Duration(float64(d) * p.Rate())
	pl.count++
}

// speech is the expected duration of one of the phase's sentences.
func (pl *planner) speech(p Phase) time.Duration {
	normal := EstimateSpeech(strings.Repeat("word ", typicalWords), Atmosphere)
	if pl.count > 0 {
		normal = pl.measured / time.Duration(pl.count)
	}
	return time.Duration(float64(normal) / p.Rate())
}

// plan budgets phase p at its start, sharing the time left between it and
// the phases after it. capacity, when above zero, caps the sentences and
// the silences stretch instead.
func (pl *planner) plan(p Phase, elapsed time.Duration, capacity int) Budget {
	left := max(pl.length-elapsed, 0)
	var shareLeft float64
	for q := p; q <= Resolution; q++ {
		shareLeft += q.Share()
	}
	target := time.Duration(float64(left) * p.Share() / shareLeft)
	talk := target
	if p == Resolution {
		talk = max(target-closingTail, 0)
	}
	if p == Atmosphere && elapsed == 0 {
		talk = max(talk-opening, 0)
	}
	speech := pl.speech(p)
	slot := speech + p.Rest()
	if p == Breathing {
		slot = pl.breathSlot(speech)
	}
	n := int(math.Round(float64(talk) / float64(slot)))
	n = max(n, minSentences(p))
	if capacity > 0 {
		n = max(min(n, capacity), min(minSentences(p), capacity))
	}
	rest := time.Duration(float64(talk)/float64(n)) - speech
	if p == Breathing {
		rest = slot - speech // each line waits for its breath: whole breaths
	} else {
		rest = min(max(rest, p.Rest()/2), p.Rest()*3)
	}
	return Budget{
		Sentences:  n,
		WindDownAt: n - windDownLines(p, n),
		Target:     target,
		Rest:       rest.Round(time.Millisecond),
	}
}

// breathSlot is the time a breathing line takes: its speech and a short
// gap, rounded up to whole breaths, since every line waits for its cue.
func (pl *planner) breathSlot(speech time.Duration) time.Duration {
	period := pl.breath.Period()
	if period <= 0 {
		return speech + Breathing.Rest()
	}
	breaths := (speech + breathGap + period - 1) / period
	return max(breaths, 1) * period
}

// replan adjusts a phase under way by its clock: when sentences run long
// the phase says fewer, when short it says more. Resolution is never
// replanned: its grounding is laid out when it begins.
func (pl *planner) replan(p Phase, b Budget, spoken int, phaseElapsed time.Duration, capacity int) Budget {
	if p == Resolution {
		return b
	}
	left := b.Target - phaseElapsed
	more := 0
	if left > 0 {
		more = int(math.Round(float64(left) / float64(pl.speech(p)+b.Rest)))
	}
	lead := windDownLines(p, b.Sentences)
	if spoken < b.WindDownAt {
		// Never skip the lines that lead onward.
		more = max(more, lead)
	}
	n := max(spoken+more, minSentences(p))
	if capacity > 0 {
		n = min(n, max(capacity, spoken))
	}
	b.Sentences = n
	if spoken < b.WindDownAt {
		b.WindDownAt = max(n-lead, spoken)
	}
	return b
}
