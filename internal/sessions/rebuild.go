package sessions

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// rebuild makes a session of a transcript's good records, for when
// session.yaml and its backup are both lost (recovery level 2). The
// opening gives what the session was created with; the records what was
// spoken, in which phase, and when. The rebuilt session is paused in the
// last phase with records, the phases before it completed, those after
// pending; budgets and the time spoken are estimated from the sentences.
// It never runs again unnoticed: the caller says it was rebuilt.
func rebuild(sc *scan, id string) (engine.State, error) {
	if sc == nil {
		return engine.State{}, errors.New("there is no transcript")
	}
	open, ok := sc.opening()
	if !ok {
		return engine.State{}, errors.New(whyNoOpening(sc))
	}
	if open.ID != id {
		return engine.State{}, fmt.Errorf("its opening names session %q, not this one", open.ID)
	}
	st, err := engine.NewState(id, engine.Options{
		Length: open.Length, Intention: engine.KeptIntention(open.Intention), Seed: open.Seed, Voice: open.Voice, Soundscape: open.Soundscape,
		Sleep: open.Sleep, SleepTail: open.SleepTail, MoodBefore: open.MoodBefore, Practice: open.Practice, Pattern: open.Pattern,
	}, open.Created)
	if err != nil {
		return st, fmt.Errorf("its opening: %w", err)
	}
	entries := sc.entries()
	if len(entries) == 0 {
		return st, nil // created, never run: nothing else to know
	}
	return ranFrom(st, entries), nil
}

// whyNoOpening says why a transcript cannot be rebuilt from.
func whyNoOpening(sc *scan) string {
	switch {
	case sc.from > 0:
		return fmt.Sprintf("it is larger than %d MiB and only its end was read", maxFileSize>>20)
	case !sc.marked():
		return "it was written by an older lull, without the checks a rebuild needs"
	case len(sc.records) > 0 && sc.records[0].seq == 0 && sc.records[0].kind == kindSession:
		return "its opening is fine" // not reached: opening() would have found it
	default:
		return "its opening record is damaged or missing"
	}
}

// ranFrom is st, created, after the entries were spoken: paused in the
// furthest phase they reach.
func ranFrom(st engine.State, entries []engine.Entry) engine.State {
	return spokeOn(st, entries)
}

// spokeOn is st after entries were spoken, in order, from where st
// stands: a rebuild from a transcript's records, or the records a
// transcript holds beyond its session.yaml. A created session has run:
// it is paused, its intention sealed. Each phase the entries reach is
// begun at its first entry and the phases before it completed, budgeted
// as what they spoke; each guide line counts as spoken, its time
// estimated from its words. The phase it ends in keeps its budget if it
// had begun, else gets an estimate the engine replans as it goes.
func spokeOn(st engine.State, entries []engine.Entry) engine.State {
	if len(entries) == 0 {
		return st
	}
	if st.Status == engine.Created {
		first := entries[0].At
		st.Status, st.SealedAt = engine.Paused, first
		if st.Intention != "" && !hasRole(entries, engine.RoleUser) {
			// The intention is said to the guide as the first run begins.
			st.History = append(st.History, engine.Entry{At: first, Phase: engine.Atmosphere, Role: engine.RoleUser, Text: st.Intention})
		}
	}
	var begun, closed [len(engine.Phases)]bool
	for _, e := range entries {
		if r := &st.Phases[st.Phase]; r.Status == engine.PhasePending {
			r.Status, r.StartedAt, begun[st.Phase] = engine.PhaseActive, e.At, true
		}
		for st.Phase < e.Phase {
			r := &st.Phases[st.Phase]
			r.Status, r.CompletedAt, closed[st.Phase] = engine.PhaseCompleted, e.At, true
			st.Phase++
			next := &st.Phases[st.Phase]
			next.Status, next.StartedAt, begun[st.Phase] = engine.PhaseActive, e.At, true
		}
		st.History = append(st.History, e)
		if r := &st.Phases[e.Phase]; e.Role == engine.RoleGuide {
			was := r.Elapsed
			r.Spoken++
			// An estimate: never past the whole session.
			r.Elapsed = min(r.Elapsed+engine.EstimateSpeech(e.Text, e.Phase)+e.Phase.Rest(st.Length), st.Length).Round(time.Millisecond)
			st.Elapsed += r.Elapsed - was
		}
		if e.At.After(st.UpdatedAt) {
			st.UpdatedAt = e.At
		}
	}
	st.FitElapsed()
	for i, r := range st.Phases {
		if closed[i] {
			st.Phases[i].Budget = spokenBudget(r.Phase, st.Length, r.Spoken, r.Elapsed)
		}
	}
	cur := &st.Phases[st.Phase]
	if begun[st.Phase] {
		cur.Budget = estimateBudget(st.Length, st.Sleep, st.Phase, cur.Spoken, cur.Elapsed)
	}
	st.Position = engine.Position{Phase: st.Phase, Sentence: cur.Spoken}
	return st
}

// spokenBudget is the budget of a phase closed by what it spoke.
func spokenBudget(p engine.Phase, length time.Duration, spoken int, elapsed time.Duration) engine.Budget {
	return engine.Budget{Sentences: spoken, WindDownAt: max(spoken-engine.WindDownLines(p, spoken), 0), Target: elapsed, Rest: p.Rest(length)}
}

func hasRole(entries []engine.Entry, r engine.Role) bool {
	for _, e := range entries {
		if e.Role == r {
			return true
		}
	}
	return false
}

// estimateBudget is a budget for the phase a rebuilt session resumes in,
// as the engine would plan it with nothing measured: the phase's share of
// the session, sentences of the length spoken so far, the phase's rests.
// The engine replans it as it goes.
func estimateBudget(length time.Duration, sleep bool, p engine.Phase, spoken int, speech time.Duration) engine.Budget {
	target := time.Duration(float64(length) * p.Share(length, sleep))
	slot := engine.TypicalSpeech(p) + p.Rest(length)
	if spoken > 0 {
		slot = speech / time.Duration(spoken)
	}
	n := max(int(math.Round(float64(target)/float64(slot))), engine.MinSentences(p, sleep), spoken)
	return engine.Budget{Sentences: n, WindDownAt: max(n-engine.WindDownLines(p, n), 0), Target: target, Rest: p.Rest(length)}
}

// rebuiltNote tells the listener what was rebuilt and from what.
func rebuiltNote(perr, berr error, st engine.State) string {
	var what string
	if n := st.Spoken(); n == 0 {
		what = "nothing had been spoken yet"
	} else {
		what = fmt.Sprintf("%d %s through %s", n, plural(n, "sentence"), st.Phase)
	}
	return fmt.Sprintf("%s and its backup could not be read (%s: %v; %s: %v); rebuilt from %s: %s. Budgets and timing are estimated.",
		primaryName, primaryName, perr, backupName, berr, transcriptName, what)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
