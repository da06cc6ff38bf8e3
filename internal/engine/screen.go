package engine

// Screen judges what is written before anyone hears it: every sentence a
// guide writes, and the intention a person writes before a session. The
// engine knows nothing of how (package safety does); it asks, drops what
// is flagged, and counts it.
type Screen interface {
	// Sentence judges one sentence, spoken where at says.
	Sentence(text string, at Place) Verdict
	// Intention returns an error for an intention that must not start a
	// session: one that signals the person may be in crisis.
	Intention(text string) error
}

// Place is the context a sentence is judged in: "slowly open your eyes"
// belongs to resolution, never to atmosphere, and never to a sleep session.
type Place struct {
	Phase Phase
	Sleep bool // the session drifts toward sleep: nothing may wake the listener
}

// Verdict is a screen's answer for one sentence.
type Verdict struct {
	Category string // the kind of harm; empty when the sentence is fine
	Rule     string // what found it, for the log
}

// Flagged reports whether the sentence must not be spoken.
func (v Verdict) Flagged() bool { return v.Category != "" }
