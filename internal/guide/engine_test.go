package guide

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/lull-dev/lull/internal/engine"
)

// clockSpeaker keeps output time by arithmetic. Its voice speaks slow×
// the engine's estimate, so the engine re-budgets phases as they run, the
// way real clips make it.
type clockSpeaker struct {
	mu   sync.Mutex
	pos  time.Duration
	slow float64
}

type clip struct{ d time.Duration }

func (c clip) Duration() time.Duration { return c.d }

func (s *clockSpeaker) Prepare(_ context.Context, l engine.Line) (engine.Utterance, error) {
	return clip{time.Duration(float64(engine.EstimateSpeech(l.Text, l.Phase)) * s.slow)}, nil
}

func (s *clockSpeaker) Play(_ context.Context, u engine.Utterance) error {
	return s.Rest(context.Background(), u.Duration())
}

func (s *clockSpeaker) Rest(_ context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pos += d
	return nil
}

func (s *clockSpeaker) Chime()  {}
func (s *clockSpeaker) Pause()  {}
func (s *clockSpeaker) Resume() {}

func (s *clockSpeaker) Position() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pos
}

// TestWholeSessionsThroughTheEngine runs the built-in guide under the real
// engine — read-ahead, re-budgeting and all — and listens to what it said:
// nothing twice, nothing withheld, every phase heard, each journey's steps
// in their written order, and the close last.
func TestWholeSessionsThroughTheEngine(t *testing.T) {
	m := loadMaterial(t)
	for _, minutes := range []int{5, 10, 20, 60} {
		for _, slow := range []float64{0.6, 1, 1.7} {
			for seed := range int64(4) {
				intention := sampleIntentions[seed%int64(len(sampleIntentions))]
				sleep := seed == 3
				name := fmt.Sprintf("%dmin slow %.1f seed %d %q sleep %v", minutes, slow, seed, intention, sleep)
				g := NewBuiltin(m, Memory{})
				st, err := engine.NewState("s", engine.Options{Length: time.Duration(minutes) * time.Minute, Intention: intention, Seed: seed, Sleep: sleep}, time.Unix(0, 0))
				if err != nil {
					t.Fatal(err)
				}
				e, err := engine.New(st, engine.Config{Screen: safety.Default(), Guide: g, Speaker: &clockSpeaker{slow: slow}})
				if err != nil {
					t.Fatal(err)
				}
				if err := e.Run(context.Background()); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				done := e.Snapshot()
				if done.Dropped() > 0 {
					t.Errorf("%s: the safety check dropped %d sentences", name, done.Dropped())
				}
				seen := map[string]bool{}
				for _, s := range done.Said() {
					if seen[s] {
						t.Errorf("%s: %q said twice", name, s)
					}
					seen[s] = true
				}
				req := engine.Request{Intention: intention, Seed: seed, Sleep: sleep, Breath: engine.DefaultBreath}
				for _, p := range engine.Phases {
					var lines []string
					for _, h := range done.History {
						if h.Role == engine.RoleGuide && h.Phase == p {
							lines = append(lines, h.Text)
						}
					}
					if len(lines) == 0 {
						t.Errorf("%s: %s said nothing", name, p)
						continue
					}
					req.Phase = p
					checkOrder(t, name+" "+p.String(), walked(g.plan(req), lines), lines)
				}
			}
		}
	}
}

// walked is the plan whose path a phase that said lines took: its
// journey's brief once the brief has begun, as the guide itself decides
// (forRoom), else its steps.
func walked(pp *phasePlan, lines []string) *phasePlan {
	said := map[string]bool{}
	for _, l := range lines {
		said[l] = true
	}
	return pp.forRoom(math.MaxInt, said)
}

// checkOrder: the steps said keep the script's order, and the lead comes
// last; rests may fall anywhere after the first step, and the intention's
// line at the phase's edge too (an opening too short for it ends on it).
func checkOrder(t *testing.T, name string, pp *phasePlan, said []string) {
	t.Helper()
	at := func(items []item, s string) int {
		return slices.IndexFunc(items, func(it item) bool { return slices.Contains(it.variants, s) })
	}
	lastStep := -1
	for i, s := range said {
		if at(pp.steps, s) >= 0 {
			lastStep = i
		}
	}
	last, inLead := -1, false
	for i, s := range said {
		if k := at(pp.lead, s); k >= 0 {
			inLead = true
			continue
		}
		if inLead {
			t.Errorf("%s: %q after the lead began", name, s)
		}
		k := at(pp.steps, s)
		if k < 0 {
			if at(pp.rests, s) < 0 {
				t.Errorf("%s: %q is not in the phase's script", name, s)
			}
			continue
		}
		if i == lastStep && pp.steps[k].intention() {
			continue
		}
		if k < last {
			t.Errorf("%s: %q came out of its order", name, s)
		}
		last = k
	}
}
