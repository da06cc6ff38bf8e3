package guide

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode"

	"lull/engine"
	"lull/prompts"
)

// tenMinutes are a ten-minute session's budgets, roughly as the engine
// plans them.
var tenMinutes = [len(engine.Phases)]engine.Budget{
	{Sentences: 9, WindDownAt: 7},
	{Sentences: 13, WindDownAt: 11},
	{Sentences: 20, WindDownAt: 17},
	{Sentences: 13, WindDownAt: 11},
	{Sentences: 10, WindDownAt: 8},
}

// anHour is near the most a phase can be given: close to capacity.
var anHour = [len(engine.Phases)]engine.Budget{
	{Sentences: 60, WindDownAt: 57},
	{Sentences: 85, WindDownAt: 82},
	{Sentences: 90, WindDownAt: 87},
	{Sentences: 95, WindDownAt: 92},
	{Sentences: 40, WindDownAt: 38},
}

var intentions = []string{"", "sleep", "calm before a talk", "letting go of a hard week."}

func newGuide(t *testing.T) *Builtin {
	t.Helper()
	g, err := DefaultBuiltin(Memory{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func material(t *testing.T, p engine.Phase) *prompts.Phase {
	t.Helper()
	m, err := prompts.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	pm, _ := m.Phase(p.String())
	return pm
}

// drain reads a stream to its end and returns the pieces.
func drain(t *testing.T, st engine.Stream) []string {
	t.Helper()
	defer st.Close()
	var out []string
	for {
		piece, err := st.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, piece)
	}
}

// sentences splits streamed text back into its lines: each ends with "."
// or "?" and a space or the end; "..." before a lowercase word flows on.
func sentences(text string) []string {
	var out []string
	r := []rune(text)
	start := 0
	for i := 0; i < len(r); i++ {
		if r[i] != '.' && r[i] != '?' {
			continue
		}
		j := i + 1
		for j < len(r) && r[j] == '.' {
			j++
		}
		if j < len(r) && r[j] != ' ' {
			continue
		}
		if j-i >= 3 && j+1 < len(r) && unicode.IsLower(r[j+1]) {
			i = j - 1
			continue // an ellipsis that flows on
		}
		out = append(out, string(r[start:j]))
		start = j + 1
		i = j
	}
	if start < len(r) {
		out = append(out, string(r[start:]))
	}
	return out
}

// ask makes one call and returns its sentences.
func ask(t *testing.T, g *Builtin, req engine.Request) []string {
	t.Helper()
	st, err := g.Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return sentences(strings.Join(drain(t, st), ""))
}

// call is one request of a simulated session and what it said.
type call struct {
	req  engine.Request
	said []string
}

// session runs a whole session the way the engine asks: body calls until
// the body is full or the guide has nothing more, then the wind-down;
// every sentence is spoken and goes into History.
func session(t *testing.T, g *Builtin, seed int64, intention string, budgets [len(engine.Phases)]engine.Budget) []call {
	t.Helper()
	var history []engine.Entry
	if intention != "" {
		history = append(history, engine.Entry{Role: engine.RoleUser, Text: intention})
	}
	var calls []call
	for _, p := range engine.Phases {
		b := budgets[p]
		spoken := 0
		do := func(windDown bool) int {
			req := engine.Request{Phase: p, WindDown: windDown, Budget: b, Spoken: spoken,
				Intention: intention, Seed: seed, History: slices.Clone(history)}
			got := ask(t, g, req)
			calls = append(calls, call{req, got})
			for _, s := range got {
				history = append(history, engine.Entry{Phase: p, Role: engine.RoleGuide, Text: s})
			}
			spoken += len(got)
			return len(got)
		}
		for spoken < b.WindDownAt && do(false) > 0 {
		}
		do(true)
	}
	return calls
}

func said(calls []call, keep func(call) bool) []string {
	var out []string
	for _, c := range calls {
		if keep == nil || keep(c) {
			out = append(out, c.said...)
		}
	}
	return out
}

func TestSameRequestSameText(t *testing.T) {
	g := newGuide(t)
	calls := session(t, g, 42, "calm before a talk", tenMinutes)
	for _, c := range calls {
		st1, _ := g.Stream(context.Background(), c.req)
		st2, _ := g.Stream(context.Background(), c.req)
		a, b := drain(t, st1), drain(t, st2)
		if !slices.Equal(a, b) {
			t.Fatalf("%s: the same request streamed %q then %q", c.req.Phase, a, b)
		}
	}
	again := session(t, g, 42, "calm before a talk", tenMinutes)
	if !slices.Equal(said(calls, nil), said(again, nil)) {
		t.Fatal("the same seed gave a different session")
	}
}

func TestSeedsMakeDifferentSessions(t *testing.T) {
	g := newGuide(t)
	for _, intention := range intentions {
		a := said(session(t, g, 7, intention, tenMinutes), nil)
		b := said(session(t, g, 8, intention, tenMinutes), nil)
		shared := 0
		for _, s := range a {
			if slices.Contains(b, s) {
				shared++
			}
		}
		if shared*2 >= len(a) {
			t.Errorf("intention %q: seeds 7 and 8 share %d of %d sentences", intention, shared, len(a))
		}
	}
}

func TestNothingRepeatsInASession(t *testing.T) {
	g := newGuide(t)
	for _, budgets := range [][len(engine.Phases)]engine.Budget{tenMinutes, anHour} {
		for seed := range int64(40) {
			intention := intentions[seed%int64(len(intentions))]
			seen := map[string]bool{}
			for _, s := range said(session(t, g, seed, intention, budgets), nil) {
				if seen[s] {
					t.Fatalf("seed %d: %q said twice", seed, s)
				}
				seen[s] = true
			}
		}
	}
}

func TestCallsSayWhatTheBudgetAsks(t *testing.T) {
	g := newGuide(t)
	for seed := range int64(20) {
		for _, c := range session(t, g, seed, intentions[seed%4], tenMinutes) {
			r, b := c.req, c.req.Budget
			var want int
			switch {
			case r.Phase == engine.Resolution && r.WindDown:
				want = 2 // eyes open, warm close
			case r.Phase == engine.Resolution:
				want = max(b.WindDownAt-r.Spoken, 0)
			case r.WindDown:
				want = max(1, b.Sentences-r.Spoken)
			default:
				want = max(b.WindDownAt-r.Spoken, 0)
			}
			if len(c.said) != want {
				t.Errorf("seed %d %s (wind-down %v, spoken %d): %d sentences, want %d",
					seed, r.Phase, r.WindDown, r.Spoken, len(c.said), want)
			}
		}
	}
}

func TestEverySentenceIsSafeAndWhole(t *testing.T) {
	g := newGuide(t)
	safety := engine.DefaultSafety()
	for seed := range int64(20) {
		for _, c := range session(t, g, seed, intentions[seed%4], anHour) {
			text := strings.Join(c.said, " ")
			var sp engine.Splitter
			if heard := append(sp.Feed(text), sp.Flush()...); !slices.Equal(heard, c.said) && len(c.said) > 0 {
				t.Fatalf("the engine hears %q, the guide meant %q", heard, c.said)
			}
			for _, s := range c.said {
				if v := safety.Check(s); v.Flagged() {
					t.Errorf("%q flagged: %s", s, v.Rule)
				}
			}
		}
	}
}

func TestWindDownLinesOnlyInWindDownCalls(t *testing.T) {
	g := newGuide(t)
	closing := material(t, engine.Resolution).Grounding
	for seed := range int64(20) {
		for _, c := range session(t, g, seed, intentions[seed%4], tenMinutes) {
			m := material(t, c.req.Phase)
			lead := m.WindDown
			if c.req.Phase == engine.Resolution {
				lead = slices.Concat(closing.EyesOpen, closing.WarmClose)
			}
			for _, s := range c.said {
				if slices.Contains(lead, s) != c.req.WindDown {
					t.Errorf("seed %d %s (wind-down %v): %q", seed, c.req.Phase, c.req.WindDown, s)
				}
			}
		}
	}
}

func TestPhasesBeginWithAnOpening(t *testing.T) {
	g := newGuide(t)
	for seed := range int64(20) {
		for _, c := range session(t, g, seed, intentions[seed%4], tenMinutes) {
			if c.req.Spoken == 0 && !c.req.WindDown {
				if first := c.said[0]; !slices.Contains(material(t, c.req.Phase).Opening, first) {
					t.Errorf("seed %d: %s begins with %q", seed, c.req.Phase, first)
				}
			}
		}
	}
}

func TestIntentionComesEarly(t *testing.T) {
	g := newGuide(t)
	calls := session(t, g, 3, "sleep", tenMinutes)
	for _, c := range calls {
		if c.req.WindDown {
			continue
		}
		i := slices.IndexFunc(c.said, func(s string) bool { return strings.Contains(s, "sleep") })
		if i < 0 || i > 2 {
			t.Errorf("%s: the intention is sentence %d of the body %q", c.req.Phase, i, c.said)
		}
	}
}

// TestReadAheadIsNotRepeated: the engine asks again while the last
// sentence of a call is still playing, so it is counted in Spoken but not
// yet in History. The guide must not say it twice.
func TestReadAheadIsNotRepeated(t *testing.T) {
	g := newGuide(t)
	for _, p := range engine.Phases {
		for seed := range int64(20) {
			b := engine.Budget{Sentences: 9, WindDownAt: 5}
			req := engine.Request{Phase: p, Budget: b, Intention: "sleep", Seed: seed}
			first := ask(t, g, req)
			playing := first[len(first)-1]
			for _, s := range first[:len(first)-1] {
				req.History = append(req.History, engine.Entry{Phase: p, Role: engine.RoleGuide, Text: s})
			}
			req.Spoken = len(first)
			grown := req
			grown.Budget = engine.Budget{Sentences: 12, WindDownAt: 8} // the clock gave the phase more
			lead := req
			lead.WindDown = true
			for _, next := range []engine.Request{grown, lead} {
				if got := ask(t, g, next); slices.Contains(got, playing) {
					t.Errorf("%s seed %d (wind-down %v): %q said again while it plays", p, seed, next.WindDown, playing)
				}
			}
		}
	}
}

func TestSensoryScansUpTheBody(t *testing.T) {
	g := newGuide(t)
	lines := material(t, engine.Sensory).Lines
	for seed := range int64(10) {
		got := ask(t, g, engine.Request{Phase: engine.Sensory, Budget: tenMinutes[engine.Sensory], Seed: seed})
		at := -1
		for _, s := range got {
			i := slices.Index(lines, s)
			if i < at {
				t.Errorf("seed %d: %q comes after a line written below it", seed, s)
			}
			at = i
		}
	}
}

func TestCapacity(t *testing.T) {
	g := newGuide(t)
	for _, p := range engine.Phases {
		m := material(t, p)
		want := 1 + len(m.Lines) + len(m.WindDown) // one opening
		if p == engine.Resolution {
			want += 5
		}
		if got := g.Capacity(p, ""); got != want {
			t.Errorf("%s: capacity %d, want %d", p, got, want)
		}
		if got := g.Capacity(p, "sleep"); got != want+1 {
			t.Errorf("%s with an intention: capacity %d, want %d", p, got, want+1)
		}
	}
	if got := g.Capacity(engine.Phase(9), ""); got != 0 {
		t.Errorf("unknown phase: capacity %d", got)
	}
	// A phase budgeted to its capacity says that much without repeating.
	for _, p := range engine.Phases[:4] {
		n := g.Capacity(p, "sleep")
		budgets := tenMinutes
		budgets[p] = engine.Budget{Sentences: n, WindDownAt: n - len(material(t, p).WindDown)}
		got := said(session(t, g, 5, "sleep", budgets), func(c call) bool { return c.req.Phase == p })
		if len(got) != n {
			t.Errorf("%s at capacity %d said %d", p, n, len(got))
		}
	}
}

func TestStreamsInSmallPieces(t *testing.T) {
	g := newGuide(t)
	req := engine.Request{Phase: engine.Breathing, Budget: tenMinutes[engine.Breathing], Seed: 1, Intention: "sleep"}
	st, err := g.Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	pieces := drain(t, st)
	whole, _ := g.Sentences(req)
	if text := strings.Join(pieces, ""); text != strings.Join(whole, " ") {
		t.Fatalf("the stream says %q, want the sentences joined by single spaces", text)
	}
	if len(pieces) < 2*len(whole) {
		t.Errorf("%d pieces for %d sentences: too coarse", len(pieces), len(whole))
	}
	split := false
	for _, p := range pieces {
		if len(strings.Fields(p)) > 3 {
			t.Errorf("piece %q is more than a few words", p)
		}
		split = split || !strings.HasSuffix(p, " ") && !strings.HasSuffix(p, ".") && !strings.HasSuffix(p, "?")
	}
	if !split {
		t.Error("no piece ends inside a word")
	}
}

func TestCancelledContext(t *testing.T) {
	g := newGuide(t)
	ctx, cancel := context.WithCancel(context.Background())
	req := engine.Request{Phase: engine.Atmosphere, Budget: tenMinutes[0], Seed: 1}
	st, err := g.Stream(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Next(ctx); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := st.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Next after cancel: %v, want context.Canceled", err)
	}
	if _, err := g.Stream(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("Stream after cancel: %v, want context.Canceled", err)
	}
}

func TestClosedStreamEnds(t *testing.T) {
	g := newGuide(t)
	st, _ := g.Stream(context.Background(), engine.Request{Phase: engine.Atmosphere, Budget: tenMinutes[0]})
	st.Close()
	if _, err := st.Next(context.Background()); !errors.Is(err, io.EOF) {
		t.Errorf("Next after Close: %v, want io.EOF", err)
	}
}

func TestMissingMaterial(t *testing.T) {
	g := NewBuiltin(&prompts.Material{})
	if _, err := g.Stream(context.Background(), engine.Request{Phase: engine.Breathing}); err == nil {
		t.Error("a phase without material streamed")
	}
	if n := g.Capacity(engine.Breathing, ""); n != 0 {
		t.Errorf("capacity without material: %d", n)
	}
}

func TestUnknownPhase(t *testing.T) {
	g := newGuide(t)
	if _, err := g.Stream(context.Background(), engine.Request{Phase: engine.Phase(7)}); err == nil {
		t.Error("an unknown phase streamed")
	}
}

func TestSentenceHelperAgreesWithTheEngine(t *testing.T) {
	g := newGuide(t)
	for _, c := range session(t, g, 9, "sleep", anHour) {
		var sp engine.Splitter
		text := strings.Join(c.said, " ")
		if heard := append(sp.Feed(text), sp.Flush()...); len(c.said) > 0 && !slices.Equal(heard, sentences(text)) {
			t.Fatalf("helper %q, engine %q", sentences(text), heard)
		}
	}
}
