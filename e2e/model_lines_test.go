//go:build unix

package e2e

import (
	"slices"
	"strings"
	"sync"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/safety"
)

// modelLines are what the fake model writes, by phase: lines of the
// built-in material. People wrote and reviewed them, so the real safety
// screen passes every one however its classifier is retrained, and a test
// can tell a model's line from anything else the listener might hear.
var modelLines = sync.OnceValue(func() map[engine.Phase][]string {
	examples, err := safety.BuiltinExamples()
	if err != nil {
		panic(err)
	}
	out := map[engine.Phase][]string{}
	seen := map[string]bool{}
	for _, e := range examples {
		// Waking lines of some length, with no counts: the engine paces
		// a remote guide's breath cues, and lull keeps near-repeats out.
		if e.At.Sleep || len(strings.Fields(e.Text)) < 7 || strings.ContainsAny(e.Text, "0123456789") || seen[e.Text] {
			continue
		}
		seen[e.Text] = true
		out[e.At.Phase] = append(out[e.At.Phase], e.Text)
	}
	return out
})

// modelLine is the fake model's line i of call n in a phase: a call takes
// lines a stride apart from the one before, so no line comes twice in a
// session of the calls tests make.
func modelLine(phase engine.Phase, call, i int) string {
	pool := modelLines()[phase]
	return pool[(call*16+i)%len(pool)]
}

// isModelLine reports whether s is a line the fake model writes.
func isModelLine(s string) bool {
	for _, pool := range modelLines() {
		if slices.Contains(pool, s) {
			return true
		}
	}
	return false
}
