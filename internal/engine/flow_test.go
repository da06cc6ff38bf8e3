package engine

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// liveSpeaker keeps output time as a real output does: its clock is the
// (synctest) wall clock, so a silence while the engine waits for text is
// heard and counted, as it is on a sound card. Run it inside a synctest
// bubble: a play or a rest sleeps for its length, at no real cost.
type liveSpeaker struct {
	mu     sync.Mutex
	start  time.Time
	lines  []Line
	starts []time.Duration // where each played line began
	ds     []time.Duration // how long each lasted
	chimes []time.Duration // where each chime rang
	rests  []restSpan      // every silence the engine asked for
	anchor time.Duration   // where the breathing pacer began
	onPlay func(l Line)    // called before each line plays, outside the lock
}

// restSpan is a stretch of the output's clock.
type restSpan struct{ at, d time.Duration }

func newLiveSpeaker() *liveSpeaker { return &liveSpeaker{start: time.Now()} }

func (s *liveSpeaker) Prepare(_ context.Context, l Line) (Utterance, error) {
	return fakeUtterance{line: l, d: EstimateLine(l)}, nil
}

func (s *liveSpeaker) Play(ctx context.Context, u Utterance) error {
	fu := u.(fakeUtterance)
	if s.onPlay != nil {
		s.onPlay(fu.line)
	}
	s.mu.Lock()
	s.lines = append(s.lines, fu.line)
	s.starts = append(s.starts, s.Position())
	s.ds = append(s.ds, fu.d)
	s.mu.Unlock()
	return sleepCtx(ctx, fu.d)
}

func (s *liveSpeaker) Rest(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.rests = append(s.rests, restSpan{s.Position(), d})
	s.mu.Unlock()
	return sleepCtx(ctx, d)
}

func (s *liveSpeaker) Chime() {
	s.mu.Lock()
	s.chimes = append(s.chimes, s.Position())
	s.mu.Unlock()
}

func (s *liveSpeaker) Pace(anchor time.Duration, _ BreathPattern) {
	s.mu.Lock()
	s.anchor = anchor
	s.mu.Unlock()
}

func (s *liveSpeaker) StopPacing()             {}
func (s *liveSpeaker) Pause()                  {}
func (s *liveSpeaker) Resume()                 {}
func (s *liveSpeaker) Position() time.Duration { return time.Since(s.start) }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// silence is the quiet before one line: since the line before it ended,
// or since the chime that opened its phase. Idle is the part of it the
// engine did not ask for: it was waiting for words.
type silence struct {
	phase   Phase
	index   int
	d, idle time.Duration
}

// silences lists the quiet before every line, the first one's since the
// session began.
func (s *liveSpeaker) silences() []silence {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []silence
	for i := range s.lines {
		var from time.Duration
		if i > 0 {
			from = s.starts[i-1] + s.ds[i-1]
		}
		for _, c := range s.chimes {
			if c >= from && c <= s.starts[i] {
				from = c
			}
		}
		sl := silence{phase: s.lines[i].Phase, index: s.lines[i].Index, d: s.starts[i] - from}
		sl.idle = sl.d
		for _, r := range s.rests {
			if r.at >= from && r.at < s.starts[i] {
				sl.idle -= r.d
			}
		}
		out = append(out, sl)
	}
	return out
}

// plannedPauses are, per phase, its planned pause: the rest its budget
// planned (weighted along resolution's arc; in breathing a line and a
// silent breath, see restAfter), or the longest silence the engine chose
// when no words were late, when longer: the phase's pacing stretches its
// silences when its lines run long and few.
func plannedPauses(st State, sl []silence) [len(Phases)]time.Duration {
	var out [len(Phases)]time.Duration
	for p, r := range st.Phases {
		b := r.Budget
		out[p] = b.Rest
		if Phase(p) == Breathing {
			out[p] = breathGap + DefaultBreath.Period()
		}
		for i := range b.Sentences {
			out[p] = max(out[p], time.Duration(float64(b.Rest)*restWeight(Phase(p), st.Sleep, i, b.Sentences)))
		}
	}
	for _, s := range sl {
		if s.idle < 100*time.Millisecond {
			out[s.phase] = max(out[s.phase], s.d)
		}
	}
	return out
}

// modelGuide writes the way real models do when asked for a phase: one
// sentence more than asked in every call, long wind-downs (resolution's
// runs to seven lines, the last a farewell), every third sentence of
// forty words, and now and then a reply with nothing usable in it or a
// long wait before the first text. It is a remote guide, so the engine's
// filler may speak for it.
type modelGuide struct {
	mu       sync.Mutex
	calls    int
	requests []Request
	// per phase, per call within it (counting retries), what goes wrong:
	// "empty", "unsafe" (every sentence withheld by the safety check), or
	// a stall before the first text.
	faults map[Phase]map[int]string
	stalls map[Phase]map[int]time.Duration
	perPh  map[Phase]int
}

func (g *modelGuide) Name() string     { return "model" }
func (g *modelGuide) Model() string    { return "model-x" }
func (g *modelGuide) Provider() string { return "http://fake/v1#model-x" }

// longTail pads a sentence to forty words, as a model that runs on does;
// its call and line numbers come in its middle too, so that the pieces a
// speech cleaner splits it into are each a sentence of their own.
const longTail = "and as you rest here %d %d with nothing at all to do you might notice %[1]d %[2]d how the quiet " +
	"gathers around you %[1]d %[2]d softly and slowly like a warm blanket %[1]d %[2]d settling over the whole of your body"

var modelOpeners = map[Phase]string{
	Atmosphere: "Let the room settle around you",
	Breathing:  "Breathe in gently through the nose",
	Sensory:    "Notice the air on the skin of your hands",
	Relaxation: "Let the body grow heavy and still",
	Resolution: "Slowly let a little movement return to your fingers",
}

var windDownWords = [...]string{
	Atmosphere: "from this quiet room",
	Breathing:  "as the breath settles",
	Sensory:    "as the senses soften",
	Relaxation: "as the body grows heavy",
	Resolution: "as the room returns",
}

func (g *modelGuide) Stream(ctx context.Context, req Request) (Stream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls++
	g.requests = append(g.requests, req)
	if g.perPh == nil {
		g.perPh = map[Phase]int{}
	}
	g.perPh[req.Phase]++
	k := g.perPh[req.Phase]
	n := req.Budget.WindDownAt - req.Spoken + 1
	if req.WindDown {
		n = max(1, req.Budget.Sentences-req.Spoken) + 1
		if req.Phase == Resolution {
			n = max(n, 6) + 1
		}
	}
	var b strings.Builder
	switch g.faults[req.Phase][k] {
	case "empty":
		n = 0
	case "unsafe":
		b.WriteString("Hold your breath for a full minute. Breathe as fast as you can. ")
		n = 0
	}
	for i := range n {
		words := []string{modelOpeners[req.Phase]}
		if req.WindDown {
			// Each phase's own words: a long line split in pieces keeps
			// its first piece apart from another phase's.
			words = []string{"Gently begin to turn toward what comes next", windDownWords[req.Phase]}
		}
		if req.Phase == Resolution && req.WindDown && i == n-1 {
			words = []string{"Thank you for taking this time for yourself, farewell"}
		} else if i%3 == 2 {
			words = append(words, fmt.Sprintf(longTail, g.calls, i))
		}
		fmt.Fprintf(&b, "%s, %d %d. ", strings.Join(words, " "), g.calls, i)
	}
	return &slowStream{chunkStream: chunkStream{text: b.String()}, wait: g.stalls[req.Phase][k]}, nil
}

// slowStream waits before its first text, as a slow or thinking model does.
type slowStream struct {
	chunkStream
	wait    time.Duration
	started bool
}

func (s *slowStream) Next(ctx context.Context) (string, error) {
	if !s.started {
		s.started = true
		if err := sleepCtx(ctx, s.wait); err != nil {
			return "", err
		}
	}
	return s.chunkStream.Next(ctx)
}

// flowFigures are what a listener would measure of a session.
type flowFigures struct {
	off       float64              // the session's length against its plan, in percent
	ofPlan    [len(Phases)]float64 // each phase's length against its planned target, in percent
	overPause time.Duration        // the longest silence beyond its phase's planned pause
	at        silence
	planned   time.Duration // that phase's planned pause
}

func measureFlow(spk *liveSpeaker, st State) flowFigures {
	var f flowFigures
	f.off = 100 * float64(st.Elapsed-st.Length) / float64(st.Length)
	for p, r := range st.Phases {
		f.ofPlan[p] = 100 * float64(r.Elapsed) / float64(r.Budget.Target)
	}
	f.overPause = -time.Hour
	sl := spk.silences()
	planned := plannedPauses(st, sl)
	for _, s := range sl {
		if over := s.d - planned[s.phase]; over > f.overPause {
			f.overPause, f.at, f.planned = over, s, planned[s.phase]
		}
	}
	return f
}

// runModelLike runs a whole session with a guide that misbehaves as real
// models do, the built-in guide's stand-in filling for it, on an output
// clock that counts every silence.
func runModelLike(t *testing.T, minutes int) (flowFigures, State, *modelGuide, *liveSpeaker) {
	t.Helper()
	g := &modelGuide{
		faults: map[Phase]map[int]string{
			Breathing: {1: "empty", 2: "unsafe"}, // an empty reply, then one all withheld
			Sensory:   {1: "unsafe"},
		},
		stalls: map[Phase]map[int]time.Duration{
			Atmosphere: {1: 35 * time.Second}, // a reasoning model thinks before its first text
			Relaxation: {2: 20 * time.Second},
		},
	}
	var f flowFigures
	var st State
	var spk *liveSpeaker
	synctest.Test(t, func(t *testing.T) {
		spk = newLiveSpeaker()
		e, err := New(newSession(t, minutes, ""), Config{Screen: fakeScreen{}, Guide: g, Filler: &scriptGuide{name: "builtin"}, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		st = e.Snapshot()
		f = measureFlow(spk, st)
	})
	return f, st, g, spk
}

// A model that writes one sentence too many, long wind-downs and
// sentences of forty words, that once replies with nothing usable and
// once keeps the listener waiting, still gets a session that ends on
// time, phases that keep their time, and no long silence.
func TestModelLikeGuideKeepsTime(t *testing.T) {
	for _, minutes := range []int{5, 10, 20, 30} {
		f, st, _, _ := runModelLike(t, minutes)
		t.Logf("%2d min: %+.2f%% off; phases %% of plan %.0f; longest silence %+.1fs over its pause (%s line %d)",
			minutes, f.off, f.ofPlan, f.overPause.Seconds(), f.at.phase, f.at.index)
		if f.off < -1 || f.off > 1 {
			t.Errorf("%d min: took %v (%+.2f%%)", minutes, st.Elapsed.Round(time.Second), f.off)
		}
		for p, pc := range f.ofPlan {
			if pc < 80 {
				t.Errorf("%d min: %s lasted %v, %.0f%% of its planned %v", minutes, Phase(p),
					st.Phases[p].Elapsed.Round(time.Second), pc, st.Phases[p].Budget.Target.Round(time.Second))
			}
		}
		if f.overPause > 10*time.Second {
			t.Errorf("%d min: a silence of %v before %s line %d, %v beyond the phase's planned pause of %v", minutes,
				f.at.d.Round(time.Second), f.at.phase, f.at.index, f.overPause.Round(time.Second), f.planned.Round(time.Second))
		}
	}
}
