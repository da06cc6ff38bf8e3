package openaitest

import (
	"context"
	"time"
)

// Reasoning is how a reasoning model (o3, o4-mini, gpt-5) answers, set by
// SetReasoning. A Responses answer carries a reasoning item before its
// message (the message is then output 1), response.created echoes the
// request's reasoning settings (effort "medium" when none was asked, as
// the API's default), usage counts reasoning tokens in the output, and a
// request with "temperature" is refused with the recorded 400. A chat
// answer thinks between its role chunk and its first content chunk.
type Reasoning struct {
	// Think is how long the model thinks, after the reasoning item is
	// added (chat: after the role chunk), before its first text.
	Think time.Duration
	// Summary sends a reasoning summary delta this often while thinking
	// (chat: a delta with "reasoning_content", as DeepSeek's API and vLLM
	// stream a model's thinking); 0 thinks in silence, as OpenAI does when
	// no summary is asked for.
	Summary time.Duration
	// KeepAlive sends the SSE comment ": OPENROUTER PROCESSING" this often
	// while thinking, as OpenRouter does to keep a connection open; 0 sends
	// none.
	KeepAlive time.Duration
}

// reasoningTokens is what usage counts for a reasoning model's thinking.
const reasoningTokens = 128

// summaryText is what a reasoning summary says, in the recording's style.
const summaryText = "**Choosing the next lines**\n\nThe listener is settling, so the next sentences stay slow, plain and warm."

// SetReasoning makes the server a reasoning model; nil, the default,
// makes it an ordinary one.
func (s *Server) SetReasoning(r *Reasoning) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r == nil {
		s.reasoning = nil
		return
	}
	c := *r
	s.reasoning = &c
}

// reasoningMode is the current SetReasoning setting; nil when off.
func (s *Server) reasoningMode() *Reasoning {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reasoning == nil {
		return nil
	}
	c := *s.reasoning
	return &c
}

// think waits out a reasoning model's thinking, calling summary for each
// summary delta due and writing a keep-alive comment when one is due. It
// returns false when the client went away or the server is closing.
func (s *Server) think(ctx context.Context, out *stream, r Reasoning, summary func()) bool {
	begin := time.Now()
	end := begin.Add(r.Think)
	nextSummary, nextKeepAlive := begin.Add(r.Summary), begin.Add(r.KeepAlive)
	for {
		wake := end
		if r.Summary > 0 && nextSummary.Before(wake) {
			wake = nextSummary
		}
		if r.KeepAlive > 0 && nextKeepAlive.Before(wake) {
			wake = nextKeepAlive
		}
		if !s.pause(ctx, time.Until(wake)) || out.err != nil {
			return false
		}
		now := time.Now()
		if !now.Before(end) {
			return true
		}
		if r.Summary > 0 && !now.Before(nextSummary) {
			summary()
			nextSummary = nextSummary.Add(r.Summary)
		}
		if r.KeepAlive > 0 && !now.Before(nextKeepAlive) {
			out.comment("OPENROUTER PROCESSING")
			nextKeepAlive = nextKeepAlive.Add(r.KeepAlive)
		}
	}
}

// reasoningSettings is the "reasoning" object a reasoning model's response
// echoes: the request's effort and summary, effort "medium" by default.
func reasoningSettings(req *object) *object {
	asked, _ := req.get("reasoning").(*object)
	effort, summary := any("medium"), any(nil)
	if asked != nil {
		if e, ok := asked.get("effort").(string); ok {
			effort = e
		}
		if v, ok := asked.get("summary").(string); ok {
			summary = v
		}
	}
	return newObject().set("effort", effort).set("summary", summary)
}

// thinking streams the reasoning item of a Responses answer: added, its
// summary while the model thinks, done. It returns the finished item for
// the response's output, or nil when the client went away.
func (s *Server) thinking(ctx context.Context, out *stream, a *answer, r Reasoning) *object {
	rsID := "rs_" + randomHex(25)
	added := a.event(a.t.reasoningAdded)
	added.obj("item").set("id", rsID)
	out.event(added)
	var said []string
	summaryDeltas := deltas(summaryText)
	if r.Summary > 0 {
		part := a.event(a.t.summaryPartAdded)
		part.set("item_id", rsID)
		out.event(part)
	}
	ok := s.think(ctx, out, r, func() {
		d := summaryDeltas[len(said)%len(summaryDeltas)]
		said = append(said, d)
		e := a.event(a.t.summaryDelta).set("item_id", rsID).set("delta", d).set("obfuscation", obfuscation(d))
		if !obfuscate(a.req) {
			e.del("obfuscation")
		}
		out.event(e)
	})
	if !ok {
		return nil
	}
	item := a.t.reasoningDone.obj("item").clone()
	item.set("id", rsID).set("summary", []any{})
	if r.Summary > 0 {
		text := joined(said)
		out.event(a.event(a.t.summaryDone).set("item_id", rsID).set("text", text))
		partDone := a.event(a.t.summaryPartDone).set("item_id", rsID)
		partDone.obj("part").set("text", text)
		out.event(partDone)
		item.set("summary", []any{newObject().set("type", "summary_text").set("text", text)})
	}
	out.event(a.event(a.t.reasoningDone).set("item", item))
	return item
}
