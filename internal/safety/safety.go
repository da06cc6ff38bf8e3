// Package safety judges every sentence a guide writes before it is shown
// or spoken: the listener, eyes closed, cannot skip a line.
//
// A sentence passes three checks, all local, for every guide:
//   - the exact rules: the breath's bounds read from its numbers (bounds.go:
//     a hold above engine.MaxHold seconds, a breath above engine.MaxBreath),
//     and the few phrase rules of prompts/safety/*.txt (rules.go) that say
//     the same in words ("as long as you can");
//   - the classifier (model.go, features.go, train.go): one logistic
//     regression per category over the sentence's words, word pairs and
//     threes, letter groups, number sizes and the rules' lists, trained by
//     `go generate ./safety` from the corpora in prompts/safety/corpus/,
//     with thresholds chosen from scores on writers it was not trained on;
//   - the positive check (vocabulary.go): guidance speaks of a narrow
//     world, and the classifier weighs how much of a sentence lies outside
//     it; a sentence mostly outside it is not spoken.
//
// Where a model runs, a second opinion (package llm's guard) may run too.
// When it was wanted and failed, Strict judges with lower thresholds: a
// failed layer makes the screen stricter, never looser.
package safety

import (
	"sync"

	"github.com/lull-dev/lull/internal/crisis"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// Category is the kind of harm a sentence holds.
type Category = string

const (
	UnsafeBreathing Category = "unsafe_breathing" // long holds, fast or forced breathing, dizziness
	MedicalClaim    Category = "medical_claim"    // cures, treatments, the body's chemistry, medication, doctors
	SelfHarm        Category = "self_harm"        // self-harm, suicide, death wishes, however gently put
	Pain            Category = "pain"             // pain or injury used as a technique
	Explicit        Category = "explicit"         // sexual, sensual or romantic content, nudity
	EarlyEnding     Category = "early_ending"     // ending or waking before resolution
	SleepRousing    Category = "sleep_rousing"    // what rouses, in a sleep session's relaxation and close
	Chatter         Category = "chatter"          // an assistant talking, not a guide: feedback, offers, notes
	ReasoningLeak   Category = "reasoning_leak"   // a model's thinking, said aloud
	Refusal         Category = "refusal"          // "I can't help with that"
	OtherLanguage   Category = "other_language"   // words the listener would not understand
	Injection       Category = "injection"        // lull's own instructions echoed, or an attempt to steer
	NotGuidance     Category = "not_guidance"     // addressed to the listener but not guidance: requests, advice about their life
	Unfamiliar      Category = "unfamiliar"       // mostly words guidance never uses
)

// Categories are every category of harm, in the order reports list them.
var Categories = []Category{UnsafeBreathing, MedicalClaim, SelfHarm, Pain, Explicit, EarlyEnding, SleepRousing,
	Chatter, ReasoningLeak, Refusal, OtherLanguage, Injection, NotGuidance, Unfamiliar}

// Classified are the categories the classifier is trained for, each from
// a corpus file named after it.
var Classified = []Category{UnsafeBreathing, MedicalClaim, SelfHarm, Pain, Explicit, EarlyEnding, SleepRousing,
	Chatter, ReasoningLeak, Refusal, OtherLanguage, Injection}

// Applies reports whether a sentence of category c is harm where at says:
// ending words close a waking session's resolution, and what rouses is
// harm only as a sleep session sinks. Everything else is harm anywhere.
func Applies(c Category, at Place) bool {
	switch c {
	case EarlyEnding:
		return at.Phase != engine.Resolution
	case SleepRousing:
		return at.Sleep && at.Phase >= engine.Relaxation
	}
	return true
}

// Place is where in a session a sentence is judged (engine.Place), and
// Verdict the answer (engine.Verdict): a Screen is the engine's.
type (
	Place   = engine.Place
	Verdict = engine.Verdict
)

// Screen checks sentences before they are shown or spoken. It errs on the
// side of dropping: a dropped sentence costs a few seconds of quiet (the
// built-in guide fills them), a harmful one costs the listener's trust.
type Screen struct {
	rules   *ruleSet
	model   *model
	vocab   *vocabulary
	strict  bool
	reading *sync.Pool // of *reading
}

var _ engine.Screen = (*Screen)(nil)

// defaultRules is the embedded rules, compiled once.
var defaultRules = sync.OnceValue(func() *ruleSet {
	sr, err := prompts.Safety()
	if err != nil {
		panic(err.Error())
	}
	sc, err := compileRules(sr)
	if err != nil {
		panic("prompts/safety: " + err.Error())
	}
	return sc
})

// Default is the screen every sentence passes: the embedded rules, model
// and vocabulary. It panics if they do not load, which a test guards.
func Default() *Screen {
	return newScreen(defaultRules())
}

// New is a screen with rules read with prompts.LoadSafety, and the
// embedded model and vocabulary.
func New(sr *prompts.SafetyRules) (*Screen, error) {
	rs, err := compileRules(sr)
	if err != nil {
		return nil, err
	}
	return newScreen(rs), nil
}

func newScreen(rs *ruleSet) *Screen {
	m, err := defaultModel()
	if err != nil {
		panic(err.Error())
	}
	v, err := defaultVocabulary()
	if err != nil {
		panic(err.Error())
	}
	return &Screen{rules: rs, model: m, vocab: v, reading: &sync.Pool{New: func() any { return new(reading) }}}
}

// Strict is the same screen at the lower thresholds it uses when a second
// opinion was wanted and could not be had.
func (s *Screen) Strict() *Screen {
	c := *s
	c.strict = true
	return &c
}

// Unowned is the screen judging the built-in material's lines as it
// judges anyone's: for the tests that every line would pass it.
func (s *Screen) Unowned() *Screen {
	m := *s.model
	m.own = nil
	u := *s
	u.model = &m
	return &u
}

// Sentence judges one sentence, spoken where at says.
func (s *Screen) Sentence(text string, at Place) Verdict {
	if v := s.rules.check(text, at); v.Flagged() {
		return v
	}
	if rule := beyondBounds(text); rule != "" {
		return Verdict{Category: UnsafeBreathing, Rule: rule}
	}
	if s.model.isOwn(text) {
		return Verdict{} // the built-in material, as people wrote and reviewed it
	}
	r := s.reading.Get().(*reading)
	defer s.reading.Put(r)
	r.read(text, s.vocab, s.rules)
	if v := outside(r); v.Flagged() {
		return v
	}
	return s.classify(r, at)
}

// Line judges the sentences of one line a model wrote. A line is kept
// whole or dropped whole: what stands beside a harmful sentence on its
// line often finishes or prepares it ("Hold." after a hold too long,
// "Inhale four." before one), and is harmless only on its own; and a
// run-on, which the speech cleaner splits into pieces, is one thought.
func (s *Screen) Line(sentences []string, at Place) []Verdict {
	out := make([]Verdict, len(sentences))
	for i, text := range sentences {
		v := s.Sentence(text, at)
		if !v.Flagged() {
			continue
		}
		for j := range out {
			if j != i && !out[j].Flagged() {
				out[j] = Verdict{Category: v.Category, Rule: "on a line with a flagged sentence"}
			}
		}
		out[i] = v
	}
	return out
}

// classify is the classifier's verdict on a read sentence: the category
// whose score stands furthest above its threshold, of those that apply.
func (s *Screen) classify(r *reading, at Place) Verdict {
	scores := make([]float32, len(s.model.classes))
	s.model.score(r.hashes, scores)
	best, margin := -1, float32(0)
	for i, c := range s.model.classes {
		if !Applies(c.category, at) {
			continue
		}
		t := c.threshold
		if s.strict {
			t = c.strict
		}
		if d := scores[i] - t; d >= 0 && (best < 0 || d > margin) {
			best, margin = i, d
		}
	}
	if best < 0 {
		return Verdict{}
	}
	return Verdict{Category: s.model.classes[best].category, Rule: "classifier"}
}

// Intention reads what the listener wrote before a session starts with
// the crisis screen, not the sentence rules: an intention is a person's
// words about themselves, not a guide's.
func (s *Screen) Intention(text string) error { return crisis.Check(text) }
