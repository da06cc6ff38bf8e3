package guide

import (
	"slices"
	"strings"

	"github.com/lull-dev/lull/internal/engine"
)

var _ engine.Outliner = (*Builtin)(nil)

// Outline is the session's journey as this guide lays it out, for a
// guide that writes freely (a model) to keep to the same path: the
// journey's title and what it does, and the phase's steps in their order,
// the lead last, each as a short phrase ("where it arrives", "calves and
// knees"). The material names its steps; a step without a name is left
// out.
func (b *Builtin) Outline(req engine.Request) engine.Outline {
	if !req.Phase.Valid() {
		return engine.Outline{}
	}
	j := b.session(req).journey
	o := engine.Outline{Journey: j.Title, About: j.About}
	pp := b.plan(req)
	for _, it := range append(slices.Clip(pp.steps), pp.lead...) {
		if p := stepPhrase(it.key); p != "" && !slices.Contains(o.Steps, p) {
			o.Steps = append(o.Steps, p)
		}
	}
	return o
}

// stepPhrase is a step's name read as words: "journey/where-it-arrives"
// is "where it arrives"; the intention's step is the listener's.
func stepPhrase(key string) string {
	name := key[strings.LastIndex(key, "/")+1:]
	switch {
	case name == intentionKey:
		return "what the listener came for"
	case name == "" || strings.HasPrefix(name, "·"):
		return "" // a step the material did not name
	}
	return strings.ReplaceAll(name, "-", " ")
}
