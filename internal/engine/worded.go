package engine

// wordedBreaths counts, once the rhythm is taught, breathing's lines and
// the breaths they began on: a guide that says an in-breath line and an
// out-breath line on each breath needs half as many breaths for its lines
// as one that cues a breath a line, and the quiet breaths between them
// are spread by what it does (see quietBreaths). A session resumed part
// way through counts afresh.
type wordedBreaths struct {
	lines, breaths int
	last           BreathStage
}

// perBreath is the lines said on a breath with words: one until a
// breath has been counted.
func (w wordedBreaths) perBreath() float64 {
	if w.breaths == 0 {
		return 1
	}
	return float64(w.lines) / float64(w.breaths)
}

// countWorded counts a breathing line about to be said: an in-breath
// line, or one for a part of the breath no later than the line before
// it, begins a breath.
func (e *Engine) countWorded(l Line) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.taughtLocked() {
		return
	}
	cue := e.cue(l)
	if e.worded.lines == 0 || beginsBreath(cue, e.worded.last) {
		e.worded.breaths++
	}
	e.worded.lines++
	e.worded.last = cue
}

// beginsBreath reports whether a line for stage cue, said after one for
// stage prev, begins a breath: an in-breath line, or one for a part of the
// breath no later than the line before it.
func beginsBreath(cue, prev BreathStage) bool { return cue == StageInhale || cue <= prev }

// taughtLocked reports whether the pacer has run through the breaths that
// teach the rhythm. Callers hold e.mu.
func (e *Engine) taughtLocked() bool {
	period := e.breath.Period()
	return e.pacing && period > 0 && (e.speaker.Position()-e.anchor)/period >= taughtBreaths
}
