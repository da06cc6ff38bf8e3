package app

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"lull/engine"
	"lull/internal/awake"
	"lull/internal/openaitest"
	"lull/llm"
)

// playStalled plays a whole session live, at real time, against a model
// in memory that set spoils: in a synctest bubble, where the output's
// clock, the guide's watchdog and the server's delays all run on the
// bubble's clock, so minutes of stalling cost the test none.
func playStalled(t *testing.T, length time.Duration, set func(*openaitest.Server, *model)) heard {
	t.Helper()
	var h heard
	synctest.Test(t, func(t *testing.T) {
		srv := openaitest.NewInMemory()
		m := &model{calls: map[string]int{}}
		srv.SetText(m.text)
		set(srv, m)
		a, err := New(Options{
			Paths:  Paths{Data: t.TempDir()},
			Config: Config{Length: 5, Voice: "none", Soundscape: "none", Breathing: defaultConfig.Breathing},
			Awake:  awake.Off{},
			Silent: true,
			Guide: GuideChoice{Guide: "openai", LLM: llm.Config{
				APIKey: "sk-test", BaseURL: srv.URL, Model: "gpt-4.1-mini", HTTP: srv.Client()}},
		})
		if err != nil {
			t.Fatal(err)
		}
		r, err := a.Start(engine.Options{Seed: 3, Length: length})
		if err != nil {
			t.Fatal(err)
		}
		<-r.Done()
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		spans := r.Timeline()
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		st, _, err := a.Store().Load(r.ID())
		if err != nil {
			t.Fatal(err)
		}
		a.Close()
		srv.Close()
		h = heard{st: st, spans: spans}
	})
	return h
}

// callPhase is the phase a call asks for, as the model reads it.
func callPhase(c openaitest.Call) string {
	if p := phaseNamed.FindStringSubmatch(c.Instructions); p != nil {
		return p[1]
	}
	return ""
}

// fromBreathing chooses f for every call after atmosphere's.
func fromBreathing(f openaitest.Fault) func(openaitest.Call) openaitest.Fault {
	return func(c openaitest.Call) openaitest.Fault {
		if callPhase(c) == "ATMOSPHERE" {
			return openaitest.Fault{}
		}
		return f
	}
}

// firstIn chooses f for the first call of phase, only.
func firstIn(phase string, f openaitest.Fault) func(openaitest.Call) openaitest.Fault {
	var once sync.Once
	return func(c openaitest.Call) (out openaitest.Fault) {
		if callPhase(c) == phase {
			once.Do(func() { out = f })
		}
		return out
	}
}

// A model that stalls, streams for ever or is slow is never heard as
// silence, and the session keeps its length: every case holds every
// phase to the silence bound and the length to 1 %.
func TestAStallingModelIsNeverSilence(t *testing.T) {
	cases := []struct {
		name   string
		length time.Duration
		set    func(*openaitest.Server, *model)
	}{
		{"slow first text 12s", 5 * time.Minute, func(s *openaitest.Server, _ *model) { s.SetLatency(12*time.Second, 0) }},
		{"slow first text 20s", 5 * time.Minute, func(s *openaitest.Server, _ *model) { s.SetLatency(20*time.Second, 0) }},
		{"slow first text 15s, 20 minutes", 20 * time.Minute, func(s *openaitest.Server, _ *model) { s.SetLatency(15*time.Second, 0) }},
		{"no answer from breathing on", 5 * time.Minute, func(s *openaitest.Server, _ *model) { s.SetStall(fromBreathing(openaitest.NoAnswer())) }},
		{"keep-alives only from breathing on", 5 * time.Minute, func(s *openaitest.Server, _ *model) {
			s.SetStall(fromBreathing(openaitest.KeepAlive(10 * time.Second)))
		}},
		{"endless from breathing on", 5 * time.Minute, func(s *openaitest.Server, _ *model) {
			s.SetStall(fromBreathing(openaitest.Endless(2 * time.Second)))
		}},
		{"endless in resolution", 5 * time.Minute, func(s *openaitest.Server, _ *model) {
			s.SetStall(func(c openaitest.Call) openaitest.Fault {
				if callPhase(c) == "RESOLUTION" {
					return openaitest.Endless(2 * time.Second)
				}
				return openaitest.Fault{}
			})
		}},
		{"first call of breathing hangs", 5 * time.Minute, func(s *openaitest.Server, _ *model) { s.SetStall(firstIn("BREATHING", openaitest.Hang())) }},
		{"every reply a line short", 5 * time.Minute, func(_ *openaitest.Server, m *model) {
			m.spoil = func(_ string, _ int, lines []string) string { return strings.Join(lines[:len(lines)-1], "\n") }
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			checkHeard(t, playStalled(t, c.length, c.set))
		})
	}
}
