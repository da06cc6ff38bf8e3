package engine

import (
	"log/slog"
	"slices"
	"time"
)

// call is one guide call as the engine saw it: when it was opened, when its
// first text came and whether its first line has been heard. Its timing is
// logged once, as the line starts to play: first_token_ms and
// first_audio_ms are what a listener waits for.
type call struct {
	guide     string
	cuer      Cuer   // the guide, when it tags its breathing lines
	pauser    Pauser // the guide, when it asks for short pauses
	phase     Phase
	windDown  bool
	opened    time.Time
	firstText time.Time
	heard     bool
	said      []string // the lines it gave that were handed out
	filler    bool     // the filler wrote it, in a remote guide's place
	filled    []string // lines the filler said while this call stalled
	chars     int      // text received, besides white space
	dropped   int      // sentences the screen withheld
}

// maxUnchained bounds the lines kept for a chain that no longer follows.
const maxUnchained = 40

// heard logs a call's timing when its first line begins to play.
func (e *Engine) heard(l Line) {
	c := l.call
	if c == nil || c.heard {
		return
	}
	c.heard = true
	now := time.Now()
	attrs := []any{
		slog.String("guide", c.guide),
		slog.String("phase", c.phase.String()),
		slog.Bool("wind_down", c.windDown),
		slog.Int64("first_audio_ms", now.Sub(c.opened).Milliseconds()),
	}
	if !c.firstText.IsZero() {
		attrs = append(attrs, slog.Int64("first_token_ms", c.firstText.Sub(c.opened).Milliseconds()))
	}
	e.log.Info("guide call", attrs...)
}

// received books what a call cost, and where the guide's memory of the
// session now stands: a response that ran to its end becomes the chain;
// lines from a call cut short are what the chain does not hold, and so
// are the lines the filler said while the call stalled.
func (e *Engine) received(p Phase, r Receipt, said, filled []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	rec := &e.st.Phases[p]
	rec.Tokens = rec.Tokens.Add(r.Tokens)
	rec.Dropped += r.Withheld
	rec.Cost += r.Cost
	rec.Removed += r.Removed
	e.st.Cost += r.Cost
	if r.Withheld > 0 {
		e.log.Warn("sentences withheld by the provider's moderation", slog.String("phase", p.String()), slog.Int("count", r.Withheld))
	}
	for _, id := range r.Stored {
		s := Stored{ID: id, Server: serverOf(e.guide)}
		if !slices.Contains(e.st.Stored, s) {
			e.st.Stored = append(e.st.Stored, s)
		}
	}
	switch {
	case r.Completed && slices.Contains(r.Stored, r.ResponseID):
		e.st.Chain = Chain{ResponseID: r.ResponseID, Provider: providerOf(e.guide)}
		e.unchainLocked(filled)
	default:
		e.unchainLocked(filled)
		e.unchainLocked(said)
	}
}

// saidElsewhere records lines a guide's chain does not hold: the filler
// said them.
func (e *Engine) saidElsewhere(lines []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.unchainLocked(lines)
}

// unchainLocked adds lines to those the chain does not hold, when there is
// a chain. Callers hold e.mu.
func (e *Engine) unchainLocked(lines []string) {
	if e.st.Chain.ResponseID == "" || len(lines) == 0 {
		return
	}
	// A new slice: a checkpoint may be encoding the old one.
	u := append(slices.Clip(e.st.Chain.Unchained), lines...)
	e.st.Chain.Unchained = u[max(0, len(u)-maxUnchained):]
}

// providerOf is where a guide keeps its responses; "" for a local guide.
func providerOf(g Guide) string {
	if r, ok := g.(Remote); ok {
		return r.Provider()
	}
	return ""
}

func modelOf(g Guide) string {
	if r, ok := g.(Remote); ok {
		return r.Model()
	}
	return ""
}

// serverOf is the server a remote guide asks, when it says: a resume goes
// back to it.
func serverOf(g Guide) string {
	if r, ok := g.(interface{ Server() string }); ok {
		return r.Server()
	}
	return ""
}
