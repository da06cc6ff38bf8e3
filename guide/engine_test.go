package guide

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"lull/engine"
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
// engine — read-ahead, re-budgeting and all — and listens to what it said.
func TestWholeSessionsThroughTheEngine(t *testing.T) {
	g := newGuide(t)
	steps := material(t, engine.Resolution).Grounding.Steps()
	for _, minutes := range []int{5, 10, 20, 60} {
		for _, slow := range []float64{0.6, 1, 1.7} {
			for seed := range int64(4) {
				intention := intentions[seed%int64(len(intentions))]
				name := fmt.Sprintf("%dmin slow %.1f seed %d %q", minutes, slow, seed, intention)
				st, err := engine.NewState("s", engine.Options{Length: time.Duration(minutes) * time.Minute, Intention: intention, Seed: seed}, time.Unix(0, 0))
				if err != nil {
					t.Fatal(err)
				}
				e, err := engine.New(st, engine.Config{Guide: g, Speaker: &clockSpeaker{slow: slow}})
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
					// A five-minute resolution is all grounding, or grounding
					// and the intention: no room for an opening.
					allGrounding := p == engine.Resolution && len(lines) <= 5
					short := p == engine.Resolution && len(lines) <= 6
					if !short && !slices.Contains(material(t, p).Opening, lines[0]) {
						t.Errorf("%s: %s opens with %q", name, p, lines[0])
					}
					woven := 0
					for _, s := range lines {
						if intention != "" && strings.Contains(s, strings.TrimSuffix(intention, ".")) {
							woven++
						}
					}
					if want := min(1, len(intention)); woven != want && !allGrounding {
						t.Errorf("%s: %s weaves the intention %d times", name, p, woven)
					}
					if p == engine.Sensory {
						checkScan(t, name, material(t, p).Lines, lines)
					}
					if p != engine.Resolution {
						continue
					}
					var order []int
					for _, s := range lines {
						for j, alts := range steps {
							if slices.Contains(alts, s) {
								order = append(order, j)
							}
						}
					}
					if !slices.Equal(order, []int{0, 1, 2, 3, 4}) {
						t.Errorf("%s: grounding steps %v in %q", name, order, lines)
					}
				}
			}
		}
	}
}

// checkScan: however the clock re-budgets, the body scan only moves up the
// body; once it has reached its last line it may travel back down.
func checkScan(t *testing.T, name string, scan, said []string) {
	t.Helper()
	var at []int
	for _, s := range said {
		if i := slices.Index(scan, s); i >= 0 {
			at = append(at, i)
		}
	}
	turn := len(at)
	for k := 1; k < len(at); k++ {
		if at[k] < at[k-1] {
			turn = k
			break
		}
	}
	if turn < len(at) && !slices.Contains(at[:turn], len(scan)-1) {
		t.Errorf("%s: the body scan turns back before reaching its last line: %v", name, at)
	}
	for k := turn + 1; k < len(at); k++ {
		if at[k] > at[k-1] {
			t.Errorf("%s: the body scan wanders: %v", name, at)
		}
	}
}
