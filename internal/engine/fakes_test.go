package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeSpeaker keeps output time by arithmetic: Play and Rest advance the
// position by their durations at once, unless paused.
type fakeSpeaker struct {
	mu       sync.Mutex
	cond     *sync.Cond
	paused   bool
	pos      time.Duration
	slow     float64 // utterances last slow× their estimate
	played   []string
	chimes   int
	starts   []time.Duration // where each played line began
	lines    []Line          // each played line, as it was handed over
	ds       []time.Duration // how long each played line lasted
	anchor   time.Duration   // the pacer's anchor, while it runs
	pacing   bool
	paces    int                   // times the pacer was started
	fades    []fade                // every FadeOut, in order
	failWith error                 // Prepare fails with this
	onPlay   func(l Line, n int)   // called before each play, outside the lock
	onRest   func(d time.Duration) // called before each rest
	onResume func()                // called as Resume returns, outside the lock
	chimedAt []time.Duration       // where each chime was struck
	soft     []bool                // every SoftChimes, in order
}

type fakeUtterance struct {
	line Line
	d    time.Duration
}

func (u fakeUtterance) Duration() time.Duration { return u.d }

func newFakeSpeaker() *fakeSpeaker {
	s := &fakeSpeaker{slow: 1}
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *fakeSpeaker) Prepare(ctx context.Context, l Line) (Utterance, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failWith != nil {
		return nil, s.failWith
	}
	d := time.Duration(float64(EstimateLine(l)) * s.slow)
	return fakeUtterance{line: l, d: d}, nil
}

// waitRunning blocks while paused, like a frozen output.
func (s *fakeSpeaker) waitRunning(ctx context.Context) error {
	stop := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		s.cond.Broadcast()
		s.mu.Unlock()
	})
	defer stop()
	for s.paused && ctx.Err() == nil {
		s.cond.Wait()
	}
	return ctx.Err()
}

func (s *fakeSpeaker) Play(ctx context.Context, u Utterance) error {
	fu := u.(fakeUtterance)
	s.mu.Lock()
	n := len(s.played)
	s.mu.Unlock()
	if s.onPlay != nil {
		s.onPlay(fu.line, n)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.waitRunning(ctx); err != nil {
		return err
	}
	s.starts = append(s.starts, s.pos)
	s.lines = append(s.lines, fu.line)
	s.ds = append(s.ds, fu.d)
	s.pos += fu.d
	s.played = append(s.played, fu.line.Text)
	return nil
}

func (s *fakeSpeaker) Rest(ctx context.Context, d time.Duration) error {
	if s.onRest != nil {
		s.onRest(d)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.waitRunning(ctx); err != nil {
		return err
	}
	s.pos += d
	return nil
}

func (s *fakeSpeaker) Chime() {
	s.mu.Lock()
	s.chimes++
	s.chimedAt = append(s.chimedAt, s.pos)
	s.mu.Unlock()
}

func (s *fakeSpeaker) SoftChimes(on bool) {
	s.mu.Lock()
	s.soft = append(s.soft, on)
	s.mu.Unlock()
}

func (s *fakeSpeaker) Pause() {
	s.mu.Lock()
	s.paused = true
	s.mu.Unlock()
}

func (s *fakeSpeaker) Resume() {
	s.mu.Lock()
	s.paused = false
	s.cond.Broadcast()
	on := s.onResume
	s.mu.Unlock()
	if on != nil {
		on()
	}
}

func (s *fakeSpeaker) Pace(anchor time.Duration, _ BreathPattern) {
	s.mu.Lock()
	s.anchor, s.pacing = anchor, true
	s.paces++
	s.mu.Unlock()
}

func (s *fakeSpeaker) StopPacing() {
	s.mu.Lock()
	s.pacing = false
	s.mu.Unlock()
}

// fade is one FadeOut: where on the output's clock, and over how long.
type fade struct{ at, d time.Duration }

func (s *fakeSpeaker) FadeOut(d time.Duration) {
	s.mu.Lock()
	s.fades = append(s.fades, fade{at: s.pos, d: d})
	s.mu.Unlock()
}

func (s *fakeSpeaker) Position() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pos
}

func (s *fakeSpeaker) Played() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.played...)
}

// scriptGuide writes numbered sentences, derived only from the request,
// and streams them three characters at a time.
type scriptGuide struct {
	mu       sync.Mutex
	name     string
	requests []Request
	unsafe   map[string]bool // "sensory/2": the body line at index 2 is unsafe
	failFrom int             // calls from this number on fail (0: never)
	calls    int
	// lines, when set for a phase, are its body lines in turn (numbered so
	// each is unique).
	lines map[Phase][]string
	// leads, when set for a phase, are its wind-down lines in turn.
	leads map[Phase][]string
}

func (g *scriptGuide) Name() string {
	if g.name == "" {
		return "script"
	}
	return g.name
}

func (g *scriptGuide) Stream(ctx context.Context, req Request) (Stream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls++
	g.requests = append(g.requests, req)
	if g.failFrom > 0 && g.calls >= g.failFrom {
		return nil, errors.New("503 service unavailable")
	}
	var b strings.Builder
	if req.WindDown {
		n := max(1, req.Budget.Sentences-req.Spoken)
		if req.Phase == Resolution {
			n = 2
		}
		for k := 0; k < n; k++ {
			if ls := g.leads[req.Phase]; len(ls) > 0 {
				fmt.Fprintf(&b, "%s, %d. ", strings.TrimSuffix(ls[k%len(ls)], "."), req.Spoken+k)
				continue
			}
			fmt.Fprintf(&b, "%s leads on, %s %d. ", req.Phase.Title(), g.Name(), req.Spoken+k)
		}
	} else {
		for k := req.Spoken; k < req.Budget.WindDownAt; k++ {
			if g.unsafe[fmt.Sprintf("%s/%d", req.Phase, k)] {
				b.WriteString("Hold your breath for thirty seconds. ")
			}
			if ls := g.lines[req.Phase]; len(ls) > 0 {
				fmt.Fprintf(&b, "%s, %d. ", strings.TrimSuffix(ls[k%len(ls)], "."), k)
				continue
			}
			fmt.Fprintf(&b, "%s body, %s %d. ", req.Phase.Title(), g.Name(), k)
		}
	}
	return &chunkStream{text: b.String()}, nil
}

type chunkStream struct {
	text string
	err  error // returned after the text instead of io.EOF
}

func (s *chunkStream) Next(ctx context.Context) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if s.text == "" {
		if s.err != nil {
			return "", s.err
		}
		return "", io.EOF
	}
	n := min(3, len(s.text))
	chunk := s.text[:n]
	s.text = s.text[n:]
	return chunk, nil
}

func (s *chunkStream) Close() error { return nil }

// memStore keeps every checkpoint in memory.
type memStore struct {
	mu         sync.Mutex
	saves      []State
	transcript []Entry
	fail       error
}

func (m *memStore) Save(st State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	if err := st.Validate(); err != nil {
		// The real store refuses it too; TestMain fails the package.
		invalidSaves.add(st, err)
		return err
	}
	m.saves = append(m.saves, st.Clone())
	return nil
}

func (m *memStore) Transcribe(e Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	m.transcript = append(m.transcript, e)
	return nil
}

func (m *memStore) last() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.saves[len(m.saves)-1]
}

// invalidSaves collects every state an engine tried to save that Validate
// refuses: a state the engine writes must always load again.
var invalidSaves badSaves

type badSaves struct {
	mu   sync.Mutex
	list []string
}

func (b *badSaves) add(st State, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.list = append(b.list, fmt.Sprintf("%s (%s in %s): %v", st.ID, st.Status, st.Phase, err))
}

func TestMain(m *testing.M) {
	code := m.Run()
	if len(invalidSaves.list) > 0 {
		fmt.Fprintf(os.Stderr, "the engine saved %d states that Validate refuses:\n", len(invalidSaves.list))
		for _, s := range invalidSaves.list {
			fmt.Fprintln(os.Stderr, "  ", s)
		}
		code = 1
	}
	os.Exit(code)
}

// fakeScreen flags what the fake guides write to be flagged, as the
// safety screen would, and refuses an intention that says so.
type fakeScreen struct{}

var errCrisis = errors.New("the intention signals crisis")

func (fakeScreen) Sentence(text string, at Place) Verdict {
	for _, unsafe := range []string{"thirty seconds", "a full minute", "as fast as you can"} {
		if strings.Contains(strings.ToLower(text), unsafe) {
			return Verdict{Category: "unsafe_breathing", Rule: unsafe}
		}
	}
	return Verdict{}
}

func (fakeScreen) Intention(text string) error {
	if strings.Contains(text, "want to die") {
		return errCrisis
	}
	return nil
}
