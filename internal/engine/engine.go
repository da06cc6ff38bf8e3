// Package engine runs a whole relaxation session headless: the lifecycle
// table, the five phases in order, their budgets and clock, the pause gate
// and cancellation. It talks to words, sound and disk only through the
// small interfaces it defines (Guide, Speaker, Store) and tells the rest
// what happens through numbered events, so a test can run a whole session
// with fakes.
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/lull-dev/lull/internal/redact"
	"github.com/lull-dev/lull/internal/speech"
)

// ErrAbandoned is what Run returns when the session was cancelled for good.
var ErrAbandoned = errors.New("session abandoned")

// Config wires an engine to the parts around it.
type Config struct {
	Guide   Guide
	Speaker Speaker
	Store   Store  // nil: nothing is saved (tests, dry runs)
	Screen  Screen // required: what judges each sentence and the intention
	// Fallback takes over when Guide fails for good; nil means the
	// session becomes interrupted instead.
	Fallback Guide
	// Filler says what a remote Guide could not, within a phase: the share
	// of a reply that came back empty, refused or all removed, and a line
	// while the model is slow to start, so the listener is never left in
	// a long silence. It also outlines the journey (Outliner) for the
	// remote guide. nil: no filling.
	Filler Guide
	Now    func() time.Time
	Logger *slog.Logger
	// Breath is the breathing phase's rhythm; zero means DefaultBreath.
	Breath BreathPattern
	// NoCues keeps a breathing practice wordless: the listener chose no
	// voice, so the tone alone leads.
	NoCues bool
	// Plain says what went wrong with a guide in the listener's words, for
	// the history and the screen; the error itself goes to the log. nil:
	// the error's own words.
	Plain func(error) string
	// Welcome is the line that welcomes the listener back into phase p of
	// a resumed session (see returning.go); runs is how many runs the
	// session has had, to vary it. nil: a resume goes straight on.
	Welcome func(p Phase, sleep bool, runs int) string
	// Forgetter deletes the responses a provider stored for the session
	// when it ends, each at its own server; nil: none is deleted.
	Forgetter Forgetter
	// Unheard says the speaker writes a file as fast as it can (lull
	// render) and nobody hears it play: its time counts in Rendered.
	Unheard bool
}

// Engine runs one session. Its methods are safe to call from any goroutine.
type Engine struct {
	speaker Speaker
	store   Store
	screen  Screen
	now     func() time.Time
	log     *slog.Logger
	feed    feed
	gate    gate

	// asked is the next phase's source, its first call asked ahead while
	// this phase ends (ahead.go); the engine's goroutine alone uses it.
	asked *source

	saveMu        sync.Mutex // one checkpoint at a time, in order; guards untranscribed
	untranscribed []Entry    // spoken, not yet in the transcript: retried in order at the next checkpoint

	mu        sync.Mutex // guards everything below
	st        State
	guide     Guide
	fallback  Guide
	filler    Guide // speaks where a remote guide could not (filler.go)
	forgetter Forgetter
	plain     func(error) string
	welcome   func(Phase, bool, int) string
	plan      planner
	running   bool
	cancel    context.CancelFunc
	accounted time.Duration // speaker position up to which Elapsed is counted
	saveErr   error         // why the last checkpoint did not reach the store; nil when it did
	voiceLost bool          // the voice failed once; lines go on as text
	breath    BreathPattern
	pacing    bool               // the breathing pacer runs, from output position anchor
	anchor    time.Duration      //
	worded    wordedBreaths      // breathing's lines and the breaths they were said on, once the rhythm is taught
	drifting  *drifting          // a completed sleep session's tail is playing
	waiting   bool               // the line is overdue from a remote guide (stall.go)
	noCues    bool               // a breathing practice says no cues (practice.go)
	unheard   bool               // the speaker writes a file: see Config.Unheard
	endSit    context.CancelFunc // ends a sit's wait for its next bell (sit.go)
	sitEnded  bool               // the listener ended the sit
	rung      bool               // the next phase's chime was struck in this one's last silence (bell.go)
}

// New prepares an engine for a session: a fresh one from NewState or one
// loaded from disk.
func New(st State, cfg Config) (*Engine, error) {
	if cfg.Guide == nil || cfg.Speaker == nil || cfg.Screen == nil {
		return nil, errors.New("engine: a guide, a speaker and a screen are required")
	}
	if cfg.Breath == (BreathPattern{}) {
		cfg.Breath = DefaultBreath
	}
	if st.Practice == PracticeBreathe {
		// A breathing practice keeps the rhythm it was begun with.
		b, _, err := ParseBreath(st.Pattern)
		if err != nil {
			return nil, fmt.Errorf("session %s: %w", st.ID, err)
		}
		cfg.Breath = b
	}
	if err := cfg.Breath.Check(); err != nil {
		return nil, fmt.Errorf("breathing pattern: %w", err)
	}
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("session %s: %w", st.ID, err)
	}
	e := &Engine{
		speaker:  cfg.Speaker,
		store:    cfg.Store,
		screen:   cfg.Screen,
		now:      cfg.Now,
		log:      cfg.Logger,
		st:       st.Clone(),
		guide:    cfg.Guide,
		fallback: cfg.Fallback,
		filler:   cfg.Filler,
		plan:     planner{length: st.Length, breath: cfg.Breath, sleep: st.Sleep, perBreath: linesPerBreath(cfg.Guide)},
		breath:   cfg.Breath,
		noCues:   cfg.NoCues || st.Practice == PracticeSit, // a sit says nothing
		unheard:  cfg.Unheard,
	}
	speech.Prepare() // the speech cleaner's lists compile now, not on the session's clock
	e.forgetter, e.plain, e.welcome = cfg.Forgetter, cfg.Plain, cfg.Welcome
	if e.now == nil {
		e.now = time.Now
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	if err := e.screen.Intention(st.Intention); err != nil && st.Status == Created {
		return nil, err
	}
	return e, nil
}

// Subscribe follows the session's events from the first one.
func (e *Engine) Subscribe() *Subscription { return e.feed.subscribe() }

// Snapshot is a copy of the session as it stands.
func (e *Engine) Snapshot() State {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.st.Clone()
}

// Progress is what a view shows each second.
type Progress struct {
	Status   Status
	Phase    Phase
	Sentence int
	Elapsed  time.Duration // live: grows while a sentence plays, not while paused
	Length   time.Duration
	// The current phase's own clock and share, for a phase bar.
	PhaseElapsed time.Duration
	PhaseTarget  time.Duration
	// Breath is the breathing pacer, read off the output's clock like the
	// pacer tone; nil outside the breathing phase.
	Breath *Breath
	// Drift is what is left of a completed sleep session's soundscape
	// playing on after the words; 0 otherwise.
	Drift time.Duration
	// Waiting says a remote guide is slow to give the next line: the
	// silence is longer than planned, or the built-in guide speaks in its
	// place until its words come.
	Waiting bool
}

// Progress reads the session's clock.
func (e *Engine) Progress() Progress {
	e.mu.Lock()
	defer e.mu.Unlock()
	live := e.liveLocked()
	rec := e.st.Phases[e.st.Phase]
	var breath *Breath
	if e.pacing {
		b := e.breath.At(e.speaker.Position() - e.anchor)
		breath = &b
	}
	return Progress{
		Breath:       breath,
		Status:       e.st.Status,
		Phase:        e.st.Phase,
		Sentence:     e.st.Position.Sentence,
		Elapsed:      e.st.Elapsed + live,
		Length:       e.st.Length,
		PhaseElapsed: rec.Elapsed + live,
		PhaseTarget:  rec.Budget.Target,
		Drift:        e.driftLeftLocked(),
		Waiting:      e.waiting && e.st.Status == Running,
	}
}

// Pause freezes the session: sound within the speaker's latency, and the
// engine's own work at its next step. The pause is saved. During a sleep
// session's tail it pauses the sound alone: the session stays complete.
func (e *Engine) Pause() error {
	e.mu.Lock()
	if e.drifting != nil {
		e.setDriftPaused(true)
		return nil
	}
	if e.st.Status == Running {
		e.accountLocked(e.st.Phase) // the line under way, up to now
	}
	return e.setPaused(true)
}

// Resume continues a paused session at the same phase and sentence.
func (e *Engine) Resume() error {
	e.mu.Lock()
	if !e.running {
		e.mu.Unlock()
		return errors.New("the session is not running here: start it with Run")
	}
	if e.drifting != nil {
		e.setDriftPaused(false)
		return nil
	}
	return e.setPaused(false)
}

// setPaused ends Pause and Resume, as setDriftPaused does for a sleep
// session's tail. With e.mu held it sets the status and, when that is
// allowed, closes or opens the gate; then, the lock let go, it pauses or
// resumes the speaker and saves.
func (e *Engine) setPaused(paused bool) error {
	status := Running
	if paused {
		status = Paused
	}
	err := e.setStatus(status)
	if err == nil {
		if paused {
			e.gate.close()
		} else {
			e.gate.open()
		}
	}
	e.mu.Unlock()
	if err != nil {
		return err
	}
	if paused {
		e.speaker.Pause()
	} else {
		e.speaker.Resume()
	}
	e.checkpoint()
	return nil
}

// Abandon cancels the session for good. During a sleep session's tail it
// stops the sound instead: the session is complete already.
func (e *Engine) Abandon() error {
	e.mu.Lock()
	if e.drifting != nil {
		cancel := e.cancel
		e.mu.Unlock()
		cancel()
		return nil
	}
	if e.st.Status == Running {
		e.accountLocked(e.st.Phase)
	}
	err := e.setStatus(Abandoned)
	if err == nil {
		e.st.summarizeEnded(e.now())
	}
	cancel := e.cancel
	e.mu.Unlock()
	if err != nil {
		return err
	}
	if cancel != nil {
		cancel()
	}
	e.gate.open()
	e.checkpoint()
	if cancel == nil {
		e.forget() // a running session forgets as its run ends
	}
	return nil
}

// SwitchGuide puts another guide in charge for the next run: the listener
// chose to carry on with the built-in guide, or another provider.
func (e *Engine) SwitchGuide(g Guide) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.running {
		return errors.New("the guide can change only between runs")
	}
	e.guide = g
	return nil
}

// SetSoundscape records the soundscape the listener switched to, so the
// session resumes with it.
func (e *Engine) SetSoundscape(name string) {
	e.keepSound(func(st *State) { st.Soundscape = name })
}

// setStatus is the only way the status changes. Callers hold e.mu.
func (e *Engine) setStatus(to Status) error {
	from := e.st.Status
	if err := e.st.changeStatus(to, e.now()); err != nil {
		return err
	}
	e.publish(Event{Kind: EventStatus, Phase: e.st.Phase, Status: to, Prev: from})
	return nil
}

func (e *Engine) publish(ev Event) Event {
	if ev.At.IsZero() {
		ev.At = e.now()
	}
	return e.feed.publish(ev)
}

// plainly is err as the listener is told it (Config.Plain); the error
// itself is logged.
func (e *Engine) plainly(err error) string {
	if e.plain == nil {
		return err.Error()
	}
	e.log.Warn("the guide failed", slog.Any("err", err))
	s := strings.TrimSuffix(e.plain(err), ".")
	if len(s) > 1 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z' {
		s = strings.ToLower(s[:1]) + s[1:] // it follows a colon
	}
	return s
}

// note records a system entry in the history and tells the views. Callers
// hold e.mu. The text often quotes a provider's error, which may echo a
// key: it is redacted before it is stored or shown.
func (e *Engine) note(kind EventKind, text string) {
	e.noteEvent(Event{Kind: kind, Text: text})
}

// noteEvent is note for an event with more to say than its kind.
func (e *Engine) noteEvent(ev Event) {
	ev.Text = redact.Text(ev.Text)
	ev.Phase = e.st.Phase
	e.st.History = append(e.st.History, Entry{At: e.now(), Phase: e.st.Phase, Role: RoleSystem, Text: ev.Text})
	e.publish(ev)
}

// checkpoint saves the session, after adding any newly spoken entries to
// the transcript. A failed save never stops the session: it goes on in
// memory, says it is not saved, and every later checkpoint tries again —
// the transcript's entries too, in order, so that it never has a gap.
//
// The saved state is a shallow copy: the engine only ever appends to the
// state's slices or replaces them whole, never changes them in place, so
// the store may encode the copy while the engine goes on.
func (e *Engine) checkpoint(spoken ...Entry) {
	if e.store == nil {
		return
	}
	e.saveMu.Lock()
	defer e.saveMu.Unlock()
	var errs []error
	e.untranscribed = append(e.untranscribed, spoken...)
	for len(e.untranscribed) > 0 {
		if err := e.store.Transcribe(e.untranscribed[0]); err != nil {
			errs = append(errs, err)
			break
		}
		e.untranscribed = e.untranscribed[1:]
	}
	e.mu.Lock()
	e.st.UpdatedAt = e.now()
	snap := e.st
	e.mu.Unlock()
	errs = append(errs, e.store.Save(snap))
	e.saved(errors.Join(errs...))
}

// saved records how a checkpoint went, and tells the views when that
// changes: once when saves begin to fail, once when one works again.
func (e *Engine) saved(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	prev := e.saveErr
	e.saveErr = err
	switch {
	case err != nil && prev == nil:
		e.log.Error("checkpoint failed", slog.Any("err", err))
		e.publish(Event{Kind: EventError, Phase: e.st.Phase, Text: "not saved: " + err.Error()})
	case err != nil && err.Error() != prev.Error():
		e.log.Error("checkpoint failed again", slog.Any("err", err))
	case err == nil && prev != nil:
		e.log.Info("checkpoint saved again")
		e.publish(Event{Kind: EventNotice, Phase: e.st.Phase, Text: "saved again"})
	}
}

// LastSave is why the session's last checkpoint did not reach the store,
// or nil when it did (or when there is no store). Whoever says a session
// was saved asks it first.
func (e *Engine) LastSave() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.saveErr
}

func (e *Engine) budget(p Phase) Budget {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.st.Phases[p].Budget
}

// current is the guide in charge.
func (e *Engine) current() Guide {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.guide
}

func (e *Engine) guideName() string { return e.current().Name() }

func (e *Engine) request(p Phase, b Budget, spoken int, windDown bool, pending func(spoken int) []string) Request {
	e.mu.Lock()
	defer e.mu.Unlock()
	var chain string
	var unchained []string
	if c := e.st.Chain; c.ResponseID != "" && c.Provider != "" && c.Provider == providerOf(e.guide) {
		chain, unchained = c.ResponseID, c.Unchained[:len(c.Unchained):len(c.Unchained)]
	}
	req := Request{
		Chain:     chain,
		Unchained: unchained,
		Pending:   pending(e.st.Phases[p].Spoken),
		Phase:     p,
		WindDown:  windDown,
		Budget:    b,
		Spoken:    spoken,
		Intention: e.st.Intention,
		Seed:      e.st.Seed,
		Length:    e.st.Length,
		Breath:    e.breath,
		Sleep:     e.st.Sleep,
		History:   e.st.History[:len(e.st.History):len(e.st.History)],
	}
	if o, ok := e.filler.(Outliner); ok && e.filler != e.guide {
		// The journey the built-in guide would take: a model keeps to it.
		req.Outline = o.Outline(req)
	}
	return req
}

func (e *Engine) capacity(p Phase) int {
	if c, ok := e.guide.(Capacity); ok {
		return c.Capacity(Request{Phase: p, Intention: e.st.Intention, Seed: e.st.Seed, Length: e.st.Length,
			Breath: e.breath, Sleep: e.st.Sleep})
	}
	return 0
}

// dropped counts a sentence the safety check withheld.
func (e *Engine) dropped(p Phase, v Verdict) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.st.Phases[p].Dropped++
	e.log.Warn("sentence withheld by the safety check", slog.String("phase", p.String()),
		slog.String("category", v.Category), slog.String("rule", v.Rule))
}

// repeated books a sentence not said because it was said before.
func (e *Engine) repeated(p Phase, text string) {
	e.removed(p, []speech.Removal{{Reason: speech.RemovedRepeat, Text: text}})
}

// removed books what the speech cleaner took out of a phase's words.
func (e *Engine) removed(p Phase, rs []speech.Removal) {
	if len(rs) == 0 {
		return
	}
	e.mu.Lock()
	e.st.Phases[p].Removed += len(rs)
	e.mu.Unlock()
	speech.LogRemovals(e.log, p.String(), rs)
}
