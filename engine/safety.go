package engine

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Category is the kind of harm a safety rule guards against.
type Category string

const (
	SelfHarm        Category = "self_harm"        // self-harm, suicide, death wishes, however gently put
	Explicit        Category = "explicit"         // sexual, sensual or romantic content, nudity
	MedicalClaim    Category = "medical_claim"    // cures, treatments, medication, doctors, diagnoses
	UnsafeBreathing Category = "unsafe_breathing" // long holds, fast or forced breathing, dizziness
	EarlyEnding     Category = "early_ending"     // ending or waking before resolution; any waking in a sleep session
	NotGuidance     Category = "not_guidance"     // addressed to the listener but not guidance: requests, chatter, advice about their life
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

type safetyRule struct {
	category Category
	name     string
	re       *regexp.Regexp
	// check refines a match; nil means every match counts.
	check func(m []string) bool
}

// Safety checks sentences with local rules before they are shown or spoken.
// It errs on the side of dropping: a dropped sentence costs a few seconds of
// quiet, a harmful one costs the listener's trust.
type Safety struct {
	rules []safetyRule
}

// maxHold is the longest breath hold lull will ever suggest, in seconds.
const maxHold = 7

func rule(c Category, name, pattern string) safetyRule {
	return safetyRule{category: c, name: name, re: regexp.MustCompile(`(?i)` + pattern)}
}

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
	"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
}

func count(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return numberWords[strings.ToLower(s)]
}

const num = `(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty)`

// DefaultSafety is the rule set every sentence passes.
func DefaultSafety() *Safety {
	longHold := func(m []string) bool {
		n := count(m[1])
		if strings.HasPrefix(strings.ToLower(m[2]), "min") {
			return n >= 1
		}
		return n > maxHold
	}
	return &Safety{rules: []safetyRule{
		rule(SelfHarm, "suicide", `\bsuicid`),
		rule(SelfHarm, "self-harm", `\bself[- ]?harm|\b(hurt|harm|injur|cut|kill)\w*\s+(yourself|myself)\b`),
		rule(SelfHarm, "end a life", `\b(end|take)\s+(your|my)\s+(own\s+)?life\b`),
		rule(SelfHarm, "wish to die", `\b(want|wish|ready|deserve)\s+to\s+die\b|\bno\s+reason\s+to\s+live\b|\bnot\s+want\s+to\s+(live|be\s+alive)\b|\bdon'?t\s+want\s+to\s+(live|be\s+alive|wake\s+up)\b`),
		rule(SelfHarm, "overdose", `\boverdos`),
		rule(SelfHarm, "never wake", `\bnever\s+wake\s+up\b`),

		rule(Explicit, "sexual", `\b(sex|sexual|sexy|erotic|orgasm\w*|arous\w*|naked|nude|nudity|genital\w*|penis|vagina|breasts|nipples?|seduc\w*|lust\w*|horny)\b`),
		rule(Explicit, "touch yourself", `\btouch(ing)?\s+yourself\b`),
		rule(Explicit, "undress", `\bundress\w*|\bstrip\s+(off|down)\b`),

		rule(MedicalClaim, "cure", `\b(cures?|cured|curing)\b`),
		rule(MedicalClaim, "heal a disease", `\bheal\w*\s+(your\s+|the\s+)?(disease|illness|cancer|infection|depression|diabetes|condition|disorder|tumou?r)`),
		rule(MedicalClaim, "medication", `\b(stop|skip|quit|replace|instead\s+of|no\s+need\s+for|without)\s+(taking\s+)?(your\s+)?(medication|medicine|meds|pills|prescription|treatment|therapy)\b`),
		rule(MedicalClaim, "doctor", `\b(no\s+need|don'?t\s+need|never\s+need)\s+(to\s+see\s+)?(a\s+|your\s+)?(doctor|therapist|physician)\b`),
		rule(MedicalClaim, "treats", `\b(treats?|reverses?|eliminates?|prevents?)\s+(your\s+)?(anxiety\s+disorder|depression|insomnia|hypertension|high\s+blood\s+pressure|heart\s+disease|diabetes|cancer|ptsd|illness)`),
		rule(MedicalClaim, "clinically", `\b(clinically|medically)\s+(proven|shown)\b|\bguaranteed\s+to\b`),

		{category: UnsafeBreathing, name: "long hold",
			re:    regexp.MustCompile(`(?i)\bhold\w*\b[^.!?]{0,40}?\bfor\s+(?:a\s+count\s+of\s+|about\s+|at\s+least\s+)?` + num + `\s*(sec\w*|min\w*|counts?|beats?|breaths?)?`),
			check: longHold},
		{category: UnsafeBreathing, name: "long hold count",
			re:    regexp.MustCompile(`(?i)\bhold\w*\b[^.!?]{0,30}?\bcount(?:ing)?\s+(?:to|of)\s+` + num + `()`),
			check: longHold},
		rule(UnsafeBreathing, "hold a minute", `\bhold\w*\b[^.!?]{0,40}?\bfor\s+(a|one|an\s+entire|a\s+full|a\s+whole|several|many|a\s+long)\s+(minutes?|while|time)\b`),
		rule(UnsafeBreathing, "hold as long as", `\bhold\w*\b[^.!?]{0,30}\b(as\s+long\s+as\s+(you\s+)?(can|possible)|until\s+(it\s+hurts|you\s+can'?t))`),
		rule(UnsafeBreathing, "hyperventilation", `\bhyperventilat\w*|\b(rapid|forceful|fast)\s+(breaths|breathing)\b|\bbreathe\s+(as\s+)?(fast|hard|quickly)\s+as\b|\bpant(ing)?\b`),
		rule(UnsafeBreathing, "stop breathing", `\bstop\s+breathing\b|\bdon'?t\s+breathe\b`),
	}}
}

// Check judges one sentence, spoken where at says.
func (s *Safety) Check(text string, at Where) Verdict {
	for _, r := range s.rules {
		for _, m := range r.re.FindAllStringSubmatch(text, -1) {
			if r.check == nil || r.check(m) {
				return Verdict{Category: r.category, Rule: r.name}
			}
		}
	}
	return Verdict{}
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
