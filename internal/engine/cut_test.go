package engine

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// lingerGuide is a remote guide whose sensory body call gives its lines
// and then never ends: it neither sends more nor closes, as a server
// that keeps a stream open with keep-alives does. It notes how long each
// such call stayed open.
type lingerGuide struct {
	modelGuide
	mu   sync.Mutex
	open []time.Duration // how long each lingering call was open
}

func (g *lingerGuide) Stream(ctx context.Context, req Request) (Stream, error) {
	st, err := g.modelGuide.Stream(ctx, req)
	if err != nil || req.Phase != Sensory || req.WindDown {
		return st, err
	}
	return &lingerStream{Stream: st, g: g, opened: time.Now()}, nil
}

type lingerStream struct {
	Stream
	g      *lingerGuide
	opened time.Time
}

func (s *lingerStream) Next(ctx context.Context) (string, error) {
	text, err := s.Stream.Next(ctx)
	if err == nil {
		return text, nil
	}
	<-ctx.Done() // the text is all given: then nothing, for ever
	return "", ctx.Err()
}

func (s *lingerStream) Close() error {
	s.g.mu.Lock()
	defer s.g.mu.Unlock()
	s.g.open = append(s.g.open, time.Since(s.opened))
	return nil
}

// A call that never ends is cut at callLimit: its lines are said, the
// phase goes on to its wind-down, and the session keeps its time.
func TestACallThatNeverEndsIsCut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &lingerGuide{}
		spk := newLiveSpeaker()
		e, err := New(newSession(t, 20, ""), Config{Screen: fakeScreen{}, Guide: g, Filler: &scriptGuide{name: "builtin"}, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		g.mu.Lock()
		open := g.open
		g.mu.Unlock()
		if len(open) == 0 {
			t.Fatal("no sensory body call was made")
		}
		for _, d := range open {
			if d > callLimit+time.Second {
				t.Errorf("a call that never ended stayed open %v; the limit is %v", d, callLimit)
			}
		}
		st := e.Snapshot()
		var windDown bool
		for _, l := range saidIn(st, Sensory) {
			if l != "" && len(l) > 12 && l[:12] == "Gently begin" {
				windDown = true
			}
		}
		if !windDown {
			t.Errorf("sensory never led onward: %q", saidIn(st, Sensory))
		}
		if f := measureFlow(spk, st); f.overPause > 10*time.Second || f.off < -1 || f.off > 1 {
			t.Errorf("a silence %v beyond its pause, %+.2f%% off", f.overPause, f.off)
		}
	})
}
