package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// stutterGuide is a remote guide that says each of its lines three times:
// once as written, once word for word, once with small words changed.
type stutterGuide struct{ calls int }

func (g *stutterGuide) Name() string     { return "stutter" }
func (g *stutterGuide) Model() string    { return "stutter-1" }
func (g *stutterGuide) Provider() string { return "http://fake/v1#stutter-1" }

func (g *stutterGuide) Stream(_ context.Context, req Request) (Stream, error) {
	g.calls++
	var b strings.Builder
	for k := req.Spoken; k < max(req.Budget.WindDownAt, req.Spoken+2); k++ {
		line := fmt.Sprintf("Let the %s settle softly, call %d line %d", req.Phase, g.calls, k)
		fmt.Fprintf(&b, "%s. %s. %s now, yes. ", line, line, line)
	}
	return &chunkStream{text: b.String()}, nil
}

func TestARemoteGuideIsNotHeardSayingASentenceAgain(t *testing.T) {
	spk := newFakeSpeaker()
	e := newEngine(t, newSession(t, 5, ""), &stutterGuide{}, spk, nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range spk.Played() {
		key := strings.Join(telling(sayingWords(s)), " ")
		if seen[key] {
			t.Errorf("heard again: %q", s)
		}
		seen[key] = true
	}
	removed := 0
	for _, p := range e.Snapshot().Phases {
		removed += p.Removed
	}
	if len(seen) < 10 || removed < len(seen) {
		t.Errorf("%d lines heard, %d repeats removed: want each line once and its repeats counted", len(seen), removed)
	}
}

func TestNearlySame(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"Let your shoulders soften.", "Let your shoulders soften.", true},
		{"Let your shoulders soften.", "Let your shoulders soften now.", true},
		{"Let your shoulders soften.", "let your shoulders... soften!", true},
		{"Rest here softly, moment seven.", "Rest here softly, moment eight.", false},
		{"Breathe in for 4.", "Breathe in for 6.", false},
		{"Let your shoulders soften.", "Let your jaw soften.", false},
		{"Rest.", "Rest.", false}, // too short to count
	} {
		if got := nearlySame(sayingWords(c.a), sayingWords(c.b)); got != c.same {
			t.Errorf("nearlySame(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}
