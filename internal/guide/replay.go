package guide

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// Replay speaks a saved session's words again (lull replay, and a WAV
// export): each phase says the sentences saved for it, in their order,
// and nothing else. It never writes a word and never calls a model; the
// engine paces the lines afresh.
//
// The engine's budget never asks a phase for more lines than were saved
// (Capacity): where the time would hold more, the silences stretch. When
// it asks for fewer (the voice runs longer than it did), the phase keeps
// its opening lines and its last ones — those that lead into the next
// phase, and resolution's close — and leaves out lines from the middle.
type Replay struct {
	phases [len(engine.Phases)][]string
	cues   map[string]engine.BreathStage
	short  map[string]bool
}

var (
	_ engine.Guide    = (*Replay)(nil)
	_ engine.Capacity = (*Replay)(nil)
	_ engine.Cuer     = (*Replay)(nil)
	_ engine.Pauser   = (*Replay)(nil)
)

// ErrNoWords is a session with nothing to replay.
var ErrNoWords = errors.New("it has no spoken words to replay")

// NewReplay is a guide that says again the guide's lines of history.
// Breathing lines of the built-in guide's material keep the part of the
// breath they belong to, for rhythm b.
func NewReplay(history []engine.Entry, b engine.BreathPattern) (*Replay, error) {
	r := &Replay{cues: BreathTags(b), short: shortLines()}
	n := 0
	for _, e := range history {
		if e.Role != engine.RoleGuide || !e.Phase.Valid() {
			continue
		}
		text := strings.TrimSpace(e.Text)
		if text == "" {
			continue
		}
		r.phases[e.Phase] = append(r.phases[e.Phase], text)
		n++
	}
	if n == 0 {
		return nil, ErrNoWords
	}
	return r, nil
}

// Name is how a replay's runs are recorded.
func (r *Replay) Name() string { return "replay" }

// Lines are the saved lines of phase p.
func (r *Replay) Lines(p engine.Phase) []string {
	if !p.Valid() {
		return nil
	}
	return r.phases[p]
}

// Capacity is how many lines the phase has to say.
func (r *Replay) Capacity(req engine.Request) int { return len(r.Lines(req.Phase)) }

// Stream gives one call's saved lines.
func (r *Replay) Stream(ctx context.Context, req engine.Request) (engine.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !req.Phase.Valid() {
		return nil, fmt.Errorf("replay: unknown phase %v", req.Phase)
	}
	return newTextStream(r.Sentences(req), pieceSeed(req)), nil
}

// Sentences is what one call says. Line i of the replayed phase is saved
// line i while the body runs, and the wind-down says the saved phase's
// last lines, as many as the budget has room for, so the bridge to the
// next phase (or the close) is never the part left out.
func (r *Replay) Sentences(req engine.Request) []string {
	saved := r.Lines(req.Phase)
	m := len(saved)
	from := min(max(req.Spoken, 0), m)
	if req.WindDown {
		want := max(req.Budget.Sentences-req.Spoken, 1)
		return saved[max(from, m-want):]
	}
	to := min(max(req.Budget.WindDownAt, from), m)
	return saved[from:to]
}

// Cue is the part of the breath a breathing line of the built-in
// guide's material belongs to.
func (r *Replay) Cue(text string) (engine.BreathStage, bool) {
	st, ok := r.cues[strings.TrimSpace(text)]
	return st, ok
}

// ShortPause keeps the built-in guide's short silences after a muscle is
// tensed.
func (r *Replay) ShortPause(text string) bool { return r.short[strings.TrimSpace(text)] }

// shortLines are the material's lines followed by a short pause, as
// Builtin.ShortPause knows them once it has said them.
func shortLines() map[string]bool {
	m, err := prompts.BuiltinGuide()
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, s := range m.Scripts() {
		for _, ps := range s {
			if ps == nil {
				continue
			}
			for _, list := range ps.Parts() {
				for _, st := range list {
					if !st.ShortPause {
						continue
					}
					for _, v := range st.Say {
						out[strings.TrimSpace(v)] = true
					}
				}
			}
		}
	}
	return out
}
