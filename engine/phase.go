package engine

import (
	"fmt"
	"time"
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

var phaseNames = [...]string{"atmosphere", "breathing", "sensory", "relaxation", "resolution"}

// phaseShares are each phase's share of the session, in percent.
var phaseShares = [...]int{12, 20, 28, 25, 15}

// phaseRests are the silences after a sentence: the breath the listener
// gets between lines. Relaxation lingers longest; resolution picks up.
var phaseRests = [...]time.Duration{
	2500 * time.Millisecond,
	4000 * time.Millisecond,
	3000 * time.Millisecond,
	5500 * time.Millisecond,
	2200 * time.Millisecond,
}

// phaseRates scale the estimated speaking rate: slower as the listener sinks.
var phaseRates = [...]float64{1.0, 0.95, 0.92, 0.85, 1.0}

func (p Phase) String() string {
	if !p.Valid() {
		return fmt.Sprintf("phase(%d)", int(p))
	}
	return phaseNames[p]
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

// Share is the phase's fraction of the whole session (0.12 for atmosphere).
func (p Phase) Share() float64 { return float64(phaseShares[p]) / 100 }

// Rest is the silence after each sentence of the phase.
func (p Phase) Rest() time.Duration { return phaseRests[p] }

// Rate is the phase's speaking-rate factor against the voice's normal pace.
func (p Phase) Rate() float64 { return phaseRates[p] }

// ParsePhase turns "breathing" into Breathing.
func ParsePhase(s string) (Phase, error) {
	for i, n := range phaseNames {
		if n == s {
			return Phase(i), nil
		}
	}
	return 0, fmt.Errorf("unknown phase %q (want one of atmosphere, breathing, sensory, relaxation, resolution)", s)
}
