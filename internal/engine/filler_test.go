package engine

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// logBuffer collects a test engine's log.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(b, nil)) }

// requestsIn are the guide's requests for phase p, in order.
func (g *modelGuide) requestsIn(p Phase) []Request {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []Request
	for _, r := range g.requests {
		if r.Phase == p {
			out = append(out, r)
		}
	}
	return out
}

// saidIn are the lines spoken in phase p.
func saidIn(st State, p Phase) []string {
	var out []string
	for _, h := range st.History {
		if h.Role == RoleGuide && h.Phase == p {
			out = append(out, h.Text)
		}
	}
	return out
}

// An empty reply at the start of breathing, then a retry whose every
// sentence the safety check withholds: the guide is asked again once,
// told why, then the built-in guide says that call's share and the phase
// keeps its time. In sensory the retry works and nothing is filled.
func TestUnusableReplyIsAskedAgainThenFilled(t *testing.T) {
	g := &modelGuide{faults: map[Phase]map[int]string{
		Breathing: {1: "empty", 2: "unsafe"},
		Sensory:   {1: "unsafe"},
	}}
	logs := &logBuffer{}
	e, err := New(newSession(t, 10, ""), Config{Screen: fakeScreen{}, Guide: g, Filler: &scriptGuide{name: "builtin"}, Speaker: newFakeSpeaker(), Logger: logs.logger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e.Snapshot()

	br := g.requestsIn(Breathing)
	if len(br) < 3 {
		t.Fatalf("breathing made %d calls", len(br))
	}
	if br[0].Note != "" || !strings.Contains(br[1].Note, "empty") {
		t.Errorf("breathing's notes: %q, then %q; want none, then one saying the reply was empty", br[0].Note, br[1].Note)
	}
	if br[1].WindDown || br[1].Spoken != br[0].Spoken {
		t.Errorf("the retry is not the same call: %+v after %+v", br[1], br[0])
	}
	if br[2].Note != "" {
		t.Errorf("the call after the filled share still carries a note: %q", br[2].Note)
	}
	var filled int
	for _, l := range saidIn(st, Breathing) {
		if strings.Contains(l, "builtin") {
			filled++
		}
	}
	if filled == 0 || st.Phases[Breathing].Filled != filled {
		t.Errorf("breathing: %d lines of the built-in guide said, %d counted filled", filled, st.Phases[Breathing].Filled)
	}
	if fromModel := len(saidIn(st, Breathing)) - filled; fromModel == 0 {
		t.Error("breathing never went back to the model after the filled share")
	}

	se := g.requestsIn(Sensory)
	if len(se) < 2 || !strings.Contains(se[1].Note, "safety") {
		t.Errorf("sensory's retry is told %q", se[1].Note)
	}
	if st.Phases[Sensory].Filled != 0 {
		t.Errorf("sensory filled %d lines though its retry worked", st.Phases[Sensory].Filled)
	}
	for _, r := range st.Phases {
		if pc := float64(r.Elapsed) / float64(r.Budget.Target); pc < 0.8 {
			t.Errorf("%s lasted %v, %.0f%% of its planned %v", r.Phase, r.Elapsed, pc*100, r.Budget.Target)
		}
	}
	log := logs.String()
	for _, want := range []string{"asking again", "phase=breathing", "built-in guide says its share", "chars=0", "withheld=2"} {
		if !strings.Contains(log, want) {
			t.Errorf("the log does not say %q:\n%s", want, log)
		}
	}
}

// Without a filler the guide is still asked again, once; then the phase
// moves on as it always has.
func TestUnusableReplyWithoutFiller(t *testing.T) {
	g := &modelGuide{faults: map[Phase]map[int]string{Breathing: {1: "empty", 2: "empty"}}}
	e := newEngine(t, newSession(t, 10, ""), g, newFakeSpeaker(), nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	br := g.requestsIn(Breathing)
	if len(br) < 3 || br[1].Note == "" || br[1].WindDown || !br[2].WindDown {
		t.Errorf("breathing's calls: %d; the second with note %q", len(br), br[1].Note)
	}
	if e.Snapshot().Phases[Breathing].Filled != 0 {
		t.Error("lines were filled with no filler")
	}
}

// The filler's lines are not in the chain the provider keeps: the next
// call is told them, as it is told the lines of a call cut short.
func TestFilledLinesAreToldToTheChain(t *testing.T) {
	g := &remoteGuide{provider: "p", empty: map[int]bool{3: true, 4: true}}
	e, err := New(newSession(t, 10, ""), Config{Screen: fakeScreen{}, Guide: g, Filler: &scriptGuide{name: "builtin"}, Speaker: newFakeSpeaker()})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	empty, next := g.requests[2], g.requests[4] // calls 3 and 4 gave nothing; 5 follows the filled share
	var told int
	for _, l := range next.Unchained {
		if strings.Contains(l, "builtin") {
			told++
		}
	}
	if filled := e.Snapshot().Phases[empty.Phase].Filled; next.Chain == "" || told == 0 || told != filled {
		t.Errorf("the call after the filled share chains from %q and is told %q (%d filled)", next.Chain, next.Unchained, filled)
	}
}

// outlineFiller outlines a journey of its own making.
type outlineFiller struct{ scriptGuide }

func (f *outlineFiller) Outline(req Request) Outline {
	return Outline{Journey: "Test journey", About: "A walk.", Steps: []string{req.Phase.String() + " step"}}
}

// A remote guide is told the journey the built-in guide would take.
func TestRemoteGuideIsToldTheJourney(t *testing.T) {
	g := &remoteGuide{provider: "p"}
	e, err := New(newSession(t, 5, ""), Config{Screen: fakeScreen{}, Guide: g, Filler: &outlineFiller{scriptGuide{name: "builtin"}}, Speaker: newFakeSpeaker()})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range g.requests {
		if r.Outline.Journey != "Test journey" || !slices.Equal(r.Outline.Steps, []string{r.Phase.String() + " step"}) {
			t.Errorf("%s call: outline %+v", r.Phase, r.Outline)
		}
	}
}

// A call that sends nothing for a long while: the built-in guide speaks
// fitting lines in its place, at its planned silence and stallAfter more,
// and again while the stall goes on; the call runs on and its words are
// said when they come; nothing is said twice and no silence runs long.
func TestStalledGuideIsFilledWhileItsCallRunsOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Asked ahead, the call stalls from breathing's last line on: a
		// minute, so that most of it falls in sensory, after breathing's
		// quiet breaths.
		g := &modelGuide{stalls: map[Phase]map[int]time.Duration{Sensory: {1: 60 * time.Second}}}
		logs := &logBuffer{}
		spk := newLiveSpeaker()
		e, err := New(newSession(t, 10, ""), Config{Screen: fakeScreen{}, Guide: g, Filler: &scriptGuide{name: "builtin"}, Speaker: spk, Logger: logs.logger()})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		st := e.Snapshot()
		said := saidIn(st, Sensory)
		first := g.requestsIn(Sensory)[0]
		var fills, fromStalled int
		for i, l := range said {
			switch {
			case strings.Contains(l, "builtin"):
				fills++
				if fromStalled > 0 {
					t.Errorf("a filled line after the stalled call's words came: %q", l)
				}
			case strings.HasPrefix(l, modelOpeners[Sensory]) && strings.Contains(l, fmt.Sprintf(", %d ", callOf(g, first))):
				fromStalled++
			default:
				t.Logf("line %d: %q", i, l)
			}
		}
		if fills < 2 || st.Phases[Sensory].Filled != fills || fromStalled == 0 {
			t.Errorf("sensory: %d lines filled (%d counted), %d from the stalled call: %q", fills, st.Phases[Sensory].Filled, fromStalled, said)
		}
		seen := map[string]bool{}
		for _, l := range st.Said() {
			if seen[l] {
				t.Errorf("%q said twice", l)
			}
			seen[l] = true
		}
		f := measureFlow(spk, st)
		if f.overPause > 10*time.Second || f.off < -1 || f.off > 1 || f.ofPlan[Sensory] < 80 {
			t.Errorf("a silence %v beyond its pause (%s line %d), %+.2f%% off, sensory %.0f%% of plan",
				f.overPause, f.at.phase, f.at.index, f.off, f.ofPlan[Sensory])
		}
		if !strings.Contains(logs.String(), "slow to give the next line") {
			t.Error("the stall was not logged")
		}
	})
}

// callOf is the number the guide gave the call it made for req.
func callOf(g *modelGuide, req Request) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, r := range g.requests {
		if r.Phase == req.Phase && r.Spoken == req.Spoken && r.WindDown == req.WindDown {
			return i + 1
		}
	}
	return -1
}

// In breathing a filled line never breaks the rhythm: it is a line for
// the in-breath, for an out-breath of its own (as the built-in guide says
// its lines after the counts), or for a later part of the breath the line
// before it spoke to, and it begins within its part of the breath.
func TestStallInBreathingFillsOnTheInBreath(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &modelGuide{stalls: map[Phase]map[int]time.Duration{Breathing: {1: 60 * time.Second}}}
		spk := newLiveSpeaker()
		filler := &cueGuide{scriptGuide: scriptGuide{name: "builtin"}}
		e, err := New(newSession(t, 10, ""), Config{Screen: fakeScreen{}, Guide: g, Filler: filler, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		st := e.Snapshot()
		period := DefaultBreath.Period()
		spk.mu.Lock()
		var fills int
		last := BreathStage(-1) // the part of the breath the line before spoke to
		for i, l := range spk.lines {
			if l.Phase != Breathing {
				continue
			}
			stage, tagged := filler.Cue(l.Text)
			if !tagged {
				stage = CueStage(l.Text) // an untagged line is said on the in-breath
			}
			if !tagged && !strings.HasPrefix(l.Text, "Notice the cool air at the nose") {
				last = CueStage(l.Text) // the model's, or a piece of one
				continue
			}
			fills++
			if stage != StageInhale && stage != StageExhale && stage <= last {
				t.Errorf("filled %q, a line for the %v after one for the %v", l.Text, stage, last)
			}
			// (A line is placed to the sample: a millisecond is rounding.)
			if in := (spk.starts[i] - spk.anchor + time.Millisecond) % period; DefaultBreath.At(in).Stage != stage {
				t.Errorf("filled %q begins %v into the breath, outside its part (%v)", l.Text, in, stage)
			}
			last = stage
		}
		spk.mu.Unlock()
		if fills < 2 || st.Phases[Breathing].Filled != fills {
			t.Errorf("%d lines filled in breathing, %d counted", fills, st.Phases[Breathing].Filled)
		}
		if f := measureFlow(spk, st); f.overPause > 10*time.Second {
			t.Errorf("a silence %v beyond its pause (%s line %d)", f.overPause, f.at.phase, f.at.index)
		}
	})
}
