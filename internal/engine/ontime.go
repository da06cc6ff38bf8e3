package engine

import (
	"log/slog"
	"math"
	"time"
)

// A session ends on time because every silence is chosen, not fixed: each
// clip's length is known before it plays, so the rest after a sentence is
// the time its phase has left, shared among the rests still to come. The
// phase's last rest closes it on its target, and the closing hold takes up
// what remains of the session, so small errors never pile up.

// maxClosingTail bounds the quiet at the very end when a session ran short
// (a guide with too little to say): past it, ending early is kinder.
const maxClosingTail = closingTail + 30*time.Second

// breathGap is the least silence between two breathing lines, before the
// next one waits for the part of the breath it speaks to. A line for the
// very next part — "hold" after "breathe in", said in one breath while
// the counts are taught — follows after nextStageGap only, so that it
// still begins within its part.
const (
	breathGap    = time.Second
	nextStageGap = 300 * time.Millisecond
	// taughtBreaths are the breaths that teach the rhythm, each with its
	// words; after them the breath is left alone: words on one breath in
	// wordedEvery at most, the others silent.
	taughtBreaths = 3
	wordedEvery   = 3
	// MaxQuietStretch bounds the breaths the listener takes alone between
	// two lines: the pacer keeps the rhythm, but past it the guide seems
	// to have gone.
	MaxQuietStretch = 40 * time.Second
)

// quietBreaths is how many silent breaths follow a breath with words,
// with lines still to say in the time left, perBreath to a breath: one,
// or as many as spread the lines over the phase when the guide has few of
// them (the built-in guide's breathing in a long session), within
// MaxQuietStretch; none when the lines still to say need every breath
// left. It is worked out again after every line, so the spread follows
// what the lines took.
func quietBreaths(left time.Duration, lines int, perBreath float64, period time.Duration) int {
	breaths := int(left / period)
	// The lines to say need breaths of their own, and the phase's last
	// rest one more.
	worded := int(math.Ceil(float64(lines) / max(perBreath, 1)))
	room := breaths - worded - 1
	if room <= 0 {
		return 0
	}
	spread := (breaths - worded) / worded
	return min(max(spread, wordedEvery-1), room, quietMost(period))
}

// quietMost is the most silent breaths in a row: within MaxQuietStretch,
// and at least one.
func quietMost(period time.Duration) int {
	return max(int(MaxQuietStretch/period), 1)
}

// restAfter is the silence after line cur, once it has been spoken and
// counted. next is the line that follows in the phase, prepared; last
// says none does. A phase's silences share the time it has left, in
// resolution weighted along its arc (see restWeight).
func (e *Engine) restAfter(cur Line, next *prepared, last bool) time.Duration {
	p, index := cur.Phase, cur.Index
	e.mu.Lock()
	defer e.mu.Unlock()
	rec := e.st.Phases[p]
	b := rec.Budget
	left := b.Target - rec.Elapsed - e.liveLocked()
	if p == Resolution {
		left -= tail(e.st.Length, e.st.Sleep)
	}
	if last {
		// In breathing the pacer breathes on: a guide a line or two short
		// leaves quiet breaths to the phase's end, within its longest.
		fewer := index+1 < b.Sentences && p != Breathing
		if _, most := p.Rests(e.st.Sleep, e.st.Length); p != Resolution && (left > most+most/3 || fewer) {
			// The guide ran out of lines long before the phase's time, or
			// gave a line or two fewer than asked: its lead-on line is
			// followed by an ordinary rest, not by a long wait for what it
			// leads to (with the chime and the next phase's opening, one
			// long silence), and the phases after it share the time (the
			// planner re-budgets them).
			return clampRest(p, e.st.Sleep, e.st.Length, b.Rest, false)
		}
		return clampRest(p, e.st.Sleep, e.st.Length, left, true)
	}
	if p == Breathing {
		// The next line waits for its breath. One for the next part of the
		// same breath follows at once; a new breath begins with an inhale.
		if next != nil && e.cue(next.line) == e.breath.following(e.cue(cur)) && e.cue(next.line) != StageInhale {
			return nextStageGap
		}
		// Once the rhythm is taught, a breath with words is followed by
		// breaths without: the listener breathes on alone between the
		// lines, while the phase has the time. A line for an earlier part
		// of the breath than this one's begins a breath too.
		if next != nil && e.taughtLocked() && beginsBreath(e.cue(next.line), e.cue(cur)) {
			period := e.breath.Period()
			// The lines that lead on are said one after the other, on
			// breaths of their own: as many breaths as one line to space.
			spaced := b.Sentences - (index + 1)
			if lead := b.Sentences - max(b.WindDownAt, index+1); lead > 1 {
				spaced -= lead - 1
			}
			quiet := time.Duration(quietBreaths(left, max(spaced, 1), e.worded.perBreath(), period)) * period
			if quiet == 0 {
				return breathGap
			}
			// The quiet breaths are whole: they count from the next line's
			// part of the breath as it begins after this line (in its gap,
			// or next), and end as that part begins, so the line does not
			// start late in it.
			since := e.breath.sinceStage(e.speaker.Position()-e.anchor+breathGap, e.cue(next.line))
			if since > breathGap {
				since -= period
			}
			return breathGap - since + quiet
		}
		return breathGap
	}
	if c := cur.call; c != nil && c.pauser != nil && c.pauser.ShortPause(cur.Text) {
		return shortPause // the line that follows belongs with this one
	}
	// Rests to come: this one and one after each line still to say.
	coming := max(b.Sentences-(index+1), 1)
	expect := time.Duration(coming-1) * e.plan.speech(p)
	if next != nil {
		expect += next.d
	} else {
		expect += e.plan.speech(p)
	}
	// Each rest is the phase's least and a share of the silence beyond:
	// a phase pressed for time keeps every rest to the least alike.
	least, _ := p.Rests(e.st.Sleep, e.st.Length)
	spare := left - expect - time.Duration(coming+1)*least
	var weights float64
	for j := index; j <= index+coming; j++ {
		weights += restWeight(p, e.st.Sleep, j, b.Sentences)
	}
	share := restWeight(p, e.st.Sleep, index, b.Sentences) / weights
	return clampRest(p, e.st.Sleep, e.st.Length, least+time.Duration(float64(spare)*share), false)
}

// clampRest keeps a rest within what still sounds like the phase (see
// Phase.Rests): the count of sentences is what moves when the clock
// drifts far. The phase's last rest may stretch a third further, to close
// on time.
func clampRest(p Phase, sleep bool, length, rest time.Duration, last bool) time.Duration {
	lo, hi := p.Rests(sleep, length)
	if last {
		hi += hi / 3
	}
	return min(max(rest, lo), hi).Round(time.Millisecond)
}

// closingHold is the quiet after the last chime: the rest of the session's
// length, and never less than the chime needs to ring out. A sleep
// session's is its soundscape playing on after the goodnight, which is
// what a sleeper should hear, so it is never cut short: a drift with
// more time than words ends on time too.
func (e *Engine) closingHold() time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	left := max(e.st.Length-e.st.Elapsed-e.liveLocked(), closingTail)
	if !e.st.Sleep {
		left = min(left, maxClosingTail)
	}
	return left.Round(time.Millisecond)
}

// liveLocked is output time played since it was last counted. Callers
// hold e.mu.
func (e *Engine) liveLocked() time.Duration {
	if !e.running || e.st.Status != Running {
		return 0
	}
	return max(e.speaker.Position()-e.accounted, 0)
}

// Resolution's close — its wind-down, the lines that bring the listener
// back and say goodbye — is read whole before it is said, then fitted to
// the time the phase has left: its silences shrink to the phase's least
// before any line goes; when a guide wrote more than that holds (a model
// asked for a few lines writes seven, or sentences of forty words), the
// lines after the first that do not fit are left out and the last one,
// the farewell, is kept. A close never runs the session over.

// holdsClose reports whether lines are held back until resolution's close
// is whole.
func (s *source) holdsClose() bool {
	return s.phase == Resolution && s.windDown && !s.closed && s.ahead == 0
}

// chooseClose fits the close now queued to the time resolution has left,
// and makes it the phase's last lines.
func (s *source) chooseClose() {
	if s.phase != Resolution || s.closed {
		return
	}
	s.closed = true
	if n := s.e.fitClose(s.issued, s.queue, s.busyUntil); n < len(s.queue) {
		s.e.log.Info("resolution's close shortened to fit the session's length",
			slog.Int("written", len(s.queue)), slog.Int("kept", n))
		kept := append(s.queue[:n-1:n-1], s.queue[len(s.queue)-1])
		s.queue = kept
	}
	s.e.closeAt(s.issued + len(s.queue))
}

// fitClose is how many of the close's lines, said from line index on,
// fit the time resolution has left after the line playing until busy
// (on the output's clock): each line at its expected length and the
// phase's least silence after it. Never fewer than two (its first and
// its farewell), nor more than were written.
func (e *Engine) fitClose(index int, lines []string, busy time.Duration) int {
	if len(lines) <= minClose {
		return len(lines)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	rec := e.st.Phases[Resolution]
	b := rec.Budget
	pos := e.speaker.Position()
	least, _ := Resolution.Rests(e.st.Sleep, e.st.Length)
	left := b.Target - tail(e.st.Length, e.st.Sleep) - rec.Elapsed - e.liveLocked() - max(busy-pos, 0)
	if busy > pos {
		left -= least // the silence after the line playing
	}
	n := len(lines) - 1 + index // the close's last line's index, for its delivery
	need := func(j int) time.Duration {
		l := Line{Text: lines[j], Phase: Resolution, Delivery: lineDelivery(Resolution, e.st.Sleep, index+j, n+1)}
		return e.plan.expect(l) + least
	}
	left -= need(len(lines) - 1) // the farewell is always said
	kept := 1
	for j := 0; j < len(lines)-1; j++ {
		if left -= need(j); left < 0 && kept >= minClose {
			break
		}
		kept++
	}
	return kept
}

// minClose is the fewest lines a close is cut to: the first and the last.
const minClose = 2

// closeAt makes resolution's close end at line n: its budget's sentences
// are the lines the close holds, so its silences share the time left
// among them.
func (e *Engine) closeAt(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.st.Phases[Resolution].Budget.Sentences = n
}
