package app

import (
	"fmt"

	"github.com/lull-dev/lull/internal/engine"
)

// practiceDefaults fills in what a breathing practice was not given: its
// length, its rhythm — the config's breathing rhythm, the one the guided
// breathing phase teaches too — and quiet around the tone, since a
// practice is the tone and the breath and nothing else unless the
// listener asks for a soundscape.
func (a *App) practiceDefaults(o *engine.Options) {
	if o.Practice == engine.PracticeSit {
		o.Voice = "none" // a sit says nothing; its soundscape is the config's unless asked
		return
	}
	if o.Practice != engine.PracticeBreathe {
		return
	}
	if o.Length == 0 {
		o.Length = engine.DefaultPracticeLength
	}
	if o.Pattern == "" {
		o.Pattern = a.opts.Config.Breathing.Pattern().Name()
	}
	if o.Soundscape == "" {
		o.Soundscape = "none"
	}
}

// sitAgain is the command that begins a sit like st: "sit 20 --bell 5m".
func sitAgain(st engine.State) string {
	cmd := "sit"
	if st.Length > 0 {
		cmd += fmt.Sprintf(" %d", int(st.Length.Minutes()))
	}
	if st.Pattern != "" {
		cmd += " --bell " + st.Pattern
	}
	return cmd
}

// wordless says a session's breathing practice speaks no cues: the
// listener chose no voice.
func wordless(st engine.State) bool { return st.Voice == "none" }

// wordsFor is who writes a session's words: a breathing practice has no
// words but its cues, and never calls a model, whatever the process's
// guide.
func wordsFor(st engine.State, ch GuideChoice) GuideChoice {
	if st.Practice != "" {
		ch.Guide = engine.GuideBuiltin
	}
	return ch
}
