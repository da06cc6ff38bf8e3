package guide

import (
	"strings"
	"testing"

	"lull/engine"
)

func TestIntentionWovenOncePerPhase(t *testing.T) {
	g := newGuide(t)
	for seed := range int64(20) {
		for _, intention := range intentions {
			calls := session(t, g, seed, intention, tenMinutes)
			for _, p := range engine.Phases {
				n := 0
				for _, s := range said(calls, func(c call) bool { return c.req.Phase == p }) {
					if intention != "" && strings.Contains(s, "a hard week..") {
						t.Errorf("the intention's full stop was kept: %q", s)
					}
					if intention != "" && strings.Contains(s, strings.TrimSuffix(intention, ".")) {
						n++
					}
				}
				want := 0
				if intention != "" {
					want = 1
				}
				if n != want {
					t.Errorf("seed %d, intention %q, %s: woven %d times, want %d", seed, intention, p, n, want)
				}
			}
		}
	}
}

func TestIntentionIsCleaned(t *testing.T) {
	for in, want := range map[string]string{
		"  calm before a talk.  ":    "calm before a talk",
		"sleep!":                     "sleep",
		"letting go\nof a hard week": "letting go of a hard week",
		"rest. then work":            "rest, then work",
		"...":                        "",
	} {
		if got := cleanIntention(in); got != want {
			t.Errorf("cleanIntention(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOddIntentions: whatever the listener writes, the intention line
// stays one sentence and the body one call long.
func TestOddIntentions(t *testing.T) {
	g := newGuide(t)
	for _, in := range []string{"sleep. And then? rest!", "a cure for stress", "Calm before my talk at 9.30 a.m.", "“peace”", "a chat with Dr"} {
		for _, p := range engine.Phases {
			req := engine.Request{Phase: p, Budget: tenMinutes[p], Seed: 2, Intention: in}
			whole, _ := g.Sentences(req)
			var sp engine.Splitter
			heard := append(sp.Feed(strings.Join(whole, " ")), sp.Flush()...)
			if len(heard) != len(whole) {
				t.Errorf("intention %q, %s: the engine hears %d sentences of %d: %q", in, p, len(heard), len(whole), heard)
			}
		}
	}
}
