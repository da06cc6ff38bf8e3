package guide

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
	"github.com/lull-dev/lull/internal/safety"
)

// Sessions heard at a real voice's clip lengths: the built-in guide under
// the real engine, timed by a speaker whose clips last as long as
// espeak-ng's or flite's say them (synthesized once per line through the
// audio package, as a session would), so what the words do with real
// lengths is what a listener hears. "none" is the text-only voice: the
// engine's own estimate.

// voices are the voices these tests listen with.
var voices = []string{"none", "espeak-ng", "flite"}

// clipLengths measures lines with one voice, each line once per phase and
// pace, shared by the sessions of a test.
type clipLengths struct {
	player *audio.Player

	mu   sync.Mutex
	done map[clipKey]*clipLength
}

type clipKey struct {
	text  string
	phase engine.Phase
	pace  int // the delivery's pace in twentieths: a few per cent at most from the line's own
}

type clipLength struct {
	ready chan struct{}
	d     time.Duration
	err   error
}

var (
	lengthsMu sync.Mutex
	lengthsOf = map[string]*clipLengths{}
)

// lengthsFor is the shared measure of a voice; it skips the test when the
// voice is not installed.
func lengthsFor(t *testing.T, voice string) *clipLengths {
	t.Helper()
	if voice != "none" {
		if _, err := exec.LookPath(voice); err != nil {
			t.Skipf("%s is not installed (make test installs it)", voice)
		}
	}
	lengthsMu.Lock()
	defer lengthsMu.Unlock()
	if c, ok := lengthsOf[voice]; ok {
		return c
	}
	p, err := audio.Open(audio.Options{Voice: voice, Soundscape: "none", Silent: true})
	if err != nil {
		t.Fatal(err)
	}
	c := &clipLengths{player: p, done: map[clipKey]*clipLength{}}
	lengthsOf[voice] = c
	return c
}

// of is how long the voice says l.
func (c *clipLengths) of(ctx context.Context, l engine.Line) (time.Duration, error) {
	pace := int(math.Round(l.Delivery.PaceOr1() * 20))
	key := clipKey{l.Text, l.Phase, pace}
	c.mu.Lock()
	cl, ok := c.done[key]
	if !ok {
		cl = &clipLength{ready: make(chan struct{})}
		c.done[key] = cl
	}
	c.mu.Unlock()
	if !ok {
		l.Delivery.Pace = float64(pace) / 20
		u, err := c.player.Prepare(ctx, engine.Line{Text: l.Text, Phase: l.Phase, Delivery: l.Delivery})
		if err == nil {
			cl.d = u.Duration()
		}
		cl.err = err
		close(cl.ready)
	}
	<-cl.ready
	return cl.d, cl.err
}

// ear is a clockSpeaker that hears at a voice's real clip lengths, and
// remembers when each line, chime and breath came (its clock's lock
// guards them too).
type ear struct {
	clockSpeaker
	lengths *clipLengths

	heard   []heardClip
	chimes  []time.Duration
	pacing  bool
	anchor  time.Duration
	pattern engine.BreathPattern
}

// heardClip is one line as it was heard.
type heardClip struct {
	text       string
	phase      engine.Phase
	start, end time.Duration
}

type earClip struct {
	l engine.Line
	d time.Duration
}

func (c earClip) Duration() time.Duration { return c.d }

var _ engine.Pacer = (*ear)(nil)

func (s *ear) Prepare(ctx context.Context, l engine.Line) (engine.Utterance, error) {
	d, err := s.lengths.of(ctx, l)
	if err != nil {
		return nil, err
	}
	return earClip{l, d}, nil
}

func (s *ear) Play(_ context.Context, u engine.Utterance) error {
	c := u.(earClip)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.heard = append(s.heard, heardClip{c.l.Text, c.l.Phase, s.pos, s.pos + c.d})
	s.pos += c.d
	return nil
}

func (s *ear) Chime() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chimes = append(s.chimes, s.pos)
}

func (s *ear) Pace(anchor time.Duration, b engine.BreathPattern) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.pacing {
		s.pacing, s.anchor, s.pattern = true, anchor, b
	}
}

func (s *ear) StopPacing() {}

// voiced is one session as a listener heard it.
type voiced struct {
	h   hearing
	g   *Builtin
	st  engine.State
	req engine.Request // the session's, without a phase
	ear *ear
}

// hearing is what a voiced session is asked to be.
type hearing struct {
	minutes   int
	seed      int64
	intention string
	sleep     bool
	voice     string
	breath    engine.BreathPattern
	mem       Memory
}

func (h hearing) String() string {
	s := fmt.Sprintf("%d min, %s, seed %d", h.minutes, h.voice, h.seed)
	if h.intention != "" {
		s += fmt.Sprintf(", %q", h.intention)
	}
	if h.sleep {
		s += ", sleep"
	}
	return s
}

// hearAll plays sessions through the real engine at their voices'
// lengths, several at once: a voice's time is mostly spent starting up.
func hearAll(t *testing.T, hs []hearing) []voiced {
	t.Helper()
	m := loadMaterial(t)
	for _, h := range hs {
		lengthsFor(t, h.voice)
	}
	out := make([]voiced, len(hs))
	errs := make([]error, len(hs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 6)
	for i, h := range hs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i], errs[i] = hear(m, h)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s: %v", hs[i], err)
		}
	}
	return out
}

// hear plays one session; lengthsFor has opened its voice.
func hear(m *prompts.Guide, h hearing) (voiced, error) {
	if h.breath == (engine.BreathPattern{}) {
		h.breath = engine.DefaultBreath
	}
	st, err := engine.NewState("s", engine.Options{Length: time.Duration(h.minutes) * time.Minute, Intention: h.intention, Seed: h.seed, Sleep: h.sleep}, time.Unix(0, 0))
	if err != nil {
		return voiced{}, err
	}
	lengthsMu.Lock()
	lengths := lengthsOf[h.voice]
	lengthsMu.Unlock()
	g := NewBuiltin(m, h.mem)
	spk := &ear{lengths: lengths}
	e, err := engine.New(st, engine.Config{Screen: safety.Default(), Guide: g, Speaker: spk, Breath: h.breath})
	if err != nil {
		return voiced{}, err
	}
	if err := e.Run(context.Background()); err != nil {
		return voiced{}, err
	}
	return voiced{h: h, g: g, st: e.Snapshot(), ear: spk,
		req: engine.Request{Intention: h.intention, Seed: h.seed, Sleep: h.sleep, Breath: h.breath}}, nil
}
