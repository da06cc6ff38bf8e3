package engine

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// slowVoice is a speaker whose voice takes synth of (synctest) wall time
// to synthesize each line, as flite, piper or a voice server does, and
// whose output clock is the wall clock less the time it was paused: a
// rest or a line takes its length in output time, frozen while paused.
// Run it inside a synctest bubble.
type slowVoice struct {
	synth time.Duration // each Prepare takes this long
	fail  bool          // Prepare fails after synth

	mu        sync.Mutex
	start     time.Time
	paused    bool
	pausedAt  time.Time
	pausedFor time.Duration
	changed   chan struct{} // closed at each pause and resume
	lines     []Line
	starts    []time.Duration // output time each line began
	wall      []time.Duration // wall time since start each line began
	rests     []restSpan
	prepares  int // Prepares begun
	busy      int // Prepares not yet returned
	cut       int // Prepares that returned because their context ended
}

func newSlowVoice(synth time.Duration) *slowVoice {
	return &slowVoice{synth: synth, start: time.Now(), changed: make(chan struct{})}
}

func (s *slowVoice) Prepare(ctx context.Context, l Line) (Utterance, error) {
	s.mu.Lock()
	s.prepares++
	s.busy++
	s.mu.Unlock()
	err := sleepCtx(ctx, s.synth)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.busy--
	if err != nil {
		s.cut++
		return nil, err
	}
	if s.fail {
		return nil, errors.New("the voice server answered 500")
	}
	return fakeUtterance{line: l, d: EstimateLine(l)}, nil
}

// positionLocked is the output time played. Callers hold s.mu.
func (s *slowVoice) positionLocked() time.Duration {
	pos := time.Since(s.start) - s.pausedFor
	if s.paused {
		pos -= time.Since(s.pausedAt)
	}
	return pos
}

func (s *slowVoice) Position() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.positionLocked()
}

// until waits for the output clock to reach at.
func (s *slowVoice) until(ctx context.Context, at time.Duration) error {
	for {
		s.mu.Lock()
		pos, paused, changed := s.positionLocked(), s.paused, s.changed
		s.mu.Unlock()
		if !paused && pos >= at {
			return nil
		}
		var tick <-chan time.Time
		t := time.NewTimer(at - pos)
		if !paused {
			tick = t.C
		}
		select {
		case <-tick:
		case <-changed:
		case <-ctx.Done():
		}
		t.Stop()
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

func (s *slowVoice) Play(ctx context.Context, u Utterance) error {
	fu := u.(fakeUtterance)
	s.mu.Lock()
	at := s.positionLocked()
	s.lines = append(s.lines, fu.line)
	s.starts = append(s.starts, at)
	s.wall = append(s.wall, time.Since(s.start))
	s.mu.Unlock()
	return s.until(ctx, at+fu.d)
}

func (s *slowVoice) Rest(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	at := s.positionLocked()
	s.rests = append(s.rests, restSpan{at, d})
	s.mu.Unlock()
	return s.until(ctx, at+d)
}

func (s *slowVoice) Chime() {}

func (s *slowVoice) Pause() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.paused {
		s.paused, s.pausedAt = true, time.Now()
		close(s.changed)
		s.changed = make(chan struct{})
	}
}

func (s *slowVoice) Resume() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.paused {
		s.paused = false
		s.pausedFor += time.Since(s.pausedAt)
		close(s.changed)
		s.changed = make(chan struct{})
	}
}

// firstLine is where the first line began, on the output's clock and the
// wall clock.
func (s *slowVoice) firstLine(t *testing.T) (out, wall time.Duration) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.starts) == 0 {
		t.Fatal("no line was played")
	}
	return s.starts[0], s.wall[0]
}

// runSlow plays a 5-minute session on a voice that takes synth per line,
// with during running alongside the session (nil: nothing), and returns
// what Run returned.
func runSlow(t *testing.T, spk *slowVoice, during func(e *Engine)) (State, error) {
	t.Helper()
	e, err := New(newSession(t, 5, ""), Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	if during != nil {
		go func() {
			defer close(done)
			during(e)
		}()
	} else {
		close(done)
	}
	err = e.Run(context.Background())
	<-done
	return e.Snapshot(), err
}

// The first line is synthesized during the opening hold: however slow
// the voice, it begins at the planned moment, the hold's end, when its
// synthesis fits in the hold; when it does not, as soon as it is ready.
// The session still ends on time.
func TestFirstLineStartsWhenTheOpeningHoldEnds(t *testing.T) {
	for _, tc := range []struct {
		synth, want time.Duration
	}{
		{0, opening},
		{opening / 2, opening},
		{opening, opening},
		{opening + 2*time.Second, opening + 2*time.Second}, // does not fit: late by what did not
	} {
		t.Run(tc.synth.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				spk := newSlowVoice(tc.synth)
				st, err := runSlow(t, spk, nil)
				if err != nil {
					t.Fatal(err)
				}
				at, _ := spk.firstLine(t)
				if at != tc.want {
					t.Errorf("voice taking %v a line: the first line began at %v, want %v (the opening hold is %v)", tc.synth, at, tc.want, opening)
				}
				if st.Status != Completed {
					t.Errorf("voice taking %v a line: the session ended %s", tc.synth, st.Status)
				}
				if off := st.Elapsed - st.Length; off < -st.Length/100 || off > st.Length/100 {
					t.Errorf("voice taking %v a line: the session took %v for %v", tc.synth, st.Elapsed, st.Length)
				}
				if got := spk.rests[0]; got != (restSpan{0, opening}) {
					t.Errorf("voice taking %v a line: the session opened on %+v, want the %v hold from 0", tc.synth, got, opening)
				}
			})
		})
	}
}

// Pausing during the opening hold freezes it, and the first line with
// it: the line begins at the hold's end on the output's clock, once the
// listener has resumed and the rest of the hold has played.
func TestPauseDuringOpeningHoldDelaysTheFirstLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spk := newSlowVoice(opening)
		const pausedFor = 10 * time.Second
		_, err := runSlow(t, spk, func(e *Engine) {
			time.Sleep(time.Second)
			if err := e.Pause(); err != nil {
				t.Error(err)
			}
			time.Sleep(pausedFor)
			if err := e.Resume(); err != nil {
				t.Error(err)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		at, wall := spk.firstLine(t)
		if at != opening {
			t.Errorf("the first line began at %v of output, want the hold's end, %v", at, opening)
		}
		if wall != opening+pausedFor {
			t.Errorf("the first line began %v after the start, want %v: the hold and the pause", wall, opening+pausedFor)
		}
	})
}

// Quitting or cancelling during the opening hold stops the first line's
// synthesis with it: nothing is left synthesizing once Run has returned.
func TestStopDuringOpeningHoldEndsTheSynthesis(t *testing.T) {
	for _, stop := range []string{"quit", "abandon"} {
		t.Run(stop, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				spk := newSlowVoice(opening)
				e, err := New(newSession(t, 5, ""), Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go func() {
					time.Sleep(time.Second)
					if stop == "quit" {
						if err := e.Pause(); err != nil {
							t.Error(err)
						}
						cancel()
					} else if err := e.Abandon(); err != nil {
						t.Error(err)
					}
				}()
				err = e.Run(ctx)
				ended := time.Since(spk.start)
				want := context.Canceled
				if stop == "abandon" {
					want = ErrAbandoned
				}
				if !errors.Is(err, want) {
					t.Fatalf("%s: Run returned %v, want %v", stop, err, want)
				}
				spk.mu.Lock()
				defer spk.mu.Unlock()
				if spk.prepares != 1 || spk.cut != 1 || spk.busy != 0 {
					t.Errorf("%s: %d syntheses begun, %d cut short, %d still running; want the first line's, begun in the hold and cut short", stop, spk.prepares, spk.cut, spk.busy)
				}
				if ended != time.Second {
					t.Errorf("%s at 1s: Run returned at %v", stop, ended)
				}
				if len(spk.starts) != 0 {
					t.Errorf("%s: %d lines played", stop, len(spk.starts))
				}
			})
		})
	}
}

// A voice that fails on the first line fails as it always did: the
// listener is told once and the session goes on as text, the first line
// at the hold's end as its reading's time in silence.
func TestVoiceFailingOnFirstLineGoesOnAsText(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spk := newSlowVoice(opening)
		spk.fail = true
		e, err := New(newSession(t, 5, ""), Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		events := collect(ctx, e.Subscribe())
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		cancel()
		var notices []string
		var first *Event
		for _, ev := range <-events {
			if ev.Kind == EventNotice && strings.Contains(ev.Text, "voice failed") {
				notices = append(notices, ev.Text)
			}
			if ev.Kind == EventSentence && first == nil {
				first = &ev
			}
		}
		if len(notices) != 1 {
			t.Errorf("told of the failed voice %d times (%q), want once", len(notices), notices)
		}
		st := e.Snapshot()
		if st.Status != Completed || st.Spoken() == 0 {
			t.Fatalf("the session ended %s with %d lines", st.Status, st.Spoken())
		}
		if first == nil {
			t.Fatal("no line was shown")
		}
		spk.mu.Lock()
		defer spk.mu.Unlock()
		if len(spk.rests) < 2 || spk.rests[1] != (restSpan{opening, first.Duration}) {
			t.Errorf("the session opened on %+v; want the %v hold, then the first line's %v of reading at its end", spk.rests[:min(2, len(spk.rests))], opening, first.Duration)
		}
	})
}

// A breathing practice's first cue is synthesized during the opening hold
// and each later one while those before it are said: with a voice that
// takes the whole hold for each cue, every cue still begins as its part of
// the breath begins, the first at the hold's end.
func TestPracticeCuesStartWhenTheOpeningHoldEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spk := newSlowVoice(opening)
		e, err := New(newPractice(t, 2, "4-7-8"), Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		b := e.breath
		if st := e.Snapshot(); st.Status != Completed || st.Elapsed-2*time.Minute > b.Period()/2 || 2*time.Minute-st.Elapsed > b.Period()/2 {
			t.Errorf("the practice ended %s after %v, want completed at 2:00 within half a breath", st.Status, st.Elapsed)
		}
		spk.mu.Lock()
		defer spk.mu.Unlock()
		if len(spk.lines) != 2*len(b.stages()) {
			t.Fatalf("%d cues said, want two breaths' worth", len(spk.lines))
		}
		for k, l := range spk.lines {
			s := b.stages()[k%len(b.stages())]
			want := opening + time.Duration(k/len(b.stages()))*b.Period() + b.Offset(s)
			if CueStage(l.Text) != s || spk.starts[k] != want {
				t.Errorf("cue %d %q began at %v, want %s's start at %v", k, l.Text, spk.starts[k], s, want)
			}
		}
	})
}

// Quitting a practice during its opening hold stops the cues' synthesis:
// nothing is left synthesizing once Run has returned.
func TestPracticeQuitDuringOpeningHold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spk := newSlowVoice(2 * opening)
		e, err := New(newPractice(t, 2, "box"), Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			time.Sleep(time.Second)
			if err := e.Pause(); err != nil {
				t.Error(err)
			}
			cancel()
		}()
		if err := e.Run(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("Run returned %v, want it cancelled", err)
		}
		spk.mu.Lock()
		defer spk.mu.Unlock()
		if spk.prepares != 1 || spk.cut != 1 || spk.busy != 0 || len(spk.lines) != 0 {
			t.Errorf("%d syntheses begun, %d cut short, %d still running, %d cues said; want the first cue's, cut short, none said",
				spk.prepares, spk.cut, spk.busy, len(spk.lines))
		}
	})
}

// A remote guide's first text is asked for during the opening hold too: a
// model that thinks two seconds before it writes, and a voice that takes
// half a second, still have the first words begin at the hold's end.
func TestRemoteGuidesFirstTextComesDuringTheOpeningHold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spk := newSlowVoice(opening / 6)
		g := &modelGuide{stalls: map[Phase]map[int]time.Duration{Atmosphere: {1: 2 * time.Second}}}
		e, err := New(newSession(t, 5, ""), Config{Screen: fakeScreen{}, Guide: g, Filler: &scriptGuide{name: "builtin"}, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		at, _ := spk.firstLine(t)
		if at != opening {
			t.Errorf("the first line began at %v, want the hold's end, %v", at, opening)
		}
		spk.mu.Lock()
		defer spk.mu.Unlock()
		if l := spk.lines[0]; l.call == nil || l.call.guide != "model" {
			t.Errorf("the first line %q is not the model's", l.Text)
		}
	})
}

// With a voice slower than a part of the breath, a cue that comes too late
// for its part waits for the next breath: every cue said begins within the
// part it speaks to, and the practice still teaches its cues.
func TestPracticeCueTooLateForItsPartWaitsForTheNextBreath(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		spk := newSlowVoice(6 * time.Second)
		e, err := New(newPractice(t, 2, "box"), Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		b := e.breath
		spk.mu.Lock()
		defer spk.mu.Unlock()
		if len(spk.lines) == 0 {
			t.Fatal("no cue was said")
		}
		anchor := spk.starts[0] // the first cue begins the first breath
		for k, l := range spk.lines {
			br := b.At(spk.starts[k] - anchor)
			if br.Stage != CueStage(l.Text) && (br.Stage != StageHoldOut || l.Text != cueWords[StageHoldOut]) {
				t.Errorf("cue %d %q began at %v, in %s", k, l.Text, spk.starts[k], br.Stage)
			}
		}
		if got, want := e.Snapshot().Phases[Breathing].Spoken, e.taughtCues(); got != want {
			t.Errorf("%d cues said, want %d", got, want)
		}
	})
}
