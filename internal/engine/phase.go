package engine

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/prompts"
)

// Phase is one of the five movements of a session, always taken in order.
type Phase int

const (
	Atmosphere Phase = iota
	Breathing
	Sensory
	Relaxation
	Resolution
)

// Phases lists every phase in the order a session runs them.
var Phases = [...]Phase{Atmosphere, Breathing, Sensory, Relaxation, Resolution}

// A phase's name is prompts.PhaseNames', as the material spells it: this
// fails to compile when the two lists differ in length.
var _ [len(Phases)]struct{} = [len(prompts.PhaseNames)]struct{}{}

// phaseShares are each phase's share of the session, in percent.
var phaseShares = [...]int{12, 20, 28, 25, 15}

// phasePacing is how each phase shares its time between words and
// silence: the one table the planner, the rests and the estimates read.
var phasePacing = [...]pacing{
	Atmosphere: {speech: 0.33, least: 2 * time.Second, most: 30 * time.Second},
	Breathing:  {speech: 0, least: breathGap, most: 30 * time.Second}, // by breaths
	Sensory:    {speech: 0.33, least: 2 * time.Second, most: 30 * time.Second},
	Relaxation: {speech: 0.22, least: 3 * time.Second, most: 45 * time.Second},
	Resolution: {speech: 0.33, least: 1500 * time.Millisecond, most: 30 * time.Second},
}

// pacing is a phase's share of speech and the bounds of its silences.
type pacing struct {
	// speech is the share of the phase's time that is spoken in a session
	// of pacingLength; 0 means the phase is planned by breaths instead.
	speech float64
	// least and most bound the silence after a line: never rushed, and
	// never so long that the guide seems to have gone. The planned
	// silences lie well within them; least is for a clock running late.
	least, most time.Duration
}

// Longer sessions are longer in silence, not in words: the speech share
// scales by (pacingLength / length)^¼, at most by maxSpeechScale for the
// shortest sessions, which have room for little else; past pacingLength,
// by its square root, so that an hour's session gives each line room
// (read by a listener, 45 minutes at the ¼ power was a line every 17 s
// of sensory, and an opening of twelve reassurances). The opening still
// says why the listener came within a minute: its silences grow across
// it (settlingGrowth).
const (
	pacingLength   = 20 * time.Minute
	maxSpeechScale = 1.2
	shortExponent  = 0.25
	longExponent   = 0.5
)

// phaseRates scale the speaking rate against the voice's normal pace:
// slower as the listener sinks. The voices derive their rates from them.
var phaseRates = [...]float64{1.0, 0.95, 0.92, 0.85, 1.0}

func (p Phase) String() string {
	if !p.Valid() {
		return fmt.Sprintf("phase(%d)", int(p))
	}
	return prompts.PhaseNames[p] // the material's own spelling: one list for both
}

// Title is the phase name for people: "Atmosphere".
func (p Phase) Title() string {
	s := p.String()
	return string(s[0]-'a'+'A') + s[1:]
}

// Valid reports whether p is one of the five phases.
func (p Phase) Valid() bool { return p >= Atmosphere && p <= Resolution }

// Next is the phase after p; ok is false after resolution.
func (p Phase) Next() (next Phase, ok bool) {
	if p >= Resolution {
		return p, false
	}
	return p + 1, true
}

// Share is the phase's fraction of a session this long (0.12 for
// atmosphere up to pacingLength). Past it the opening, the breathing and
// a waking close grow by the square root of the length, and relaxation,
// where long silence belongs, takes the time they leave: read by a
// listener, a 45-minute session's five-minute opening and seven-minute
// return were reassurance after reassurance, while a human script's
// return takes a few minutes at any length. A sleep session's close keeps
// its share: the soundscape plays on in it after the goodnight. A length
// of 0 (not known) has the base shares.
func (p Phase) Share(length time.Duration, sleep bool) float64 {
	base := float64(phaseShares[p]) / 100
	if length <= pacingLength {
		return base
	}
	r := math.Sqrt(float64(pacingLength) / float64(length))
	shrinks := func(q Phase) bool { return q == Atmosphere || q == Breathing || q == Resolution && !sleep }
	if shrinks(p) {
		return base * r
	}
	if p != Relaxation {
		return base
	}
	given := 0.0
	for _, q := range Phases {
		if shrinks(q) {
			given += float64(phaseShares[q]) / 100 * (1 - r)
		}
	}
	return base + given
}

// SpeechShare is the share of the phase's time given to speech in a
// session of the given length; 0 for breathing, planned by breaths.
func (p Phase) SpeechShare(length time.Duration) float64 {
	scale := maxSpeechScale
	if length > 0 {
		r, exp := float64(pacingLength)/float64(length), shortExponent
		if r < 1 {
			exp = longExponent
		}
		scale = min(math.Pow(r, exp), maxSpeechScale)
	}
	return phasePacing[p].speech * scale
}

// Rests bounds the silence after one of the phase's lines in a session
// this long; a sleep session's relaxation and resolution, which thin out,
// may be quiet for longer, and so may a long session's relaxation: its
// longest silence grows past pacingLength by the square root of the
// length, to a sleep session's at the most (an hour's relaxation would
// otherwise run out of things to say long before its end).
func (p Phase) Rests(sleep bool, length time.Duration) (least, most time.Duration) {
	least, most = phasePacing[p].least, phasePacing[p].most
	if p == Relaxation && length > pacingLength {
		most = min(time.Duration(float64(most)*math.Sqrt(float64(length)/float64(pacingLength))), sleepMost).Round(time.Second)
	}
	if thins(p, sleep) {
		most = max(most, sleepMost)
	}
	return least, most
}

// Rest is the silence after a typical line of the phase in a session of
// the given length, as planned before anything is measured.
func (p Phase) Rest(length time.Duration) time.Duration {
	speech := TypicalSpeech(p)
	var rest time.Duration
	if s := p.SpeechShare(length); s > 0 {
		rest = time.Duration(float64(speech) * (1 - s) / s)
	} else {
		rest = DefaultBreath.Period() - speech%DefaultBreath.Period()
	}
	least, most := p.Rests(false, length)
	return min(max(rest, least), most).Round(time.Millisecond)
}

// Rate is the phase's speaking-rate factor against the voice's normal pace.
func (p Phase) Rate() float64 { return phaseRates[p] }

// ParsePhase turns "breathing" into Breathing.
func ParsePhase(s string) (Phase, error) {
	if i := prompts.PhaseIndex(s); i >= 0 {
		return Phase(i), nil
	}
	return 0, fmt.Errorf("unknown phase %q (want one of %s)", s, strings.Join(prompts.PhaseNames[:], ", "))
}
