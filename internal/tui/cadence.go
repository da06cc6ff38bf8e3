package tui

import (
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// The session screen wakes only when it has something new to show: once
// a second, just after the clock on screen turns to its next second; ten
// times a second while the breath it draws moves; and, while nothing
// moves (paused, interrupted, finished), seldom, only to notice what no
// event says.

const (
	// breathTick is the breathing animation's frame: ten a second.
	breathTick = 100 * time.Millisecond
	// idleTick is how often a session that does not move is looked at.
	idleTick = 2 * time.Second
	// tickLate puts the tick just after the second turns, not before.
	tickLate = 20 * time.Millisecond
	// tickEvery is how often, at most, a clock run faster than real
	// time (LULL_TIME_SCALE) is redrawn.
	tickEvery = 250 * time.Millisecond
	// tickSoonest bounds how soon a tick follows the last: the engine's
	// clock moves in the speaker's steps, so one that lands before the
	// second turns tries again a moment later, not at once.
	tickSoonest = 50 * time.Millisecond
)

// nextTick is how long the screen waits before it reads the session's
// clock again.
func (m Model) nextTick() time.Duration {
	v := m.sess
	switch {
	case v.status != engine.Running:
		return idleTick // nothing moves: a paused session costs next to nothing
	case m.dialog == dialogNone && m.breathShown():
		return breathTick // the breath animation moves smoothly
	}
	return untilNextSecond(v.progress.Elapsed, v.clock, m.scale)
}

// untilNextSecond is how long, on the wall clock, until a clock showing
// shown turns to its next second, the engine's own count being at now and
// running scale times as fast as the wall clock. The clock on screen
// rounds to the nearest second (human.Shown), so it turns at each half.
func untilNextSecond(shown, now time.Duration, scale float64) time.Duration {
	if scale <= 0 {
		scale = 1
	}
	turn := human.Shown(shown) + time.Second/2
	wait := time.Duration(float64(turn-now)/scale) + tickLate
	soonest := tickSoonest
	if scale > 1 {
		// A clock run faster (LULL_TIME_SCALE) turns more often than it
		// can be drawn: at most four times a second.
		soonest = tickEvery
	}
	// At least once a second: the engine may say it waits for the guide.
	return min(max(wait, soonest), time.Second)
}
