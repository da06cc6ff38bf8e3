package sessions

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// toDocument is the file form of st. Times are written in UTC and
// durations in seconds rounded to the millisecond.
func toDocument(st engine.State) document {
	d := document{header: toHeader(st), outcome: toOutcome(st)}
	d.Phases = make([]phaseDoc, len(st.Phases))
	for i, r := range st.Phases {
		d.Phases[i] = toPhase(r)
	}
	d.History = make([]entryDoc, len(st.History))
	for i, e := range st.History {
		d.History[i] = toEntry(e)
	}
	return d
}

func toHeader(st engine.State) header {
	return header{
		Version:          schemaVersion,
		ID:               st.ID,
		Status:           string(st.Status),
		CreatedAt:        st.CreatedAt.UTC(),
		UpdatedAt:        st.UpdatedAt.UTC(),
		LengthMinutes:    int(st.Length / time.Minute),
		Intention:        st.Intention,
		SealedAt:         st.SealedAt.UTC(),
		Seed:             st.Seed,
		Guide:            st.Guide,
		Model:            st.Model,
		Server:           st.Server,
		Voice:            st.Voice,
		Soundscape:       st.Soundscape,
		Sleep:            st.Sleep,
		SleepTail:        seconds(st.SleepTail),
		MoodBefore:       st.MoodBefore,
		MoodAfter:        st.MoodAfter,
		Note:             st.Note,
		MoodAsked:        st.MoodAsked,
		Volume:           st.Volume,
		VoiceOff:         st.VoiceOff,
		VoiceRate:        st.VoiceRate,
		SoundscapeVolume: st.SoundscapeVolume,
		Practice:         st.Practice,
		Pattern:          st.Pattern,
		ReplayOf:         st.ReplayOf,
		Partial:          st.Summary != nil && st.Summary.Partial,
		Phase:            st.Phase.String(),
		Elapsed:          seconds(st.Elapsed),
		Rendered:         seconds(st.Rendered),
		Position:         positionDoc{Phase: st.Position.Phase.String(), Sentence: st.Position.Sentence},
	}
}

func toPhase(r engine.PhaseRecord) phaseDoc {
	return phaseDoc{
		Name:   r.Phase.String(),
		Status: string(r.Status),
		Budget: budgetDoc{
			Sentences:  r.Budget.Sentences,
			WindDownAt: r.Budget.WindDownAt,
			Target:     seconds(r.Budget.Target),
			Rest:       seconds(r.Budget.Rest),
		},
		Spoken:      r.Spoken,
		Dropped:     r.Dropped,
		Removed:     r.Removed,
		Filled:      r.Filled,
		Tokens:      tokensOf(r.Tokens),
		Cost:        r.Cost,
		Elapsed:     seconds(r.Elapsed),
		StartedAt:   r.StartedAt.UTC(),
		CompletedAt: r.CompletedAt.UTC(),
	}
}

// toOutcome is st's outcome, holding none of st's slices.
func toOutcome(st engine.State) outcome {
	var o outcome
	if s := st.Summary; s != nil {
		o.Summary = &summaryDoc{
			Duration:    seconds(s.Duration),
			Sentences:   s.Sentences,
			Dropped:     s.Dropped,
			Partial:     s.Partial,
			Tokens:      tokensOf(s.Tokens),
			Cost:        s.Cost,
			CompletedAt: s.CompletedAt.UTC(),
		}
	}
	for _, r := range st.Runs {
		o.Runs = append(o.Runs, runDoc{Guide: r.Guide, Model: r.Model, Server: r.Server, StartedAt: r.StartedAt.UTC()})
	}
	if c := st.Chain; c.ResponseID != "" {
		o.Chain = &chainDoc{ResponseID: c.ResponseID, Provider: c.Provider, Unchained: slices.Clone(c.Unchained)}
	}
	for _, s := range st.Stored {
		o.Stored = append(o.Stored, storedDoc{ID: s.ID, Server: s.Server})
	}
	o.Cost = st.Cost
	return o
}

// toEntry is the file form of one history entry.
func toEntry(e engine.Entry) entryDoc {
	return entryDoc{At: e.At.UTC(), Phase: e.Phase.String(), Role: string(e.Role), Text: e.Text}
}

// fromDocument turns a decoded file back into a State, naming the first
// field that does not make sense. It does not run State.Validate.
func fromDocument(d document) (engine.State, error) {
	st, err := d.header.state()
	if err != nil {
		return st, err
	}
	if len(d.Phases) != len(engine.Phases) {
		return st, fmt.Errorf("phases lists %d phases, want %d", len(d.Phases), len(engine.Phases))
	}
	for i, p := range d.Phases {
		r, err := p.record()
		if err != nil {
			return st, fmt.Errorf("phase %d: %w", i+1, err)
		}
		st.Phases[i] = r
	}
	if s := d.Summary; s != nil {
		dur, err := duration("summary duration_seconds", s.Duration)
		if err != nil {
			return st, err
		}
		st.Summary = &engine.Summary{
			Duration:    dur,
			Sentences:   s.Sentences,
			Dropped:     s.Dropped,
			Partial:     s.Partial,
			Tokens:      s.Tokens.tokens(),
			Cost:        s.Cost,
			CompletedAt: s.CompletedAt,
		}
	}
	for _, r := range d.Runs {
		st.Runs = append(st.Runs, engine.Run{Guide: r.Guide, Model: r.Model, Server: r.Server, StartedAt: r.StartedAt})
	}
	if c := d.Chain; c != nil {
		st.Chain = engine.Chain{ResponseID: c.ResponseID, Provider: c.Provider, Unchained: c.Unchained}
	}
	for _, s := range d.Stored {
		st.Stored = append(st.Stored, engine.Stored{ID: s.ID, Server: s.Server})
	}
	if d.Cost < 0 || math.IsNaN(d.Cost) || math.IsInf(d.Cost, 0) {
		return st, fmt.Errorf("cost_usd %v is not a cost", d.Cost)
	}
	st.Cost = d.Cost
	if len(d.History) > 0 {
		st.History = make([]engine.Entry, len(d.History))
	}
	for i, e := range d.History {
		en, err := e.entry()
		if err != nil {
			return st, fmt.Errorf("history entry %d: %w", i+1, err)
		}
		st.History[i] = en
	}
	return st, nil
}

// state is the header's part of a State, the mirror of toHeader; List
// reads it alone.
func (h header) state() (engine.State, error) {
	if h.LengthMinutes < 0 || h.LengthMinutes > 1e6 { // no overflow; Validate judges the rest
		return engine.State{}, fmt.Errorf("length_minutes %d is out of range", h.LengthMinutes)
	}
	phase, err := engine.ParsePhase(h.Phase)
	if err != nil {
		return engine.State{}, fmt.Errorf("phase: %w", err)
	}
	pos, err := engine.ParsePhase(h.Position.Phase)
	if err != nil {
		return engine.State{}, fmt.Errorf("position: %w", err)
	}
	elapsed, err := duration("elapsed_seconds", h.Elapsed)
	if err != nil {
		return engine.State{}, err
	}
	tail, err := duration("sleep_tail_seconds", h.SleepTail)
	if err != nil {
		return engine.State{}, err
	}
	rendered, err := duration("rendered_seconds", h.Rendered)
	if err != nil {
		return engine.State{}, err
	}
	return engine.State{
		ID:               h.ID,
		Status:           engine.Status(h.Status),
		CreatedAt:        h.CreatedAt,
		UpdatedAt:        h.UpdatedAt,
		Length:           time.Duration(h.LengthMinutes) * time.Minute,
		Intention:        h.Intention,
		SealedAt:         h.SealedAt,
		Seed:             h.Seed,
		Guide:            h.Guide,
		Model:            h.Model,
		Server:           h.Server,
		Voice:            h.Voice,
		Soundscape:       h.Soundscape,
		Sleep:            h.Sleep,
		SleepTail:        tail,
		MoodBefore:       h.MoodBefore,
		MoodAfter:        h.MoodAfter,
		Note:             h.Note,
		MoodAsked:        h.MoodAsked,
		Volume:           h.Volume,
		VoiceOff:         h.VoiceOff,
		VoiceRate:        h.VoiceRate,
		SoundscapeVolume: h.SoundscapeVolume,
		Practice:         h.Practice,
		Pattern:          h.Pattern,
		ReplayOf:         h.ReplayOf,
		Phase:            phase,
		Position:         engine.Position{Phase: pos, Sentence: h.Position.Sentence},
		Elapsed:          elapsed,
		Rendered:         rendered,
	}, nil
}

func (p phaseDoc) record() (engine.PhaseRecord, error) {
	var r engine.PhaseRecord
	phase, err := engine.ParsePhase(p.Name)
	if err != nil {
		return r, err
	}
	if p.Budget.Sentences < 0 || p.Budget.WindDownAt < 0 {
		return r, fmt.Errorf("%s has a negative budget (%d sentences, wind down at %d)", p.Name, p.Budget.Sentences, p.Budget.WindDownAt)
	}
	target, err := duration(p.Name+" target_seconds", p.Budget.Target)
	if err != nil {
		return r, err
	}
	rest, err := duration(p.Name+" rest_seconds", p.Budget.Rest)
	if err != nil {
		return r, err
	}
	elapsed, err := duration(p.Name+" elapsed_seconds", p.Elapsed)
	if err != nil {
		return r, err
	}
	if p.Cost < 0 || math.IsNaN(p.Cost) || math.IsInf(p.Cost, 0) {
		return r, fmt.Errorf("%s cost_usd %v is not a cost", p.Name, p.Cost)
	}
	return engine.PhaseRecord{
		Phase:       phase,
		Status:      engine.PhaseStatus(p.Status),
		Budget:      engine.Budget{Sentences: p.Budget.Sentences, WindDownAt: p.Budget.WindDownAt, Target: target, Rest: rest},
		Spoken:      p.Spoken,
		Dropped:     p.Dropped,
		Removed:     p.Removed,
		Filled:      p.Filled,
		Tokens:      p.Tokens.tokens(),
		Cost:        p.Cost,
		Elapsed:     elapsed,
		StartedAt:   p.StartedAt,
		CompletedAt: p.CompletedAt,
	}, nil
}

func (e entryDoc) entry() (engine.Entry, error) {
	phase, err := engine.ParsePhase(e.Phase)
	if err != nil {
		return engine.Entry{}, err
	}
	switch role := engine.Role(e.Role); role {
	case engine.RoleGuide, engine.RoleSystem, engine.RoleUser:
		return engine.Entry{At: e.At, Phase: phase, Role: role, Text: e.Text}, nil
	default:
		return engine.Entry{}, fmt.Errorf("unknown role %q (want guide, system or user)", e.Role)
	}
}

// maxSeconds bounds any duration in a file: far beyond a session, far
// below time.Duration's overflow.
const maxSeconds = 1e6

func seconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond).Milliseconds()) / 1000
}

func duration(field string, s float64) (time.Duration, error) {
	if !(s >= 0 && s <= maxSeconds) { // also refuses NaN
		return 0, fmt.Errorf("%s is %v, not a number of seconds from 0 to %v", field, s, maxSeconds)
	}
	return time.Duration(math.Round(s*1000)) * time.Millisecond, nil
}

func tokensOf(t engine.Tokens) *tokensDoc {
	if t == (engine.Tokens{}) {
		return nil
	}
	return &tokensDoc{In: t.In, Out: t.Out, Cached: t.Cached}
}

func (t *tokensDoc) tokens() engine.Tokens {
	if t == nil {
		return engine.Tokens{}
	}
	return engine.Tokens{In: t.In, Out: t.Out, Cached: t.Cached}
}
