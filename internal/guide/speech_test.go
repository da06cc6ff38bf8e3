package guide

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/lull-dev/lull/internal/speech"

	"github.com/lull-dev/lull/internal/engine"
)

// TestSpeechKeepsEveryBuiltinLine: the speech cleaner runs for every
// guide, so it must leave the built-in material exactly as written: each
// line alone, and whole sessions as the built-in guide streams them.
func TestSpeechKeepsEveryBuiltinLine(t *testing.T) {
	m := loadMaterial(t)
	seen := map[string]bool{}
	lines := everyLine(m)
	for _, q := range quoteLines(m) {
		lines = append(lines, q.text)
	}
	for _, l := range lines {
		if seen[l] {
			continue
		}
		seen[l] = true
		var sp speech.Speech
		got := append(sp.Feed(l), sp.Flush()...)
		if len(got) != 1 || got[0] != l {
			t.Errorf("%q is said as %q (removed %v)", l, got, sp.Removals())
		}
		if rs := sp.Removals(); len(rs) > 0 {
			t.Errorf("%q: removed %v", l, rs)
		}
	}
	if len(seen) < 1000 {
		t.Fatalf("only %d lines of material: the loader missed some", len(seen))
	}

	ctx := context.Background()
	for _, in := range sampleIntentions {
		for seed := range int64(3) {
			for _, sleep := range []bool{false, true} {
				b := NewBuiltin(m, Memory{})
				req := engine.Request{Intention: in, Seed: seed, Sleep: sleep, Breath: engine.DefaultBreath}
				for _, p := range engine.Phases {
					req.Phase, req.Spoken = p, 0
					req.Budget = engine.Budget{Sentences: 30, WindDownAt: 28}
					for _, wind := range []bool{false, true} {
						req.WindDown = wind
						want, err := b.Sentences(req)
						if err != nil {
							t.Fatal(err)
						}
						st, err := b.Stream(ctx, req)
						if err != nil {
							t.Fatal(err)
						}
						var sp speech.Speech
						var got []string
						for {
							chunk, err := st.Next(ctx)
							if errors.Is(err, io.EOF) {
								break
							}
							if err != nil {
								t.Fatal(err)
							}
							got = append(got, sp.Feed(chunk)...)
						}
						got = append(got, sp.Flush()...)
						if !slices.Equal(got, want) {
							t.Fatalf("%q seed %d sleep %v, %s: the cleaner says\n%q\nof\n%q", in, seed, sleep, p, got, want)
						}
						if rs := sp.Removals(); len(rs) > 0 {
							t.Errorf("%s: removed %v", p, rs)
						}
						for _, s := range want {
							req.History = append(req.History, engine.Entry{Phase: p, Role: engine.RoleGuide, Text: s})
							req.Spoken++
						}
					}
				}
			}
		}
	}
}
