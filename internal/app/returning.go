package app

import (
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// welcomeLine is the line that welcomes the listener back into phase p of
// a resumed session (prompts/guide/returning.yaml), a different variant
// each run.
func welcomeLine(p engine.Phase, sleep bool, runs int) string {
	r, err := prompts.ReturningLines()
	if err != nil {
		return "" // a test reads the material: a resume goes straight on
	}
	kind := "waking"
	if sleep {
		kind = "sleep"
	}
	lines := r[kind][p.String()]
	if len(lines) == 0 {
		return ""
	}
	return lines[runs%len(lines)]
}
