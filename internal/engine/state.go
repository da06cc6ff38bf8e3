package engine

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lull-dev/lull/internal/human"
)

// Role says who a history entry is from.
type Role string

const (
	RoleGuide  Role = "guide"  // a sentence that was spoken
	RoleSystem Role = "system" // errors and notes: errors are data
	RoleUser   Role = "user"   // what the listener wrote (the intention)
)

// Entry is one line of a session's history.
type Entry struct {
	At    time.Time
	Phase Phase
	Role  Role
	Text  string
}

// PhaseStatus is how far a phase has come.
type PhaseStatus string

const (
	PhasePending   PhaseStatus = "pending"
	PhaseActive    PhaseStatus = "active"
	PhaseCompleted PhaseStatus = "completed"
)

// Budget is what a phase is given: sentences, the point where it starts to
// lead toward the next phase, its share of the clock and its silences.
type Budget struct {
	Sentences  int           // sentences the phase speaks
	WindDownAt int           // from this sentence index on, lines lead to the next phase
	Target     time.Duration // the phase's share of the session's time
	Rest       time.Duration // silence after each sentence
}

// PhaseRecord is one phase's progress.
type PhaseRecord struct {
	Phase       Phase
	Status      PhaseStatus
	Budget      Budget
	Spoken      int           // sentences spoken
	Dropped     int           // sentences the safety check withheld
	Removed     int           // sentences the speech cleaner removed: chatter, refusals, thinking, other languages
	Filled      int           // sentences the built-in guide said in a remote guide's place (an empty reply, a stall)
	Tokens      Tokens        // what a remote guide's calls in the phase cost
	Cost        float64       // those calls' estimated cost, US dollars
	Elapsed     time.Duration // session time spent in the phase
	StartedAt   time.Time
	CompletedAt time.Time
}

// Position is where a session resumes: the phase and the index of the next
// sentence to speak in it.
type Position struct {
	Phase    Phase
	Sentence int
}

// Summary is kept when a session ends: the continuity artifact.
type Summary struct {
	Duration    time.Duration
	Sentences   int
	Dropped     int
	Partial     bool // ended before its natural close (crash, summarized)
	Tokens      Tokens
	Cost        float64 // estimated US dollars; 0 when no paid model was used
	CompletedAt time.Time
}

// State is everything a session is. The engine changes it; a Store saves it.
type State struct {
	ID         string
	Status     Status
	CreatedAt  time.Time
	UpdatedAt  time.Time
	Length     time.Duration
	Intention  string    // sealed when the session first runs
	SealedAt   time.Time // when the intention was sealed; zero while created
	Seed       int64
	Guide      string   // the guide of the latest run
	Model      string   // its model, for a remote guide
	Server     string   // its server, for a remote guide: the base URL, nothing secret
	Runs       []Run    // every run, oldest first: guide and model are chosen per run
	Chain      Chain    // where a remote guide's stored memory of the session stands
	Stored     []Stored // responses kept at a provider, to forget at the end
	Cost       float64  // estimated US dollars spent on the guide so far
	Voice      string
	Soundscape string
	// Sleep sessions end in a drift toward sleep and never wake the
	// listener; the soundscape plays on for SleepTail after the last word.
	Sleep     bool
	SleepTail time.Duration
	// What the listener said of it, all optional: how they felt before
	// and after, 1–5 (0 when not given), and a short note.
	MoodBefore int
	MoodAfter  int
	Note       string
	// MoodAsked says the listener was asked, after a sleep session, how
	// they slept: a skip is not asked again.
	MoodAsked bool
	// The sound as the listener left it, so a resumed session plays as it
	// was: Volume in steps from lull's own level (see VolumeLevel), and
	// whether they turned the voice off.
	Volume   int
	VoiceOff bool
	// VoiceRate is the voice's pace the listener chose, a factor of the
	// normal one (MinVoiceRate–MaxVoiceRate; 0: never set, the normal
	// pace), and SoundscapeVolume the soundscape's level in steps from
	// lull's own, under the volume.
	VoiceRate        float64
	SoundscapeVolume int
	// Practice is what kind of session it is: a guided session (""),
	// paced breathing alone (PracticeBreathe, lull breathe), or a silent
	// sit with bells (PracticeSit, lull sit; Length 0 is open-ended).
	Practice string
	// Pattern is a breathing practice's rhythm, as ParseBreath reads it
	// ("4-7-8", "box"), or a sit's interval bell, as ParseBell reads it
	// ("5m"; "" for none); empty for a guided session.
	Pattern string
	// ReplayOf is the session whose saved words this one speaks again
	// (lull replay); empty for a session written fresh.
	ReplayOf string
	Phase    Phase // the current phase
	Phases   [len(Phases)]PhaseRecord
	Position Position
	Elapsed  time.Duration // session time spoken so far
	// Rendered is the part of Elapsed written to a file (lull render)
	// rather than played to a listener: no one heard it, so it is not
	// practice. A render resumed live is heard from there on.
	Rendered time.Duration
	History  []Entry
	Summary  *Summary
}

// Run is one stretch of a session on one guide.
type Run struct {
	Guide     string
	Model     string
	Server    string
	StartedAt time.Time
}

// Chain is where a remote guide's memory of the session stands: the last
// response that ran to its end, at which provider, and what was said since
// that it does not hold. Stored lists every response kept at a provider,
// to be forgotten when the session ends.
type Chain struct {
	ResponseID string
	Provider   string
	Unchained  []string
}

// Stored is a response a provider keeps for the session until it is
// forgotten, and the server that keeps it: it is deleted there, whichever
// server the session has moved to since.
type Stored struct {
	ID     string
	Server string // "" in files written before lull kept it: the server set up now
}

// Heard is the time the session played to a listener: what was spoken,
// but for what lull render wrote to a file.
func (s *State) Heard() time.Duration { return max(s.Elapsed-s.Rendered, 0) }

// FitElapsed scales the phases' time, and the session's, so that together
// they never pass the session's length: times estimated from a transcript
// (a rebuild, a restore) add up to more than was played, and a session
// never shows "6:14 of 5:00".
func (s *State) FitElapsed() {
	if s.Length <= 0 || s.Elapsed <= s.Length {
		return
	}
	scale := float64(s.Length) / float64(s.Elapsed)
	var sum time.Duration
	for i := range s.Phases {
		s.Phases[i].Elapsed = time.Duration(float64(s.Phases[i].Elapsed) * scale).Round(time.Millisecond)
		sum += s.Phases[i].Elapsed
	}
	s.Elapsed = min(sum, s.Length)
	s.Rendered = min(time.Duration(float64(s.Rendered)*scale).Round(time.Millisecond), s.Elapsed)
}

// Options are what a listener chooses for a new session.
type Options struct {
	Length     time.Duration // whole minutes, 5–60
	Intention  string
	Seed       int64
	Voice      string
	Soundscape string
	Guide      string        // who writes the first run; "" is the app's default
	Sleep      bool          // a sleep session: see State.Sleep
	SleepTail  time.Duration // the soundscape after the last word of a sleep session
	MoodBefore int           // 1–5, 0 when not given
	// Model is the LLM's model for the first run when the guide is an
	// LLM; "" is the configured one.
	Model string
	// Practice and Pattern make a breathing practice (PracticeBreathe):
	// see State's fields of those names.
	Practice string
	Pattern  string
}

// Length limits, in whole minutes.
const (
	MinLength = 5 * time.Minute
	MaxLength = 60 * time.Minute
)

// CheckLength refuses session lengths lull does not offer.
func CheckLength(d time.Duration) error {
	if d%time.Minute != 0 || d < MinLength || d > MaxLength {
		return fmt.Errorf("a session lasts a whole number of minutes from 5 to 60, not %s", human.Duration(d))
	}
	return nil
}

// NewState is a fresh session, created but not started.
func NewState(id string, opts Options, now time.Time) (State, error) {
	if err := CheckLengthFor(opts.Practice, opts.Length); err != nil {
		return State{}, err
	}
	if err := checkPractice(opts.Practice, opts.Pattern, opts.Length); err != nil {
		return State{}, err
	}
	intention, err := CleanIntention(opts.Intention)
	if err != nil {
		return State{}, err
	}
	opts.Intention = intention
	if err := CheckSleepTail(opts.SleepTail); err != nil {
		return State{}, err
	}
	if err := CheckMood(opts.MoodBefore); err != nil {
		return State{}, err
	}
	if !opts.Sleep {
		opts.SleepTail = 0 // the tail is a sleep session's alone
	}
	st := State{
		ID:         id,
		Status:     Created,
		CreatedAt:  now,
		UpdatedAt:  now,
		Length:     opts.Length,
		Intention:  opts.Intention,
		Seed:       opts.Seed,
		Voice:      opts.Voice,
		Soundscape: opts.Soundscape,
		Sleep:      opts.Sleep,
		SleepTail:  opts.SleepTail,
		MoodBefore: opts.MoodBefore,
		Practice:   opts.Practice,
		Pattern:    opts.Pattern,
	}
	for i, p := range Phases {
		st.Phases[i] = PhaseRecord{Phase: p, Status: PhasePending}
	}
	return st, nil
}

// WithTail is d of a session's sound and, for a sleep session, the
// soundscape after its last word: how long a file of it lasts.
func (s State) WithTail(d time.Duration) time.Duration {
	if s.Sleep {
		return d + s.SleepTail
	}
	return d
}

// Clone is a copy that shares nothing mutable with s.
func (s State) Clone() State {
	s.History = slices.Clone(s.History)
	s.Runs = slices.Clone(s.Runs)
	s.Stored = slices.Clone(s.Stored)
	s.Chain.Unchained = slices.Clone(s.Chain.Unchained)
	if s.Summary != nil {
		sum := *s.Summary
		s.Summary = &sum
	}
	return s
}

// Spoken is the number of sentences spoken in the whole session.
func (s *State) Spoken() int {
	n := 0
	for _, r := range s.Phases {
		n += r.Spoken
	}
	return n
}

// Dropped is the number of sentences the safety check withheld.
func (s *State) Dropped() int {
	n := 0
	for _, r := range s.Phases {
		n += r.Dropped
	}
	return n
}

// Tokens is what a remote guide's calls cost in the whole session.
func (s *State) Tokens() Tokens {
	var t Tokens
	for _, r := range s.Phases {
		t = t.Add(r.Tokens)
	}
	return t
}

// Progress is the fraction of the session's length already spoken, 0–1:
// 1 once it completed, unless it was summarized partway.
func (s *State) Progress() float64 {
	if s.Status == Completed && (s.Summary == nil || !s.Summary.Partial) {
		return 1
	}
	if s.Length <= 0 {
		return 0
	}
	return min(1, float64(s.Elapsed)/float64(s.Length))
}

// Said lists the guide's sentences spoken so far, oldest first.
func (s *State) Said() []string {
	var out []string
	for _, e := range s.History {
		if e.Role == RoleGuide {
			out = append(out, e.Text)
		}
	}
	return out
}

// Validate checks the invariants a loaded session must hold.
func (s *State) Validate() error {
	if !s.Status.Known() {
		return fmt.Errorf("unknown status %q", s.Status)
	}
	if err := CheckLengthFor(s.Practice, s.Length); err != nil {
		return err
	}
	if err := CheckSleepTail(s.SleepTail); err != nil {
		return err
	}
	if err := errors.Join(CheckMood(s.MoodBefore), CheckMood(s.MoodAfter), CheckNote(s.Note), CheckVolume(s.Volume),
		CheckVoiceRate(s.VoiceRate), CheckVolume(s.SoundscapeVolume)); err != nil {
		return err
	}
	if err := checkPractice(s.Practice, s.Pattern, s.Length); err != nil {
		return err
	}
	if !s.Phase.Valid() {
		return fmt.Errorf("current phase %d is out of range", int(s.Phase))
	}
	if s.Position.Phase != s.Phase {
		return fmt.Errorf("position is in %s but the current phase is %s", s.Position.Phase, s.Phase)
	}
	seenUnstarted := false
	for i, r := range s.Phases {
		if r.Phase != Phases[i] {
			return fmt.Errorf("phase %d is %s, want %s", i+1, r.Phase, Phases[i])
		}
		switch r.Status {
		case PhasePending:
			seenUnstarted = true
		case PhaseActive, PhaseCompleted:
			if seenUnstarted {
				return fmt.Errorf("%s is %s after a phase that has not started", r.Phase, r.Status)
			}
		default:
			return fmt.Errorf("%s has unknown status %q", r.Phase, r.Status)
		}
		if r.Spoken < 0 || r.Dropped < 0 || r.Removed < 0 || r.Filled < 0 || r.Tokens.In < 0 || r.Tokens.Out < 0 || r.Tokens.Cached < 0 || !(r.Cost >= 0) {
			return fmt.Errorf("%s has a negative count", r.Phase)
		}
		if r.Phase < s.Phase && r.Status != PhaseCompleted {
			return fmt.Errorf("%s is %s but the session is already in %s", r.Phase, r.Status, s.Phase)
		}
		if r.Phase > s.Phase && r.Status != PhasePending {
			return fmt.Errorf("%s is %s but the session is only in %s", r.Phase, r.Status, s.Phase)
		}
	}
	if s.Cost < 0 {
		return fmt.Errorf("cost %v is negative", s.Cost)
	}
	if s.Rendered < 0 || s.Rendered > s.Elapsed {
		return fmt.Errorf("rendered %v is not within the %v played", s.Rendered, s.Elapsed)
	}
	cur := s.Phases[s.Phase]
	if s.Position.Sentence != cur.Spoken {
		return fmt.Errorf("position says sentence %d of %s, but %d were spoken", s.Position.Sentence, s.Phase, cur.Spoken)
	}
	return s.statusFitsPhases()
}

// statusFitsPhases checks that the status and the phases tell one story,
// as the engine writes them: it begins a phase in the same step that
// makes a session running, and completes the resolution in the same step
// that completes the session, so
//
//   - created: no phase has begun and nothing was spoken or withheld;
//   - completed: the resolution is completed — unless the summary says the
//     session was summarized partway (partial), when the phases stand as
//     far as they came;
//   - running, paused, interrupted, abandoned, and completed as partial:
//     the current phase has begun, unless nothing at all has (abandoned
//     straight from created, or stopped before its first phase began); and
//     only a completed session has completed its current phase.
func (s *State) statusFitsPhases() error {
	cur := s.Phases[s.Phase]
	spoken, dropped := s.Spoken(), s.Dropped()
	partial := s.Summary != nil && s.Summary.Partial
	switch {
	case s.Status == Created:
		if first := s.Phases[Atmosphere]; first.Status != PhasePending {
			return fmt.Errorf("a created session has its first phase %s", first.Status)
		}
		if spoken > 0 || dropped > 0 {
			return fmt.Errorf("a created session has spoken %d sentences and withheld %d", spoken, dropped)
		}
	case s.Status == Completed && !partial:
		if s.Phase != Resolution || cur.Status != PhaseCompleted {
			return fmt.Errorf("a completed session must have completed its resolution (it is in %s, %s) or be marked partial", s.Phase, cur.Status)
		}
	case cur.Status == PhaseCompleted && s.Status != Completed:
		return fmt.Errorf("a %s session has already completed its current phase, %s", s.Status, s.Phase)
	case cur.Status == PhasePending && (s.Phase != Atmosphere || spoken > 0 || dropped > 0):
		return fmt.Errorf("a %s session with %d sentences spoken has not begun its current phase, %s", s.Status, spoken, s.Phase)
	}
	return nil
}
