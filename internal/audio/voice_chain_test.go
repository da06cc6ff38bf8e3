package audio

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// stubVoice speaks a fixed clip, or fails with err.
type stubVoice struct {
	name  string
	err   error
	calls atomic.Int32
}

func (s *stubVoice) Name() string { return s.name }

func (s *stubVoice) Speak(ctx context.Context, l engine.Line, rate beep.SampleRate) ([]float32, error) {
	s.calls.Add(1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.err != nil {
		return nil, s.err
	}
	return make([]float32, 100), nil
}

// notices collects what a chain tells the listener.
type notices struct {
	mu   sync.Mutex
	said []string
}

func (n *notices) notify(s string) {
	n.mu.Lock()
	n.said = append(n.said, s)
	n.mu.Unlock()
}

func (n *notices) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.said...)
}

func TestChainFallsToTheNextVoiceAndTellsOnce(t *testing.T) {
	broken := &stubVoice{name: "flite", err: failed("flite", "exit status 1: Segmentation fault")}
	backup := &stubVoice{name: "espeak-ng"}
	var n notices
	c := newChain([]Voice{broken, backup}, n.notify)
	if c.Name() != "flite" {
		t.Errorf("name %q before any failure", c.Name())
	}
	for range 3 {
		clip, err := c.Speak(context.Background(), engine.Line{Text: "Rest.", Phase: engine.Sensory}, Rate)
		if err != nil || len(clip) != 100 {
			t.Fatalf("got %d samples, %v", len(clip), err)
		}
	}
	if broken.calls.Load() != 1 || backup.calls.Load() != 3 {
		t.Errorf("calls: flite %d, espeak-ng %d; the failed voice should be left after one", broken.calls.Load(), backup.calls.Load())
	}
	want := "The voice flite stopped working (exit status 1: Segmentation fault); continuing with espeak-ng."
	if got := n.all(); len(got) != 1 || got[0] != want {
		t.Errorf("notices %q, want just %q", got, want)
	}
	if c.Name() != "espeak-ng" {
		t.Errorf("name %q after the switch", c.Name())
	}
}

func TestChainFailsWhenEveryVoiceHas(t *testing.T) {
	a := &stubVoice{name: "openai", err: failed("openai", "HTTP 401 Unauthorized: Incorrect API key provided")}
	b := &stubVoice{name: "espeak-ng", err: failed("espeak-ng", "exit status 1")}
	var n notices
	c := newChain([]Voice{a, b}, n.notify)
	_, err := c.Speak(context.Background(), engine.Line{Text: "Rest.", Phase: engine.Sensory}, Rate)
	if err == nil || err.Error() != "espeak-ng: exit status 1" {
		t.Errorf("got %v, want the last voice's error", err)
	}
	if _, err2 := c.Speak(context.Background(), engine.Line{Text: "Rest.", Phase: engine.Sensory}, Rate); err2 == nil {
		t.Error("a spent chain spoke")
	}
	if a.calls.Load() != 1 || b.calls.Load() != 1 {
		t.Errorf("calls %d, %d: a spent chain should not try again", a.calls.Load(), b.calls.Load())
	}
	if got := n.all(); len(got) != 1 || !strings.Contains(got[0], "openai stopped working") {
		t.Errorf("notices %q: want only the switch to espeak-ng", got)
	}
	if c.Name() != "none" {
		t.Errorf("name %q", c.Name())
	}
}

func TestChainKeepsItsVoiceWhenTheSentenceIsCancelled(t *testing.T) {
	first := &stubVoice{name: "flite"}
	second := &stubVoice{name: "espeak-ng"}
	var n notices
	c := newChain([]Voice{first, second}, n.notify)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Speak(ctx, engine.Line{Text: "Rest.", Phase: engine.Sensory}, Rate); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
	if c.Name() != "flite" || second.calls.Load() != 0 || len(n.all()) != 0 {
		t.Errorf("a cancelled sentence switched voices: now %s, notices %q", c.Name(), n.all())
	}
}

func TestChainSwitchesOnceUnderConcurrentSentences(t *testing.T) {
	broken := &stubVoice{name: "piper", err: failed("piper", "timed out: no speech after 45s")}
	backup := &stubVoice{name: "flite"}
	var n notices
	c := newChain([]Voice{broken, backup}, n.notify)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if _, err := c.Speak(context.Background(), engine.Line{Text: "Rest.", Phase: engine.Sensory}, Rate); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := n.all(); len(got) != 1 {
		t.Errorf("notices %q, want one", got)
	}
	if c.Name() != "flite" {
		t.Errorf("name %q", c.Name())
	}
}
