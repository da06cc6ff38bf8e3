package guide

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/lull-dev/lull/internal/engine"
)

// A replay under the real engine says only the saved words, each phase's
// own in their order, ends on the farewell, and keeps time — whether the
// voice is as fast as the original's, slower (fewer lines fit) or faster
// (the silences stretch).
func TestReplaySaysOnlyTheSavedWordsAndKeepsTime(t *testing.T) {
	m := loadMaterial(t)
	for _, minutes := range []int{5, 20} {
		st, err := engine.NewState("orig", engine.Options{Length: time.Duration(minutes) * time.Minute, Seed: 4}, time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		e, err := engine.New(st, engine.Config{Screen: safety.Default(), Guide: NewBuiltin(m, Memory{}), Speaker: &clockSpeaker{slow: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		orig := e.Snapshot()
		for _, slow := range []float64{1, 1.5, 0.7} {
			name := fmt.Sprintf("%d min, voice %.1f×", minutes, slow)
			g, err := NewReplay(orig.History, engine.DefaultBreath)
			if err != nil {
				t.Fatal(err)
			}
			st, _ := engine.NewState("replay", engine.Options{Length: orig.Length, Seed: 99}, time.Unix(0, 0))
			e, err := engine.New(st, engine.Config{Screen: safety.Default(), Guide: g, Speaker: &clockSpeaker{slow: slow}})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Run(context.Background()); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			done := e.Snapshot()
			for _, p := range engine.Phases {
				saved, said := g.Lines(p), linesOf(done, p)
				if len(said) == 0 || len(said) > len(saved) {
					t.Errorf("%s, %s: said %d of %d saved lines", name, p, len(said), len(saved))
					continue
				}
				j := 0
				for _, s := range said {
					for j < len(saved) && saved[j] != s {
						j++
					}
					if j == len(saved) {
						t.Errorf("%s, %s: %q is not a saved line in its order", name, p, s)
						break
					}
					j++
				}
				// The farewell always; the bridge onward unless a slower
				// voice ran the phase out of time (the engine's clock ends
				// it then, as it would the built-in guide's).
				if (p == engine.Resolution || slow <= 1) && said[len(said)-1] != saved[len(saved)-1] {
					t.Errorf("%s, %s: ends on %q, not on the saved %q", name, p, said[len(said)-1], saved[len(saved)-1])
				}
				// At the original's pace, every line; resolution's close
				// may give one up to end on time.
				if slow == 1 && len(said) < len(saved)-1 {
					t.Errorf("%s, %s: said %d of %d lines at the original's pace", name, p, len(said), len(saved))
				}
			}
			if off := (done.Elapsed - done.Length).Abs(); off > done.Length/50 {
				t.Errorf("%s: lasted %v of %v", name, done.Elapsed, done.Length)
			}
		}
	}
}

func linesOf(st engine.State, p engine.Phase) []string {
	var out []string
	for _, e := range st.History {
		if e.Role == engine.RoleGuide && e.Phase == p {
			out = append(out, e.Text)
		}
	}
	return out
}

func TestReplayOfNothingIsRefused(t *testing.T) {
	history := []engine.Entry{{Phase: engine.Atmosphere, Role: engine.RoleUser, Text: "calm"}, {Phase: engine.Atmosphere, Role: engine.RoleSystem, Text: "an error"}}
	if _, err := NewReplay(history, engine.DefaultBreath); !errors.Is(err, ErrNoWords) {
		t.Errorf("a history without spoken words: %v, want ErrNoWords", err)
	}
}

// Breathing lines of the material keep their part of the breath, and
// lines the material does not hold are left to the engine.
func TestReplayCuesTheBreath(t *testing.T) {
	tags := BreathTags(engine.DefaultBreath)
	var line string
	var stage engine.BreathStage
	for l, s := range tags {
		line, stage = l, s
		break
	}
	if line == "" {
		t.Fatal("the material has no breathing lines")
	}
	g, err := NewReplay([]engine.Entry{{Phase: engine.Breathing, Role: engine.RoleGuide, Text: line}}, engine.DefaultBreath)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := g.Cue(line); !ok || got != stage {
		t.Errorf("cue of %q: %v %v, want %v", line, got, ok, stage)
	}
	if _, ok := g.Cue("Rest softly in the breathing phase, call 3, line 1."); ok {
		t.Error("a line the material does not hold has a cue")
	}
}
