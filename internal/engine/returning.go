package engine

import (
	"context"
	"time"
)

// Coming back is gentle: a session resumed in a later run does not start
// mid-thought at its next sentence. A soft chime, a short hold, and one
// line that welcomes the listener back into the phase they are in (from
// Config.Welcome: never an ending word before resolution, never a breath's
// cue, since it is said before the rhythm starts again); then the session
// goes on from its next sentence. The line is not one of the phase's: it is
// shown and heard, and counts in the time spoken, not in the sentences.

// returnHold is the quiet after the chime before the welcome.
const (
	returnHold = 3 * time.Second
	returnRest = 2 * time.Second // after the welcome, before the next sentence
)

// hasSpoken reports whether the session said anything before this run.
func (e *Engine) hasSpoken() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.st.Spoken() > 0
}

// timeToWelcome reports whether the session has time left for a welcome
// back before its close: a session left in its last seconds (or rebuilt
// at its end) goes straight to its close, so a resume never carries it
// past its length by a welcome.
func (e *Engine) timeToWelcome(l Line) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	left := e.st.Length - e.st.Elapsed - closingTail
	return left >= returnHold+EstimateLine(l)+returnRest
}

// welcomeBack plays the return: chime, hold, the welcome line, a rest.
func (e *Engine) welcomeBack(ctx context.Context) error {
	e.mu.Lock()
	p, sleep, runs := e.st.Phase, e.st.Sleep, len(e.st.Runs)
	welcome := e.welcome
	e.mu.Unlock()
	if welcome == nil {
		return nil
	}
	text := welcome(p, sleep, runs)
	if text == "" {
		return nil // no line to come back to: the session goes straight on
	}
	if !e.timeToWelcome(Line{Text: text, Phase: p}) {
		return nil // left at its very end: the close alone, on time
	}
	if !sleep {
		e.speaker.Chime()
	}
	// The line is made while the hold plays.
	ready := make(chan *prepared, 1)
	go func() {
		cur, err := e.prepare(ctx, Line{Text: text, Phase: p})
		if err != nil {
			cur = nil
		}
		ready <- cur
	}()
	if err := e.hold(ctx, p, returnHold); err != nil {
		<-ready
		return err
	}
	cur := <-ready
	if cur == nil {
		return ctx.Err()
	}
	if err := e.gate.wait(ctx); err != nil {
		return err
	}
	e.mu.Lock()
	e.publish(Event{Kind: EventSentence, Phase: p, Index: e.st.Phases[p].Spoken, Text: cur.line.Text, Duration: cur.d})
	e.mu.Unlock()
	if err := <-e.play(ctx, cur); err != nil {
		return err
	}
	e.account(p)
	return e.hold(ctx, p, returnRest)
}
