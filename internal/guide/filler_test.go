package guide

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/lull-dev/lull/internal/engine"
)

// liveSpeaker keeps time as a real output does: its clock is the
// (synctest) wall clock, so time spent waiting for words is heard.
type liveSpeaker struct{ start time.Time }

func (s *liveSpeaker) Prepare(_ context.Context, l engine.Line) (engine.Utterance, error) {
	return clip{engine.EstimateLine(l)}, nil
}
func (s *liveSpeaker) Play(ctx context.Context, u engine.Utterance) error {
	return s.Rest(ctx, u.Duration())
}
func (s *liveSpeaker) Rest(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
func (s *liveSpeaker) Chime()                  {}
func (s *liveSpeaker) Pause()                  {}
func (s *liveSpeaker) Resume()                 {}
func (s *liveSpeaker) Position() time.Duration { return time.Since(s.start) }

// flakyModel is a remote guide that writes half of what the body has
// left per call, replies with nothing twice at the start of breathing,
// and keeps the listener waiting at the start of sensory and in the
// middle of relaxation.
type flakyModel struct {
	mu       sync.Mutex
	requests []engine.Request
	perPhase map[engine.Phase]int
}

func (g *flakyModel) Name() string     { return "model" }
func (g *flakyModel) Model() string    { return "model-x" }
func (g *flakyModel) Provider() string { return "fake#model-x" }

func (g *flakyModel) Stream(ctx context.Context, req engine.Request) (engine.Stream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.requests = append(g.requests, req)
	g.perPhase[req.Phase]++
	k := g.perPhase[req.Phase]
	n := (req.Budget.WindDownAt-req.Spoken)/2 + 1
	if req.WindDown {
		n = max(1, req.Budget.Sentences-req.Spoken)
	}
	var wait time.Duration
	switch {
	case req.Phase == engine.Breathing && k <= 2:
		n = 0
	case req.Phase == engine.Relaxation && k == 2 && !req.WindDown:
		wait = 40 * time.Second
	case req.Phase == engine.Sensory && k == 1:
		wait = 30 * time.Second
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "The model speaks in %s, call %d, line %d. ", req.Phase, len(g.requests), i)
	}
	return &waitStream{text: b.String(), wait: wait}, nil
}

type waitStream struct {
	text string
	wait time.Duration
}

func (s *waitStream) Next(ctx context.Context) (string, error) {
	if s.wait > 0 {
		select {
		case <-time.After(s.wait):
			s.wait = 0
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	if s.text == "" {
		return "", io.EOF
	}
	t := s.text
	s.text = ""
	return t, nil
}

func (s *waitStream) Close() error { return nil }

// TestBuiltinFillsForAFlakyModel: the built-in guide, as the filler of a
// model that replies with nothing and stalls, speaks its own lines of the
// same phase of the same journey, never one twice, on the in-breath in
// breathing; the model is told the journey; the session keeps its time.
func TestBuiltinFillsForAFlakyModel(t *testing.T) {
	m := loadMaterial(t)
	for _, minutes := range []int{10, 20} {
		synctest.Test(t, func(t *testing.T) {
			b := NewBuiltin(m, Memory{})
			g := &flakyModel{perPhase: map[engine.Phase]int{}}
			st, err := engine.NewState("s", engine.Options{Length: time.Duration(minutes) * time.Minute, Intention: "calm before a talk", Seed: 5}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			e, err := engine.New(st, engine.Config{Screen: safety.Default(), Guide: g, Filler: b, Speaker: &liveSpeaker{start: time.Now()}})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			done := e.Snapshot()
			if off := float64(done.Elapsed-done.Length) / float64(done.Length); off < -0.01 || off > 0.01 {
				t.Errorf("%d min: took %v", minutes, done.Elapsed)
			}
			seen := map[string]bool{}
			for _, s := range done.Said() {
				if seen[s] {
					t.Errorf("%d min: %q said twice", minutes, s)
				}
				seen[s] = true
			}
			req := engine.Request{Intention: "calm before a talk", Seed: 5, Breath: engine.DefaultBreath, Length: done.Length}
			for _, p := range engine.Phases {
				req.Phase = p
				pp := b.plan(req)
				var filled int
				for _, h := range done.History {
					if h.Role != engine.RoleGuide || h.Phase != p || strings.HasPrefix(h.Text, "The model speaks") {
						continue
					}
					filled++
					mine := slices.ContainsFunc(slices.Concat(pp.steps, pp.rests, pp.lead), func(it item) bool { return slices.Contains(it.variants, h.Text) })
					if !mine {
						t.Errorf("%d min, %s: filled %q, not a line of the phase", minutes, p, h.Text)
					}
				}
				r := done.Phases[p]
				if r.Filled != filled {
					t.Errorf("%d min, %s: %d lines filled, %d counted", minutes, p, filled, r.Filled)
				}
				if pc := float64(r.Elapsed) / float64(r.Budget.Target); pc < 0.8 {
					t.Errorf("%d min, %s: %.0f%% of its planned time", minutes, p, pc*100)
				}
				t.Logf("%d min, %-10s %2d said, %2d filled, %3.0f%% of plan", minutes, p, r.Spoken, r.Filled, 100*float64(r.Elapsed)/float64(r.Budget.Target))
			}
			for _, p := range []engine.Phase{engine.Breathing, engine.Sensory, engine.Relaxation} {
				if done.Phases[p].Filled == 0 {
					t.Errorf("%d min: nothing filled in %s", minutes, p)
				}
			}
			g.mu.Lock()
			defer g.mu.Unlock()
			title := ""
			if j, ok := m.Journey(b.Journey(req)); ok {
				title = j.Title
			}
			for _, r := range g.requests {
				if r.Outline.Journey != title || len(r.Outline.Steps) == 0 {
					t.Errorf("%s call told the journey %q %q, want %q", r.Phase, r.Outline.Journey, r.Outline.Steps, title)
					break
				}
			}
		})
	}
}
