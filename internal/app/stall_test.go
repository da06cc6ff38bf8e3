package app

import (
	"os/exec"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/lull-dev/lull/internal/awake"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// played is a session played live: as it was heard, and whether the
// screen said at some point that it was waiting for the guide.
type played struct {
	heard
	waited bool
}

// playStalled plays a whole session live, at real time, against a model
// in memory that set spoils: in a synctest bubble, where the output's
// clock, the guide's watchdog and the server's delays all run on the
// bubble's clock, so minutes of stalling cost the test none.
func playStalled(t *testing.T, length time.Duration, voice string, set func(*openaitest.Server, *model)) heard {
	t.Helper()
	return playLive(t, length, "gpt-4.1-mini", voice, set).heard
}

// playLive is playStalled on the model named, telling whether the screen
// said it was waiting. A voice of this machine (espeak-ng, flite) is
// heard at its real clip lengths: synthesis takes none of the bubble's time.
func playLive(t *testing.T, length time.Duration, modelName, voice string, set func(*openaitest.Server, *model)) played {
	t.Helper()
	var out played
	synctest.Test(t, func(t *testing.T) {
		srv := openaitest.NewInMemory()
		m := &model{calls: map[string]int{}}
		srv.SetText(m.text)
		set(srv, m)
		a, err := New(Options{
			Paths:  Paths{Data: t.TempDir()},
			Config: Config{Length: 5, Voice: voice, Soundscape: "none", Breathing: defaultConfig.Breathing},
			Awake:  awake.Off{},
			Silent: true,
			Guide: GuideChoice{Guide: "openai", LLM: llm.Config{
				APIKey: "sk-test", BaseURL: srv.URL, Model: modelName, HTTP: srv.Client()}},
		})
		if err != nil {
			t.Fatal(err)
		}
		r, err := a.Start(engine.Options{Seed: 3, Length: length})
		if err != nil {
			t.Fatal(err)
		}
		// The screen's view, as the TUI reads it: a tick of the bubble's clock.
		tick := time.NewTicker(100 * time.Millisecond)
	watch:
		for {
			select {
			case <-r.Done():
				break watch
			case <-tick.C:
				out.waited = out.waited || r.Progress().Waiting
			}
		}
		tick.Stop()
		out.heard = readBack(t, a, r, srv)
		a.Close()
		srv.Close()
	})
	return out
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

// checkBreathingBegins holds breathing's first minute, where the counts
// are taught, to at most one breath without words at a time: a cue to
// breathe in followed by long silence leaves the listener holding it. (A
// stalled first call once got one line of filler, then 20 s of nothing.)
func checkBreathingBegins(t *testing.T, h heard) {
	t.Helper()
	begun, prevEnd := time.Duration(-1), time.Duration(-1)
	for _, s := range h.spans {
		if !s.Speech() || s.Phase != engine.Breathing {
			continue
		}
		if begun < 0 {
			begun = s.Start
		}
		if s.Start > begun+time.Minute {
			return
		}
		// A breath without words is allowed (a slow model's first words
		// may take one): a breath, and the second between two lines.
		if limit := engine.DefaultBreath.Period() + time.Second; prevEnd >= 0 && s.Start-prevEnd > limit {
			t.Errorf("breathing's first minute: %v of silence before %q, longer than a breath and a gap (%v)", (s.Start - prevEnd).Round(time.Millisecond), s.Text, limit)
		}
		prevEnd = s.End
	}
}

// A model that stalls, streams for ever or is slow is never heard as
// silence, and the session keeps its length: every case holds every
// phase to the silence bound and the length to 1 %.
func TestAStallingModelIsNeverSilence(t *testing.T) {
	t.Parallel()
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
		{"a huge line from breathing on", 5 * time.Minute, func(s *openaitest.Server, _ *model) {
			s.SetStall(fromBreathing(openaitest.HugeLine(1 << 20))) // past the 256 KiB a line may hold
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
		{"first call of breathing hangs, espeak-ng", 5 * time.Minute, func(s *openaitest.Server, _ *model) { s.SetStall(firstIn("BREATHING", openaitest.Hang())) }},
		{"first call of breathing hangs, flite", 5 * time.Minute, func(s *openaitest.Server, _ *model) { s.SetStall(firstIn("BREATHING", openaitest.Hang())) }},
		{"every lead-on reply a usable line short", 10 * time.Minute, func(s *openaitest.Server, m *model) {
			s.SetText(func(c openaitest.Call) string {
				text := m.text(c)
				for _, in := range c.Input {
					if strings.Contains(in.Text, "Lead toward what comes next") {
						lines := strings.Split(text, "\n")
						lines[len(lines)-1] = "Hold your breath now for a full sixty seconds." // withheld
						return strings.Join(lines, "\n")
					}
				}
				return text
			})
		}},
		{"every reply a line short", 5 * time.Minute, func(_ *openaitest.Server, m *model) {
			m.spoil = func(_ string, _ int, lines []string) string { return strings.Join(lines[:len(lines)-1], "\n") }
		}},
		{"every reply a line short, 20 minutes", 20 * time.Minute, func(_ *openaitest.Server, m *model) {
			m.spoil = func(_ string, _ int, lines []string) string { return strings.Join(lines[:len(lines)-1], "\n") }
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			voice := "none"
			if _, v, ok := strings.Cut(c.name, "hangs, "); ok {
				voice = v // at the voice's real clip lengths
				needVoice(t, voice)
			}
			h := playStalled(t, c.length, voice, c.set)
			checkHeard(t, h)
			checkBreathingBegins(t, h)
		})
	}
}

// needVoice skips a test of a voice this machine does not have.
func needVoice(t *testing.T, voice string) {
	t.Helper()
	if _, err := exec.LookPath(voice); err != nil {
		t.Skipf("%s is not installed (make test installs it)", voice)
	}
}
