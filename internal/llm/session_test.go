package llm

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// clockSpeaker keeps output time by arithmetic, as engine/fakes_test.go's
// speaker does: Play and Rest advance the position by their durations at
// once, so a whole session runs in no real time.
type clockSpeaker struct {
	mu     sync.Mutex
	pos    time.Duration
	played []engine.Line
	starts []time.Duration // where each played line began
}

type clockClip struct {
	line engine.Line
	d    time.Duration
}

func (c clockClip) Duration() time.Duration { return c.d }

func (s *clockSpeaker) Prepare(_ context.Context, l engine.Line) (engine.Utterance, error) {
	return clockClip{line: l, d: engine.EstimateLine(l)}, nil
}

func (s *clockSpeaker) Play(ctx context.Context, u engine.Utterance) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := u.(clockClip)
	s.starts = append(s.starts, s.pos)
	s.pos += c.d
	s.played = append(s.played, c.line)
	return ctx.Err()
}

func (s *clockSpeaker) Rest(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pos += d
	return ctx.Err()
}

func (s *clockSpeaker) Chime()  {}
func (s *clockSpeaker) Pause()  {}
func (s *clockSpeaker) Resume() {}

func (s *clockSpeaker) Position() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pos
}

func (s *clockSpeaker) lines() []engine.Line {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]engine.Line(nil), s.played...)
}

func (s *clockSpeaker) began() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.starts...)
}

// askedFor reads how many sentences a request asks for (lull before this
// change said "about").
var askedFor = regexp.MustCompile(`Write (?:exactly|about) (\d+) sentences`)

var phaseNamed = regexp.MustCompile(`CURRENT PHASE: ([A-Z]+)`)

// model writes as a model that follows the format: the sentences asked
// for (at most most of them, as models that write less than asked do),
// one a line, tagged in breathing; short ones when short is set. Every
// sentence is numbered, so none repeats.
type model struct {
	mu    sync.Mutex
	n     int
	most  int  // 0: as many as asked
	short bool // "Rest here, moment 12."
	// misleading: breathing's out-breath lines begin with words the
	// engine's guess takes for an in-breath; only their tag says otherwise.
	misleading bool
	vivid      bool // sentences that name body parts and images, as a model's do
}

// parts and images a vivid model goes through in turn.
var (
	modelParts  = []string{"feet", "ankles", "calves", "knees", "thighs", "hips", "belly", "chest", "hands", "arms", "shoulders", "neck", "jaw", "face", "scalp"}
	modelImages = []string{"lamp", "soft rain", "warm blanket", "quiet shore", "slow clouds"}
)

func (m *model) write(c openaitest.Call) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	want := 6
	if len(c.Input) > 0 {
		if s := askedFor.FindStringSubmatch(c.Input[len(c.Input)-1].Text); s != nil {
			want, _ = strconv.Atoi(s[1])
		}
	}
	if m.most > 0 {
		want = min(want, m.most)
	}
	phase := "atmosphere"
	if s := phaseNamed.FindStringSubmatch(c.Instructions); s != nil {
		phase = strings.ToLower(s[1])
	}
	var b strings.Builder
	for i := range want {
		m.n++
		switch {
		case phase == "breathing" && i%2 == 0:
			fmt.Fprintf(&b, "[in] Breathe in softly, breath %d.\n", m.n)
		case phase == "breathing" && m.misleading:
			fmt.Fprintf(&b, "[out] Let the shoulders drop as the air leaves, breath %d.\n", m.n)
		case phase == "breathing":
			fmt.Fprintf(&b, "[out] And breathe out slowly, breath %d.\n", m.n)
		case m.vivid && (phase == "atmosphere" || phase == "relaxation"):
			fmt.Fprintf(&b, "Picture a %s, close and calm, moment %d.\n", modelImages[m.n%len(modelImages)], m.n)
		case m.vivid:
			fmt.Fprintf(&b, "Let your %s soften and grow warm, moment %d.\n", modelParts[m.n%len(modelParts)], m.n)
		case m.short:
			fmt.Fprintf(&b, "Rest here, moment %d.\n", m.n)
		default:
			fmt.Fprintf(&b, "Let the %s settle around you a little more, moment %d.\n", phase, m.n)
		}
	}
	return b.String()
}

// session runs a whole session of length on guide g with no real time.
func session(t *testing.T, g engine.Guide, opts engine.Options) (*engine.Engine, *clockSpeaker) {
	t.Helper()
	st, err := engine.NewState("test-session", opts, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sp := &clockSpeaker{}
	e, err := engine.New(st, engine.Config{Screen: markScreen{}, Guide: g, Speaker: sp})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	if err := e.Run(ctx); err != nil {
		t.Fatalf("the session did not run to its end: %v", err)
	}
	return e, sp
}
