package engine

import "time"

// A session ends on time because every silence is chosen, not fixed: each
// clip's length is known before it plays, so the rest after a sentence is
// the time its phase has left, shared among the rests still to come. The
// phase's last rest closes it on its target, and the closing hold takes up
// what remains of the session, so small errors never pile up.

// maxClosingTail bounds the quiet at the very end when a session ran short
// (a guide with too little to say): past it, ending early is kinder.
const maxClosingTail = closingTail + 30*time.Second

// breathGap is the least silence between two breathing lines, before the
// next one waits for the part of the breath it speaks to.
const breathGap = time.Second

// restAfter is the silence after the sentence at index of phase p, once it
// has been spoken and counted. next is the line that follows in the phase,
// prepared; last says none does.
func (e *Engine) restAfter(p Phase, index int, next *prepared, last bool) time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	rec := e.st.Phases[p]
	b := rec.Budget
	left := b.Target - rec.Elapsed - e.liveLocked()
	if p == Resolution {
		left -= closingTail
	}
	if last {
		return clampRest(p, left, true)
	}
	if p == Breathing {
		return breathGap // the next line waits for its breath
	}
	// Rests to come: this one and one after each line still to say.
	coming := max(b.Sentences-(index+1), 1)
	expect := time.Duration(coming-1) * e.plan.speech(p)
	if next != nil {
		expect += next.d
	} else {
		expect += e.plan.speech(p)
	}
	return clampRest(p, (left-expect)/time.Duration(coming+1), false)
}

// clampRest keeps a rest within what still sounds like the phase: never
// rushed, and never a gap that feels like the guide has gone — the count
// of sentences is what moves when the clock drifts far. The phase's last
// rest may stretch further, up to a breath cycle, to close on time.
func clampRest(p Phase, rest time.Duration, last bool) time.Duration {
	lo, hi := p.Rest()/2, p.Rest()*3
	if last {
		hi = p.Rest() * 4
	}
	return min(max(rest, lo), hi).Round(time.Millisecond)
}

// closingHold is the quiet after the last chime: the rest of the session's
// length, and never less than the chime needs to ring out.
func (e *Engine) closingHold() time.Duration {
	e.mu.Lock()
	defer e.mu.Unlock()
	left := e.st.Length - e.st.Elapsed - e.liveLocked()
	return min(max(left, closingTail), maxClosingTail).Round(time.Millisecond)
}

// liveLocked is output time played since it was last counted. Callers
// hold e.mu.
func (e *Engine) liveLocked() time.Duration {
	if !e.running || e.st.Status != Running {
		return 0
	}
	return max(e.speaker.Position()-e.accounted, 0)
}
