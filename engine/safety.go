package engine

import (
	"fmt"
	"sync"

	"lull/prompts"
)

// Category is the kind of harm a safety rule guards against.
type Category string

const (
	SelfHarm        Category = "self_harm"        // self-harm, suicide, death wishes, however gently put
	Explicit        Category = "explicit"         // sexual, sensual or romantic content, nudity
	MedicalClaim    Category = "medical_claim"    // cures, treatments, the body's chemistry, medication, doctors
	UnsafeBreathing Category = "unsafe_breathing" // long holds, fast or forced breathing, dizziness
	EarlyEnding     Category = "early_ending"     // ending or waking before resolution; any waking in a sleep session
	NotGuidance     Category = "not_guidance"     // addressed to the listener but not guidance: requests, advice about their life, diagnosing them
)

// Categories are every category of harm, in the order reports list them.
var Categories = []Category{UnsafeBreathing, MedicalClaim, SelfHarm, Explicit, EarlyEnding, NotGuidance}

// Where is the context a sentence is judged in: "slowly open your eyes"
// belongs to resolution, never to atmosphere, and never to a sleep session.
type Where struct {
	Phase Phase
	Sleep bool // the session drifts toward sleep: nothing may wake the listener
}

// Verdict is the safety check's answer for one sentence.
type Verdict struct {
	Category Category // empty when the sentence is fine
	Rule     string   // which rule matched, for the log
}

// Flagged reports whether the sentence must not be spoken.
func (v Verdict) Flagged() bool { return v.Category != "" }

// Safety checks sentences before they are shown or spoken, with local
// rules that run whether or not a moderation endpoint exists. The rules are
// data (prompts/safety/, read by people who do not read Go): lists of
// phrases, and rules that find them together in a sentence, with negation
// ("no need to hold the breath"), conditions ("if you feel dizzy, …") and
// the place in the session ("open your eyes" closes a waking session and
// nothing else). safety_text.go reads a sentence into words,
// safety_lexicon.go finds the lists' phrases in it, safety_rules.go
// decides. It errs on the side of dropping: a dropped sentence costs a few
// seconds of quiet, a harmful one costs the listener's trust.
type Safety struct {
	screen *screen
}

// maxHold is the longest breath hold lull will ever suggest, in seconds:
// the breathing settings' limit, and the safety rules' [MORE THAN A HOLD].
const maxHold = 7

// maxBreath is the longest in- or out-breath lull will ever suggest, in
// seconds: the breathing settings' limit for an exhale, and the safety
// rules' [MORE THAN A BREATH].
const maxBreath = 10

// defaultScreen is the embedded rules, compiled once.
var defaultScreen = sync.OnceValue(func() *screen {
	sr, err := prompts.Safety()
	if err != nil {
		panic(err.Error())
	}
	sc, err := compileScreen(sr)
	if err != nil {
		panic("prompts/safety: " + err.Error())
	}
	return sc
})

// DefaultSafety is the rule set every sentence passes.
func DefaultSafety() *Safety { return &Safety{screen: defaultScreen()} }

// NewSafety compiles rules read with prompts.LoadSafety.
func NewSafety(sr *prompts.SafetyRules) (*Safety, error) {
	sc, err := compileScreen(sr)
	if err != nil {
		return nil, err
	}
	return &Safety{screen: sc}, nil
}

// Check judges one sentence, spoken where at says.
func (s *Safety) Check(text string, at Where) Verdict {
	return s.screen.check(text, at)
}

// CrisisError is returned for an intention that signals someone may be in
// danger: they get kindness and where to find help, not a session.
type CrisisError struct{ Rule string }

func (e *CrisisError) Error() string {
	return fmt.Sprintf("the intention suggests you may be going through something hard (%s)", e.Rule)
}

// ScreenIntention checks what the listener wrote before a session starts,
// with the crisis screen (crisis.go), not the sentence rules: an intention is
// a person's words about themselves, not a guide's.
func (s *Safety) ScreenIntention(intention string) error {
	if sign := screenCrisis(intention); sign != "" {
		return &CrisisError{Rule: sign}
	}
	return nil
}
