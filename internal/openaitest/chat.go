package openaitest

import (
	"crypto/rand"
	"net/http"
	"time"
)

// chatAnswer is one Chat Completions answer being streamed.
type chatAnswer struct {
	t       *templateSet
	id      string
	model   string
	created int64
	usage   bool // stream_options.include_usage
	pad     bool // obfuscation padding (stream_options.include_obfuscation)
}

// chat serves POST /v1/chat/completions.
func (s *Server) chat(w http.ResponseWriter, r *http.Request, body []byte) {
	req, model, f, ok := s.take(w, r, body)
	if !ok {
		return
	}

	a := &chatAnswer{t: templates(), id: "chatcmpl-" + randomAlnum(29), model: model, created: time.Now().Unix()}
	if opts, ok := req.get("stream_options").(*object); ok {
		a.usage, _ = opts.get("include_usage").(bool)
	}
	a.pad = obfuscate(req)
	store, _ := req.get("store").(bool)
	call := Call{API: "chat", Model: model, Store: store}
	call.Instructions, call.Input = chatMessages(req.get("messages"))
	if s.overflowChat(w, call) {
		return
	}

	if streaming, _ := req.get("stream").(bool); !streaming {
		s.chatWhole(w, r, a, &call, f)
		return
	}
	out := startStream(w)
	out.data(a.chunk(a.t.chatRole))
	if f.kind == faultHang {
		s.untilGone(r.Context())
		return
	}
	ds := deltas(s.generate(&call))
	ttft, perToken := s.latency()
	send := len(ds)
	switch f.kind {
	case faultErrorEvent:
		send = min(2, send)
	case faultCut:
		send = min(f.deltas, send)
	case faultIncomplete:
		send = midSentence(ds)
	}
	for i, d := range ds[:send] {
		wait := perToken
		if i == 0 {
			wait = ttft
		}
		if !s.pause(r.Context(), wait) || out.err != nil {
			return
		}
		c := a.t.chatContent.clone()
		a.choice(c).obj("delta").set("content", d)
		c.set("obfuscation", obfuscation(d))
		out.data(a.chunk(c))
	}
	switch f.kind {
	case faultCut:
		return
	case faultErrorEvent:
		// Chat has no error event; the API sends an error object as a chunk.
		e := a.t.errorEvent.obj("error")
		out.data(string(apiError(e.get("message").(string), "insufficient_quota", nil, "insufficient_quota").bytes()))
		return
	}
	finish := a.t.chatFinish.clone()
	if f.kind == faultIncomplete {
		a.choice(finish).set("finish_reason", "length")
	}
	if f.kind == faultNone {
		s.succeeded() // before the last chunk: the client may ask again at once
	}
	out.data(a.chunk(finish))
	if a.usage {
		u := a.t.chatUsage.clone()
		a.setUsage(u.obj("usage"), call, send)
		out.data(a.chunk(u))
	}
	out.data("[DONE]")
}

// chunk fills in a recorded chunk's id, time and model. Without
// include_usage the "usage": null field is left out.
func (a *chatAnswer) chunk(tmpl *object) string {
	c := tmpl.clone()
	c.set("id", a.id).set("created", a.created).set("model", a.model)
	if !a.usage {
		c.del("usage")
	}
	if !a.pad {
		c.del("obfuscation")
	}
	return string(c.bytes())
}

func (a *chatAnswer) choice(c *object) *object { return c.list("choices")[0].(*object) }

func (a *chatAnswer) setUsage(u *object, call Call, completion int) {
	prompt := estimateTokens(call.prompt()...)
	u.set("prompt_tokens", prompt).set("completion_tokens", completion).set("total_tokens", prompt+completion)
}

// chatWhole answers a request without "stream": true with a
// chat.completion object. No such answer is recorded in testdata: its
// shape is the API reference's, its usage the recorded chunk's.
func (s *Server) chatWhole(w http.ResponseWriter, r *http.Request, a *chatAnswer, call *Call, f Fault) {
	switch f.kind {
	case faultHang:
		s.untilGone(r.Context())
		return
	case faultCut:
		hangUp(w)
		return
	case faultErrorEvent:
		e := a.t.errorEvent.obj("error")
		writeJSON(w, http.StatusTooManyRequests, apiError(e.get("message").(string), "insufficient_quota", nil, "insufficient_quota"))
		return
	}
	ds := deltas(s.generate(call))
	send, reason := len(ds), "stop"
	if f.kind == faultIncomplete {
		send, reason = midSentence(ds), "length"
	}
	message := newObject().set("role", "assistant").set("content", joined(ds[:send])).
		set("refusal", nil).set("annotations", []any{})
	choice := newObject().set("index", 0).set("message", message).set("logprobs", nil).set("finish_reason", reason)
	usage := a.t.chatUsage.obj("usage").clone()
	a.setUsage(usage, *call, send)
	body := newObject().set("id", a.id).set("object", "chat.completion").set("created", a.created).
		set("model", a.model).set("choices", []any{choice}).set("usage", usage).
		set("service_tier", a.t.chatRole.get("service_tier")).
		set("system_fingerprint", a.t.chatRole.get("system_fingerprint"))
	if f.kind == faultNone {
		s.succeeded()
	}
	writeJSON(w, http.StatusOK, body)
}

// randomAlnum is a random id body like the API's ("Dx0Xq5Xx9rHB2…").
func randomAlnum(n int) string {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = chars[int(b[i])%len(chars)]
	}
	return string(b)
}
