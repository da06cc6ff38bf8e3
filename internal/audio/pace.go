package audio

import "github.com/lull-dev/lull/internal/engine"

// paceOf is how quickly a line is spoken against a voice's own unhurried
// base: its phase's rate (engine.Phase.Rate, the one source of it) times
// its delivery's pace. Every voice turns this one number into its own
// setting, so they all slow and quicken together. Anything not a phase
// speaks like the opening; a pace out of reason is held to one.
func paceOf(l engine.Line) float64 {
	p := l.Phase
	if !p.Valid() {
		p = engine.Atmosphere
	}
	return min(max(p.Rate()*l.Delivery.PaceOr1(), minPace), maxPace)
}

// The pace is held between these: half speed is already a drawl, and
// nothing in a relaxation should be quicker than a brisk reading.
const (
	minPace = 0.5
	maxPace = 1.3
)
