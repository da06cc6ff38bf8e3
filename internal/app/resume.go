package app

import (
	"fmt"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/sessions"
)

// resumeChoice is who goes on with a session: the guide, model and server
// of its last run, so that a session begun on the built-in guide never
// sends its words to a provider unasked, and one on a chosen model stays
// on it. The listener moves a session with --guide or --model (Asked), or
// the m switch. The notice, when not empty, says why a session does not
// go on where it was.
func (a *App) resumeChoice(st engine.State) (GuideChoice, string) {
	ch := a.opts.Guide
	if ch.Asked || st.Guide == "" {
		return ch, ""
	}
	if st.Guide != engine.GuideOpenAI {
		ch.Guide = st.Guide
		return ch, ""
	}
	ch.Guide = engine.GuideOpenAI
	if st.Model != "" {
		ch.LLM.Model = st.Model
	}
	if st.Server == "" { // written before lull kept the server: the one set up now
		return ch, ""
	}
	if p, ok := ch.provider(st.Server); ok {
		return ch.at(p), ""
	}
	ch.Guide = engine.GuideBuiltin
	return ch, fmt.Sprintf("This session was written by %s at %s, which is not set up here: the built-in guide goes on with it. To move it, resume with --guide openai.",
		st.Model, serverName(st.Server))
}

// ResumesOn says who a resume of the session will be written by, as the
// list shows it: "built-in guide", or a model at its server.
func (a *App) ResumesOn(in sessions.Info) string {
	st := engine.State{Guide: in.Guide, Model: in.Model, Server: in.Server, Practice: in.Practice}
	ch, _ := a.resumeChoice(st)
	ch = wordsFor(st, ch)
	if ch.Guide != engine.GuideOpenAI {
		return "built-in guide"
	}
	return orText(ch.LLM.Model, llm.DefaultModel) + " at " + serverName(ch.LLM.BaseURL)
}
