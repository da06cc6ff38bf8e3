package engine

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/human"
)

// A breathing practice (lull breathe) is a session whose only phase is
// breathing: atmosphere is closed empty as it starts, and the phases after
// breathing are closed empty as it completes. So it saves, pauses,
// resumes and recovers like any session, and its minutes count as one.

// A breathing practice's length, in whole minutes: shorter than a guided
// session can be, since it has no arc to unfold.
const (
	MinPracticeLength = 1 * time.Minute
	// DefaultPracticeLength is lull breathe's length when none is given.
	DefaultPracticeLength = 5 * time.Minute
)

// CheckLengthFor refuses a length a session of the practice does not
// take: a guided session lasts 5 to 60 minutes (CheckLength), a breathing
// practice 1 to 60, a sit 1 to 240 or 0 (open-ended).
func CheckLengthFor(practice string, d time.Duration) error {
	if practice == PracticeSit {
		return checkSitLength(d)
	}
	if practice != PracticeBreathe {
		return CheckLength(d)
	}
	if d%time.Minute != 0 || d < MinPracticeLength || d > MaxLength {
		return fmt.Errorf("a breathing practice lasts a whole number of minutes from %d to %d, not %s",
			int(MinPracticeLength.Minutes()), int(MaxLength.Minutes()), human.Duration(d))
	}
	return nil
}

// NamedBreath is a breathing pattern people know by name.
type NamedBreath struct {
	Name    string
	Pattern BreathPattern
	About   string
}

// NamedBreaths are the patterns lull breathe offers by name.
var NamedBreaths = []NamedBreath{
	{"coherent", BreathPattern{Inhale: 5500 * time.Millisecond, Exhale: 5500 * time.Millisecond}, "5.5 in, 5.5 out: about five breaths a minute"},
	{"box", BreathPattern{Inhale: 4 * time.Second, Hold: 4 * time.Second, Exhale: 4 * time.Second, HoldOut: 4 * time.Second}, "4 in, hold 4, 4 out, hold 4"},
	{"4-7-8", BreathPattern{Inhale: 4 * time.Second, Hold: 7 * time.Second, Exhale: 8 * time.Second}, "4 in, hold 7, 8 out"},
	{"4-2-6", DefaultBreath, "4 in, hold 2, 6 out"},
}

// BreathNames lists the named patterns: "coherent, box, 4-7-8, 4-2-6".
func BreathNames() string { return strings.Join(breathNames(), ", ") }

func breathNames() []string {
	names := make([]string, len(NamedBreaths))
	for i, n := range NamedBreaths {
		names[i] = n.Name
	}
	return names
}

// ParseBreath reads a breathing pattern: one of NamedBreaths, or seconds
// as IN-OUT, IN-HOLD-OUT or IN-HOLD-OUT-HOLD ("4-2-6", "5.5-5.5"), within
// BreathPattern.Check's bounds. name is how it is saved and shown: the
// pattern's name when it has one, else its seconds.
func ParseBreath(s string) (b BreathPattern, name string, err error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, n := range NamedBreaths {
		if s == n.Name {
			return n.Pattern, n.Name, nil
		}
	}
	parts := strings.Split(s, "-")
	var secs []time.Duration
	for _, p := range parts {
		f, perr := strconv.ParseFloat(p, 64)
		if perr != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 || f > 60 {
			secs = nil
			break
		}
		secs = append(secs, time.Duration(math.Round(f*10))*100*time.Millisecond)
	}
	switch len(secs) {
	case 2:
		b = BreathPattern{Inhale: secs[0], Exhale: secs[1]}
	case 3:
		b = BreathPattern{Inhale: secs[0], Hold: secs[1], Exhale: secs[2]}
	case 4:
		b = BreathPattern{Inhale: secs[0], Hold: secs[1], Exhale: secs[2], HoldOut: secs[3]}
	default:
		return BreathPattern{}, "", fmt.Errorf("breathing pattern %q: name one of %s, or give seconds as IN-HOLD-OUT or IN-HOLD-OUT-HOLD (like 4-2-6)%s", s, BreathNames(), human.DidYouMean(s, breathNames()))
	}
	if err := b.Check(); err != nil {
		return BreathPattern{}, "", fmt.Errorf("breathing pattern %q: %w", s, err)
	}
	return b, b.Name(), nil
}

// Name is the pattern as lull breathe names it: "box" for 4-4-4-4, else
// its seconds, "5-2-7" (a pause after the exhale adds a fourth number).
func (b BreathPattern) Name() string {
	for _, n := range NamedBreaths {
		if n.Pattern == b {
			return n.Name
		}
	}
	secs := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
	s := secs(b.Inhale) + "-" + secs(b.Hold) + "-" + secs(b.Exhale)
	if b.HoldOut > 0 {
		s += "-" + secs(b.HoldOut)
	}
	return s
}

// EventBreath marks each breath of a breathing practice as it begins:
// Index is its number from 1, Text says "breath 3 of 6".
const EventBreath EventKind = "breath"

// The spoken cues teach the rhythm over the first breaths, then only the
// tone leads: three breaths, or two when a breath is long.
const (
	cueBreaths     = 3
	longCueBreaths = 2
	longBreath     = 15 * time.Second
)

// cueWords are what the cues say at the start of each part of a breath.
var cueWords = [...]string{
	StageInhale:  "Breathe in…",
	StageHold:    "Hold…",
	StageExhale:  "And breathe out…",
	StageHoldOut: "Hold…",
}

// stages are the parts a breath passes through: those that last.
func (b BreathPattern) stages() []BreathStage {
	var out []BreathStage
	for s := StageInhale; s <= StageHoldOut; s++ {
		if b.Length(s) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// taughtCues is how many cue lines a practice speaks in all.
func (e *Engine) taughtCues() int {
	if e.noCues {
		return 0
	}
	n := cueBreaths
	if e.breath.Period() >= longBreath {
		n = longCueBreaths
	}
	return n * len(e.breath.stages())
}

// beginPractice closes atmosphere empty and opens breathing, on the
// practice's first run; later runs go on in breathing. Callers hold e.mu.
func (e *Engine) beginPractice(now time.Time) {
	if e.st.Phase == Atmosphere {
		atm := &e.st.Phases[Atmosphere]
		atm.Status, atm.StartedAt, atm.CompletedAt = PhaseCompleted, now, now
		e.st.Phase = Breathing
		e.st.Position = Position{Phase: Breathing}
	}
	rec := &e.st.Phases[Breathing]
	if rec.Status == PhasePending {
		rec.Status = PhaseActive
		rec.StartedAt = now
		rec.Budget = Budget{Sentences: e.taughtCues(), WindDownAt: e.taughtCues(), Target: e.st.Length}
	}
}

// breathsLeft is how many whole breaths fit the practice's time left,
// less the last chime's ring: so a practice ends within half a breath of
// its length. Callers hold e.mu.
func (e *Engine) breathsLeft() int {
	period := e.breath.Period()
	left := e.st.Length - e.st.Elapsed - closingTail
	if period <= 0 || left <= period/2 {
		return 0
	}
	return int(math.Round(float64(left) / float64(period)))
}

// breathe runs a breathing practice: a chime, the tone and its animation
// for whole breaths, spoken cues over the first of them, and a last chime.
// fresh says this is its very first run.
func (e *Engine) breathe(ctx context.Context, fresh bool) error {
	// The cues are made ready while the opening hold plays, the first one
	// first: so the words start with the first breath, and the later cues
	// are made while the earlier ones are said.
	cctx, stopCues := context.WithCancel(ctx)
	cues := e.makeCues(cctx)
	defer func() {
		stopCues()
		<-cues.done // no voice runs on once the practice stops
	}()
	if fresh {
		e.speaker.Chime()
		if err := e.hold(ctx, Breathing, opening); err != nil {
			return err
		}
	}
	if e.cueing() {
		if _, err := cues.get(ctx, StageInhale); err != nil {
			return err
		}
	}
	if err := e.gate.wait(ctx); err != nil {
		return err
	}
	e.account(Breathing) // any wait for the voice counts: the breaths fit what is left
	e.mu.Lock()
	n := e.breathsLeft()
	anchor := e.speaker.Position()
	e.pacing, e.anchor = n > 0, anchor
	e.mu.Unlock()
	if pc, ok := e.speaker.(Pacer); ok && n > 0 {
		pc.Pace(anchor, e.breath)
	}
	period := e.breath.Period()
	for i := range n {
		if err := e.gate.wait(ctx); err != nil {
			return err
		}
		e.mu.Lock()
		e.publish(Event{Kind: EventBreath, Phase: Breathing, Index: i + 1, Duration: period,
			Text: fmt.Sprintf("breath %d of %d", i+1, n)})
		e.mu.Unlock()
		for _, s := range e.breath.stages() {
			end := anchor + time.Duration(i)*period + e.breath.Offset(s) + e.breath.Length(s)
			var cur *prepared
			if e.cueing() {
				var err error
				if cur, err = cues.get(ctx, s); err != nil {
					return err
				}
			}
			// A cue made too late for its part of the breath waits for the
			// next breath: "Hold…" is never said on the exhale.
			if cur != nil && e.speaker.Position() < end {
				e.mu.Lock()
				e.publish(Event{Kind: EventSentence, Phase: Breathing, Index: e.st.Phases[Breathing].Spoken, Text: cur.line.Text, Duration: cur.d})
				e.mu.Unlock()
				if err := <-e.play(ctx, cur); err != nil {
					return err
				}
				e.checkpoint(e.cueSpoken(cur))
			}
			if wait := end - e.speaker.Position(); wait > 0 {
				if err := e.hold(ctx, Breathing, wait); err != nil {
					return err
				}
			}
		}
		e.checkpoint()
	}
	e.stopPacing()
	return e.completePractice(ctx)
}

// cueing reports whether cues are still to be said.
func (e *Engine) cueing() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.st.Phases[Breathing].Spoken < e.taughtCues()
}

// cues are a practice's spoken cues, one for each part of the breath,
// made ready in the order they are said on a goroutine of their own.
type cues struct {
	made  [StageHoldOut + 1]*prepared
	errs  [StageHoldOut + 1]error
	ready [StageHoldOut + 1]chan struct{} // closed once the part's cue is made or failed; nil: no cue
	done  chan struct{}                   // closed once the making has stopped
}

// makeCues starts synthesizing the cue for each part of the breath; none
// when every cue was said already or the listener chose no voice. Cancel
// ctx and wait for done to stop it.
func (e *Engine) makeCues(ctx context.Context) *cues {
	c := &cues{done: make(chan struct{})}
	if !e.cueing() {
		close(c.done)
		return c
	}
	stages := e.breath.stages()
	for _, s := range stages {
		c.ready[s] = make(chan struct{})
	}
	go func() {
		defer close(c.done)
		for _, s := range stages {
			if ctx.Err() != nil {
				c.errs[s] = ctx.Err()
			} else {
				c.made[s], c.errs[s] = e.prepare(ctx, Line{Text: cueWords[s], Phase: Breathing})
			}
			close(c.ready[s])
		}
	}()
	return c
}

// get waits for the cue of part s of the breath; nil when there is none.
func (c *cues) get(ctx context.Context, s BreathStage) (*prepared, error) {
	if c.ready[s] == nil {
		return nil, nil
	}
	select {
	case <-c.ready[s]:
		return c.made[s], c.errs[s]
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// cueSpoken records a cue that was heard and returns its history entry.
func (e *Engine) cueSpoken(cur *prepared) Entry {
	e.account(Breathing)
	e.mu.Lock()
	defer e.mu.Unlock()
	rec := &e.st.Phases[Breathing]
	rec.Spoken++
	e.st.Position = Position{Phase: Breathing, Sentence: rec.Spoken}
	entry := Entry{At: e.now(), Phase: Breathing, Role: RoleGuide, Text: cur.line.Text}
	e.st.History = append(e.st.History, entry)
	return entry
}

// completePractice closes a breathing practice: the last chime rings out
// as the sound fades, then the phases after breathing close empty and the
// summary is kept.
func (e *Engine) completePractice(ctx context.Context) error {
	e.speaker.Chime()
	if err := e.ringOut(ctx, Breathing, closingTail, true); err != nil {
		return err
	}
	e.mu.Lock()
	now := e.now()
	err := e.setStatus(Completed)
	if err == nil {
		for p := Breathing; p <= Resolution; p++ {
			rec := &e.st.Phases[p]
			if rec.Status == PhasePending {
				rec.StartedAt = now
			}
			rec.Status, rec.CompletedAt = PhaseCompleted, now
		}
		e.st.Phase = Resolution
		e.st.Position = Position{Phase: Resolution, Sentence: e.st.Phases[Resolution].Spoken}
		e.st.Summary = &Summary{Duration: e.st.Elapsed, Sentences: e.st.Spoken(), CompletedAt: now}
		e.publish(Event{Kind: EventCompleted, Phase: Resolution})
	}
	e.mu.Unlock()
	e.checkpoint()
	return err
}

// checkPractice refuses an unknown practice, a breathing practice
// without a pattern it can breathe (or a guided session with one), and a
// sit whose bell would not ring within it.
func checkPractice(practice, pattern string, length time.Duration) error {
	switch practice {
	case "":
		if pattern != "" {
			return fmt.Errorf("a guided session has no breathing pattern of its own (%q)", pattern)
		}
	case PracticeBreathe:
		if _, _, err := ParseBreath(pattern); err != nil {
			return err
		}
	case PracticeSit:
		return CheckSitBell(pattern, length)
	default:
		return fmt.Errorf("unknown practice %q", practice)
	}
	return nil
}
