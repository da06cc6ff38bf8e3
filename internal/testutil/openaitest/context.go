package openaitest

import (
	"fmt"
	"net/http"
)

// A model reads at most its context window: a request whose prompt is
// longer is refused, as the real servers refuse it, with the error code
// context_length_exceeded.
//
// The shapes are the ones clients report from OpenAI: a streaming
// /v1/responses request gets HTTP 200, response.created and
// response.in_progress, then an `error` event with the nested error object
// (sequence_number 2, "param": "input") and response.failed; without
// "stream" it is an HTTP 400 with the same error. Chat Completions answers
// HTTP 400 "This model's maximum context length is N tokens. However, your
// messages resulted in M tokens…", "param": "messages".

// overflowMessage is what /v1/responses says.
const overflowMessage = "Your input exceeds the context window of this model. Please adjust your input and try again."

// SetContextWindow makes the server a model that reads at most n tokens
// of prompt: a /v1/responses or /v1/chat/completions request whose
// instructions, chained history and input come to more (estimated as the
// usage figures are, about four characters a token) is refused with
// context_length_exceeded. n <= 0, the default, has no limit. A queued
// fault is served first.
func (s *Server) SetContextWindow(n int) { set(s, &s.window, max(n, 0)) }

// Overflows returns how many requests were refused for their length.
func (s *Server) Overflows() int { return get(s, &s.overflows) }

// tooLong reports whether a call's prompt exceeds the window, counting it.
func (s *Server) tooLong(c Call) (tokens, window int, over bool) {
	tokens = estimateTokens(c.prompt()...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.window > 0 && tokens > s.window {
		s.overflows++
		return tokens, s.window, true
	}
	return tokens, s.window, false
}

// overflowResponses refuses a /v1/responses request that is too long,
// and reports whether it did.
func (s *Server) overflowResponses(w http.ResponseWriter, a *answer) bool {
	if _, _, over := s.tooLong(a.call); !over {
		return false
	}
	e := newObject().set("type", "invalid_request_error").set("code", "context_length_exceeded").
		set("message", overflowMessage).set("param", "input")
	if streaming, _ := a.req.get("stream").(bool); !streaming {
		writeJSON(w, http.StatusBadRequest, newObject().set("error", e))
		return true
	}
	s.mu.Lock()
	s.created = append(s.created, a.id)
	s.mu.Unlock()
	out := startStream(w)
	out.event(a.event(a.t.created).set("response", a.response(a.t.created, "in_progress")))
	out.event(a.event(a.t.inProgress).set("response", a.response(a.t.inProgress, "in_progress")))
	out.event(a.event(a.t.errorEvent).set("error", e))
	failed := a.response(a.t.failed, "failed")
	failed.set("error", newObject().set("code", "context_length_exceeded").set("message", overflowMessage))
	out.event(a.event(a.t.failed).set("response", failed))
	return true
}

// overflowChat refuses a /v1/chat/completions request that is too long,
// and reports whether it did.
func (s *Server) overflowChat(w http.ResponseWriter, c Call) bool {
	tokens, window, over := s.tooLong(c)
	if !over {
		return false
	}
	msg := fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", window, tokens)
	writeJSON(w, http.StatusBadRequest, apiError(msg, "invalid_request_error", "messages", "context_length_exceeded"))
	return true
}
