package engine

import (
	"math"
	"strings"
	"time"
)

// Planning assumptions until real durations are measured.
const (
	estimateWPM  = 115 // an unhurried speaking pace, words per minute
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

// EstimateLine is EstimateSpeech for a line voiced with its delivery.
func EstimateLine(l Line) time.Duration {
	return time.Duration(float64(EstimateSpeech(l.Text, l.Phase)) / l.Delivery.PaceOr1())
}

// TypicalSpeech is a typical sentence of the phase, before any is measured.
func TypicalSpeech(p Phase) time.Duration {
	return EstimateSpeech(strings.Repeat("word ", typicalWords), p)
}

// MinSentences is the least a phase ever says; resolution needs room for
// its whole grounding.
func MinSentences(p Phase, sleep bool) int {
	switch {
	case p == Resolution && sleep:
		return 4 // settling, permission, the drift and the goodnight: a sleeper is not talked back
	case p == Resolution:
		return 5
	}
	return 3
}

// WindDownLines is how many of a phase's sentences lead onward.
func WindDownLines(p Phase, sentences int) int {
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
	sleep  bool          // resolution drifts toward sleep: its voice slows
	// perBreath is how many lines a worded breath carries once the rhythm
	// is taught (see BreathLiner).
	perBreath int
	// Speech measured so far at the normal pace (rate 1): over the whole
	// session, and in each phase, whose lines may run shorter or longer.
	all    measure
	phases [len(Phases)]measure
	// estimated adds up the same lines' estimates (EstimateLine), spoken
	// adds up their real lengths: how far the voice strays from the
	// estimate.
	estimated, spoken time.Duration
}

// measure adds up spoken lines.
type measure struct {
	total time.Duration
	count int
}

// phasePrior is how many lines of the whole session's mean a phase's own
// mean is blended with: its first line alone says little.
const phasePrior = 2

// learn records one spoken line's duration.
func (pl *planner) learn(l Line, d time.Duration) {
	normal := time.Duration(float64(d) * l.Phase.Rate() * l.Delivery.PaceOr1())
	pl.all.total += normal
	pl.all.count++
	pl.phases[l.Phase].total += normal
	pl.phases[l.Phase].count++
	pl.estimated += EstimateLine(l)
	pl.spoken += d
}

// expect is how long a line not yet voiced will take: its estimate, by
// what the voice has shown of itself so far.
func (pl *planner) expect(l Line) time.Duration {
	est := EstimateLine(l)
	if pl.estimated <= 0 {
		return est
	}
	return time.Duration(float64(est) * float64(pl.spoken) / float64(pl.estimated))
}

// speech is the expected duration of one of the phase's sentences.
func (pl *planner) speech(p Phase) time.Duration {
	normal := TypicalSpeech(Atmosphere)
	if pl.all.count > 0 {
		normal = pl.all.total / time.Duration(pl.all.count)
	}
	if m := pl.phases[p]; m.count > 0 {
		normal = (m.total + phasePrior*normal) / time.Duration(m.count+phasePrior)
	}
	return time.Duration(float64(normal) / (p.Rate() * meanPace(p, pl.sleep)))
}

// plan budgets phase p at its start, sharing the time left between it and
// the phases after it. The phase speaks for its speech share of that time
// and is silent for the rest; breathing speaks a line per breath or two.
// capacity, when above zero, caps the sentences and the silences stretch
// instead.
func (pl *planner) plan(p Phase, elapsed time.Duration, capacity int) Budget {
	left := max(pl.length-elapsed, 0)
	var shareLeft float64
	for q := p; q <= Resolution; q++ {
		shareLeft += q.Share(pl.length, pl.sleep)
	}
	target := time.Duration(float64(left) * p.Share(pl.length, pl.sleep) / shareLeft)
	if need := pl.leastResolution(); p < Resolution && time.Duration(float64(left)*Resolution.Share(pl.length, pl.sleep)/shareLeft) < need {
		// Resolution always runs whole: when its share of the time left
		// could not hold its close, the phases before it make room.
		target = time.Duration(float64(max(left-need, 0)) * p.Share(pl.length, pl.sleep) / (shareLeft - Resolution.Share(pl.length, pl.sleep)))
	}
	talk := target
	if p == Resolution {
		talk = max(target-tail(pl.length, pl.sleep), 0)
	}
	if p == Atmosphere && elapsed == 0 {
		talk = max(talk-opening, 0)
	}
	speech := pl.speech(p)
	var n int
	if p == Breathing && pl.breath.Period() > 0 {
		// Breathing's lines are paced by its breaths: every part of the
		// taught ones, then a breath with words in wordedEvery (see
		// breathLines); the quiet breaths between them take up the rest.
		n = max(pl.breathLines(talk), MinSentences(p, pl.sleep))
	} else {
		n = max(pl.fit(p, talk, pl.taught(), pl.breathSlot(speech)-speech), MinSentences(p, pl.sleep))
	}
	if capacity > 0 {
		n = max(min(n, capacity), min(MinSentences(p, pl.sleep), capacity))
	}
	rest := time.Duration(float64(talk)/float64(n)) - speech
	if p == Breathing {
		rest = pl.breathSlot(speech) - speech // each line waits for its breath: whole breaths
	} else {
		least, most := p.Rests(pl.sleep, pl.length)
		rest = min(max(rest, least), most)
	}
	return Budget{
		Sentences:  n,
		WindDownAt: n - WindDownLines(p, n),
		Target:     target,
		Rest:       rest.Round(time.Millisecond),
	}
}

// fit is how many of the phase's lines belong in talk: speech for the
// phase's share of it, within the bounds of its silences — never so many
// lines that they would be rushed, nor so few that the guide would seem
// gone. Breathing's lines follow its breaths: the taught ones (the first
// taught of talk) a line for each part, then words on one breath in
// wordedEvery.
func (pl *planner) fit(p Phase, talk, taught, breathRest time.Duration) int {
	speech := pl.speech(p)
	if p == Breathing {
		period := pl.breath.Period()
		if period <= 0 {
			return int(math.Round(float64(talk) / float64(speech+breathRest)))
		}
		// Every part of a taught breath has its line; once the rhythm is
		// taught, a breath with words (its lines, see BreathLiner) is
		// followed by quiet ones (see restAfter): one in wordedEvery.
		breaths := func(d time.Duration) float64 { return float64(d) / float64(period) }
		after := breaths(max(talk-taught, 0))
		lines := breaths(min(talk, taught))*float64(len(pl.breath.stages())) + after*float64(pl.lines())/wordedEvery
		if after >= wordedEvery {
			lines += float64(pl.handBack())
		}
		return int(math.Round(lines))
	}
	least, most := p.Rests(pl.sleep, pl.length)
	share := p.SpeechShare(pl.length)
	if thins(p, pl.sleep) {
		// A drift toward sleep says less than a waking relaxation does.
		share = Relaxation.SpeechShare(pl.length) * sleepSpeech
	}
	if p == Sensory && pl.sleep {
		share *= sleepSensing
	}
	n := int(math.Round(float64(talk) * share / float64(speech)))
	n = max(n, int(math.Ceil(float64(talk)/float64(speech+most))))
	return min(n, int(talk/(speech+least)))
}

// leastResolution is the shortest resolution that holds its whole close:
// its fewest lines, the shortest silence after each and the last chime.
// Its lines are reckoned as long as the longest phase's so far: a close
// that runs over cannot be taken back, while time to spare only
// lengthens its last silences.
func (pl *planner) leastResolution() time.Duration {
	least, _ := Resolution.Rests(pl.sleep, pl.length)
	speech := pl.speech(Resolution)
	for _, m := range pl.phases {
		if m.count > 0 {
			speech = max(speech, time.Duration(float64(m.total/time.Duration(m.count))/(Resolution.Rate()*meanPace(Resolution, pl.sleep))))
		}
	}
	n := time.Duration(MinSentences(Resolution, pl.sleep))
	return n*(speech+least) + tail(pl.length, pl.sleep)
}

// breathLines is how many lines breathing can say in talk: a line for
// each part of the breaths that teach the rhythm, then a breath's lines
// on one breath in wordedEvery (the first, handing the counts back, with
// two), the last of them the lines that lead on.
func (pl *planner) breathLines(talk time.Duration) int {
	period := pl.breath.Period()
	if period <= 0 {
		return 0
	}
	breaths := int(talk / period)
	taught := min(taughtBreaths, breaths)
	worded := (breaths - taught) / wordedEvery
	n := taught*len(pl.breath.stages()) + pl.lines()*worded
	if worded > 0 {
		n += pl.handBack()
	}
	return n
}

// handBack is what the breath that lets the counts go says beyond a
// worded breath's lines: the hand-back on its in-breath and the first
// line after it on its out-breath, two lines where a guide of one line a
// breath says one on every other.
func (pl *planner) handBack() int { return max(2-pl.lines(), 0) }

// lines is how many lines a worded breath carries: two, in and out,
// unless the guide says otherwise.
func (pl *planner) lines() int {
	if pl.perBreath > 0 {
		return pl.perBreath
	}
	return 2
}

// taught is how long breathing's taught breaths last: zero with no
// rhythm to teach.
func (pl *planner) taught() time.Duration {
	return time.Duration(taughtBreaths) * pl.breath.Period()
}

// breathSlot is the time a breathing line takes: its speech and a short
// gap, rounded up to whole breaths, since every line waits for its cue.
func (pl *planner) breathSlot(speech time.Duration) time.Duration {
	period := pl.breath.Period()
	if period <= 0 {
		least, _ := Breathing.Rests(pl.sleep, pl.length)
		return speech + least
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
		more = pl.fit(p, left, max(pl.taught()-phaseElapsed, 0), b.Rest)
	}
	lead := WindDownLines(p, b.Sentences)
	owed := 0 // lines the phase must still say
	if spoken < b.WindDownAt {
		// Never skip the lines that lead onward.
		owed = lead
	}
	n := max(spoken+max(more, owed), MinSentences(p, pl.sleep))
	if n == b.Sentences-1 {
		// One line fewer: the silences take it up, and a call under way
		// is not cut short for it.
		n = b.Sentences
	}
	if spoken >= b.WindDownAt || p == Breathing {
		// The lines that lead onward are asked for: the phase says no more
		// after them, and its silences take up the time. Breathing never
		// says more than planned: its lines are paced by the breaths, and
		// time to spare is quiet breaths, not words on more of them.
		n = min(n, b.Sentences)
	}
	if capacity > 0 {
		if b.Sentences >= capacity && spoken < b.WindDownAt {
			// The phase was planned for all the guide has (a replay's saved
			// lines): it keeps them all while they fit its least silences,
			// the silences giving way first.
			least, _ := p.Rests(pl.sleep, pl.length)
			fits := spoken + int(left/(pl.speech(p)+least))
			n = max(n, min(capacity, fits))
		}
		n = min(n, max(capacity, spoken))
	}
	b.Sentences = n
	if spoken < b.WindDownAt {
		b.WindDownAt = max(n-lead, spoken)
	}
	return b
}
