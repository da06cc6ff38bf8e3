package llm

import (
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// used is what the session has already said that a call should not go
// back to, so a long phase moves on instead of looping: the body parts of
// this phase, and the images of the whole session.
func used(v *prompts.Vocabulary, req engine.Request) []string {
	var phase, session [][]int
	for _, l := range heard(req, v) {
		session = append(session, l.about)
		if l.phase == req.Phase {
			phase = append(phase, l.about)
		}
	}
	return append(v.Named(phase, true), v.Named(session, false)...)
}
