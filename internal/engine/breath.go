package engine

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
)

// BreathPattern is the breathing phase's rhythm: one clock — the output's
// — drives the spoken cues, the pacer tone and the animation alike.
type BreathPattern struct {
	Inhale  time.Duration
	Hold    time.Duration // at the top of the breath
	Exhale  time.Duration
	HoldOut time.Duration // at the bottom, before the next inhale
}

// DefaultBreath is 4-2-6: a longer exhale settles the body.
var DefaultBreath = BreathPattern{Inhale: 4 * time.Second, Hold: 2 * time.Second, Exhale: 6 * time.Second}

// Period is one whole breath.
func (b BreathPattern) Period() time.Duration { return b.Inhale + b.Hold + b.Exhale + b.HoldOut }

// MaxHold is the longest breath hold lull will ever suggest, in seconds:
// the limit of a breathing rhythm here, and of what the safety screen lets
// a guide say.
const MaxHold = 7

// MaxBreath is the longest in- or out-breath lull will ever suggest, in
// seconds: a rhythm's longest exhale, and the safety screen's bound.
const MaxBreath = 10

// Check refuses a rhythm that would strain: breath holds stay short (the
// safety screen's limit too), and a breath is neither hurried nor laboured.
func (b BreathPattern) Check() error {
	switch {
	case b.Inhale < 2*time.Second || b.Inhale > 8*time.Second:
		return fmt.Errorf("an inhale of %v: choose 2 to 8 seconds", b.Inhale)
	case b.Exhale < 2*time.Second || b.Exhale > MaxBreath*time.Second:
		return fmt.Errorf("an exhale of %v: choose 2 to %d seconds", b.Exhale, MaxBreath)
	case b.Hold < 0 || b.Hold > MaxHold*time.Second:
		return fmt.Errorf("a hold of %v: choose 0 to %d seconds", b.Hold, MaxHold)
	case b.HoldOut < 0 || b.HoldOut > 4*time.Second:
		return fmt.Errorf("a pause after the exhale of %v: choose 0 to 4 seconds", b.HoldOut)
	}
	return nil
}

// BreathStage is where in a breath the pacer is.
type BreathStage int

const (
	StageInhale BreathStage = iota
	StageHold
	StageExhale
	StageHoldOut
)

var stageWords = [...]string{"breathe in", "hold", "breathe out", "rest"}

// String is the stage as the animation names it.
func (s BreathStage) String() string { return stageWords[s] }

// Breath is the pacer at one moment.
type Breath struct {
	Stage    BreathStage
	Progress float64 // through the stage, 0–1
	Fill     float64 // the lungs, 0 (empty) – 1 (full), eased: what the animation draws
	Cycle    int     // whole breaths since the pacer began
}

// At is the pacer t into its rhythm. Everything that shows or sounds the
// breath calls it with the same clock.
func (b BreathPattern) At(t time.Duration) Breath {
	period := b.Period()
	if period <= 0 {
		return Breath{}
	}
	t = max(t, 0)
	br := Breath{Cycle: int(t / period)}
	in := t % period
	for _, st := range []struct {
		stage BreathStage
		d     time.Duration
	}{{StageInhale, b.Inhale}, {StageHold, b.Hold}, {StageExhale, b.Exhale}, {StageHoldOut, b.HoldOut}} {
		if in < st.d || st.stage == StageHoldOut {
			br.Stage = st.stage
			if st.d > 0 {
				br.Progress = min(float64(in)/float64(st.d), 1)
			}
			break
		}
		in -= st.d
	}
	switch br.Stage {
	case StageInhale:
		br.Fill = ease(br.Progress)
	case StageHold:
		br.Fill = 1
	case StageExhale:
		br.Fill = 1 - ease(br.Progress)
	}
	return br
}

// Offset is where a stage begins within the breath.
func (b BreathPattern) Offset(s BreathStage) time.Duration {
	switch s {
	case StageHold:
		return b.Inhale
	case StageExhale:
		return b.Inhale + b.Hold
	case StageHoldOut:
		return b.Inhale + b.Hold + b.Exhale
	}
	return 0
}

// Length is how long stage s lasts in one breath.
func (b BreathPattern) Length(s BreathStage) time.Duration {
	switch s {
	case StageHold:
		return b.Hold
	case StageExhale:
		return b.Exhale
	case StageHoldOut:
		return b.HoldOut
	}
	return b.Inhale
}

// following is the stage after s that the breath passes through: a
// pattern without holds goes from the inhale straight to the exhale.
func (b BreathPattern) following(s BreathStage) BreathStage {
	for range 4 {
		s = (s + 1) % 4
		if b.Length(s) > 0 {
			return s
		}
	}
	return s
}

// lateStartLeft is the least of its part of the breath a line that begins
// late must still have before it (see untilCue).
const lateStartLeft = 1200 * time.Millisecond

// untilCue is how long a line for stage s waits at t. While s is under
// way with most of it still ahead — at most a third of it gone, and at
// least lateStartLeft left — the line begins at once: waiting a whole
// breath would leave a long gap. Otherwise it waits until s next begins.
func (b BreathPattern) untilCue(t time.Duration, s BreathStage) time.Duration {
	period := b.Period()
	if period <= 0 {
		return 0
	}
	d := b.Length(s)
	in := b.sinceStage(t, s)
	if in < d && in <= d/3 && d-in >= lateStartLeft {
		return 0
	}
	return b.untilStage(t, s)
}

// sinceStage is how long before t stage s last began (0 when it begins
// exactly at t).
func (b BreathPattern) sinceStage(t time.Duration, s BreathStage) time.Duration {
	period := b.Period()
	if period <= 0 {
		return 0
	}
	return ((t-b.Offset(s))%period + period) % period
}

// untilStage is how long from t until stage s next begins (0 when it
// begins exactly at t).
func (b BreathPattern) untilStage(t time.Duration, s BreathStage) time.Duration {
	period := b.Period()
	if period <= 0 {
		return 0
	}
	d := (b.Offset(s) - t%period) % period
	if d < 0 {
		d += period
	}
	return d
}

// ease is a breath's shape: slow to start, slow to finish.
func ease(x float64) float64 { return (1 - math.Cos(math.Pi*x)) / 2 }

var (
	exhaleCue = regexp.MustCompile(`^(and |now |slowly |gently |softly |then |if you like, )?` +
		`(breathe out|breathing out|out through|out for|exhale|as you breathe out|a long,? (slow|patient|easy) breath out|` +
		`the air (pours|flows) out|the out-?breath|each out-?breath|every breath out|feel the warm air leave|` +
		`feel your (belly|ribs|chest) (fall|draw|sink)|release|let it (go|flow out)|with (each|every) exhale)`)
	holdCue = regexp.MustCompile(`^(and |now |gently |softly )?(at the top|hold|a (gentle|small|brief) pause at the top|allow a (small|brief) pause at the top)`)
)

// CueStage is the part of the breath a sentence speaks to, from its first
// words: "Breathe out…" lands on the exhale, "Hold…" at the top, anything
// else on the inhale.
func CueStage(text string) BreathStage {
	s := strings.ToLower(strings.TrimLeft(text, ` "'“‘(…`))
	switch {
	case exhaleCue.MatchString(s):
		return StageExhale
	case holdCue.MatchString(s):
		return StageHold
	}
	return StageInhale
}
