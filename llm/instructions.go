package llm

import (
	"strconv"
	"strings"

	"lull/engine"
	"lull/prompts"
)

// turn is one message of a call's input.
type turn struct {
	role string // "user" or "assistant"
	text string
}

// instructions are one call's system prompt, resent with every call (they
// do not carry over a chain): safety, persona, "you are NOW in this
// phase", the phase's guidance, the sealed intention, how much to write and,
// near the phase's budget, the hint that leads onward.
func (g *Guide) instructions(req engine.Request) string {
	p := g.prompts
	ph, _ := p.Phase(req.Phase.String())
	name := req.Phase.String()
	var b strings.Builder
	section := func(title, text string) {
		text = strings.TrimSpace(text)
		if text == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		if title != "" {
			b.WriteString(title)
			b.WriteString(":\n")
		}
		b.WriteString(text)
	}
	section("", p.Safety)
	section("", p.Persona)
	section("", "CURRENT PHASE: "+strings.ToUpper(name)+"\nYou are NOW in the "+name+" phase. Your only focus: "+strings.TrimSpace(ph.Focus))
	section("TONE", ph.Tone)
	section("PACING", ph.Pacing)
	section("GUIDANCE", ph.Guidance)
	section("AVOID", ph.Avoid)
	if req.Intention != "" {
		section("INTENTION", prompts.Fill(p.Intention, map[string]string{"intention": req.Intention}))
	}
	section("LENGTH", prompts.Fill(p.Length, map[string]string{"sentences": strconv.Itoa(sentencesFor(req))}))
	if req.WindDown {
		section("TRANSITION", ph.WindDown)
	}
	return b.String()
}

// sentencesFor is how many sentences one call asks for: the body in
// pieces of at most maxPerCall, the wind-down whole.
func sentencesFor(req engine.Request) int {
	b := req.Budget
	var n int
	if req.WindDown {
		n = b.Sentences - req.Spoken
		if req.Phase == engine.Resolution {
			n = max(n, 6) // grounding is never cut short
		}
	} else {
		n = b.WindDownAt - req.Spoken
	}
	return min(max(n, 2), maxPerCall)
}

// maxPerCall keeps calls short, so a failure costs little and each call's
// instructions stay close to where the phase stands.
const maxPerCall = 10

// message is the user input that asks for this call's words.
func (g *Guide) message(req engine.Request) string {
	p := g.prompts
	vars := map[string]string{"phase": req.Phase.String()}
	switch {
	case !saidAnything(req) && req.Chain == "" && req.Phase == engine.Atmosphere:
		return p.Begin
	case req.Spoken == 0:
		return prompts.Fill(p.Enter, vars)
	default:
		return prompts.Fill(p.Continue, vars)
	}
}

func saidAnything(req engine.Request) bool {
	if len(req.Pending) > 0 {
		return true
	}
	for _, e := range req.History {
		if e.Role == engine.RoleGuide {
			return true
		}
	}
	return false
}

// chainedTurns continue a stored response: what was said that it does not
// hold, then the request. The first chained call of a run — a resumed
// session, or a retry after a failure — also says what the listener last
// heard: the stored response may hold words that were never spoken.
func (g *Guide) chainedTurns(req engine.Request) []turn {
	var out []turn
	if len(req.Unchained) > 0 {
		out = append(out, turn{role: "assistant", text: strings.Join(req.Unchained, " ")})
	}
	msg := g.message(req)
	if heard := lastHeard(req, 2); heard != "" && g.recapNext.Swap(false) {
		msg += "\n\n" + prompts.Fill(g.prompts.Recap, map[string]string{"recap": heard})
	}
	return append(out, turn{role: "user", text: msg})
}

// lastHeard is the last n sentences said, pending ones included.
func lastHeard(req engine.Request, n int) string {
	said := append([]string(nil), req.Pending...)
	for i := len(req.History) - 1; i >= 0 && len(said) < n; i-- {
		if e := req.History[i]; e.Role == engine.RoleGuide {
			said = append([]string{e.Text}, said...)
		}
	}
	return strings.Join(said[max(0, len(said)-n):], " ")
}

// historyTurns retell the whole session for a call with no stored memory:
// the same user inputs the chained calls had, and what was spoken after
// each, then the request. Errors and notes in the history are not the
// model's business; the intention is in the instructions.
func (g *Guide) historyTurns(req engine.Request) []turn {
	p := g.prompts
	var out []turn
	var said []string
	phase := engine.Phase(-1)
	flush := func() {
		if len(said) > 0 {
			out = append(out, turn{role: "assistant", text: strings.Join(said, " ")})
			said = nil
		}
	}
	enter := func(ph engine.Phase) {
		flush()
		if phase < 0 {
			out = append(out, turn{role: "user", text: p.Begin})
		} else {
			out = append(out, turn{role: "user", text: prompts.Fill(p.Enter, map[string]string{"phase": ph.String()})})
		}
		phase = ph
	}
	for _, e := range req.History {
		if e.Role != engine.RoleGuide {
			continue
		}
		if e.Phase != phase {
			enter(e.Phase)
		}
		said = append(said, e.Text)
	}
	if len(req.Pending) > 0 {
		if req.Phase != phase {
			enter(req.Phase)
		}
		said = append(said, req.Pending...)
	}
	flush()
	if len(out) == 0 {
		return []turn{{role: "user", text: p.Begin}}
	}
	return append(out, turn{role: "user", text: g.message(req)})
}
