package openaitest

import (
	"context"
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
	// reasoning is the server's reasoning mode, nil when off; cache the
	// input tokens its prompt cache holds.
	reasoning *Reasoning
	cache     int
}

// chat serves POST /v1/chat/completions.
func (s *Server) chat(w http.ResponseWriter, r *http.Request, body []byte) {
	req, model, f, ok := s.take(w, r, body)
	if !ok || s.refuse(w, req) {
		return
	}
	if f.kind == faultQuotaAtStart {
		writeJSON(w, http.StatusTooManyRequests, quotaBody(templates()))
		return
	}

	a := &chatAnswer{t: templates(), id: "chatcmpl-" + randomAlnum(29), model: model, created: time.Now().Unix(),
		reasoning: s.reasoningMode(), cache: s.cachedTokens()}
	if opts, ok := req.get("stream_options").(*object); ok {
		a.usage, _ = opts.get("include_usage").(bool)
	}
	a.pad = obfuscate(req)
	store, _ := req.get("store").(bool)
	call := Call{API: "chat", Model: model, Store: store, Schema: schemaName(req)}
	call.Instructions, call.Input = chatMessages(req.get("messages"))
	if s.overflowChat(w, call) {
		return
	}
	if f = s.stallFor(f, call); f.kind == faultNoAnswer {
		s.untilGone(r.Context())
		return
	}

	if streaming, _ := req.get("stream").(bool); !streaming {
		s.chatWhole(w, r, a, &call, f)
		return
	}
	out := startStream(w)
	out.data(a.chunk(a.t.chatRole))
	if s.stalled(r.Context(), out, f) {
		return
	}
	if a.reasoning != nil && !s.chatThinking(r.Context(), out, a) {
		return
	}
	ds, send := f.streamed(deltas(s.generate(&call)))
	content := func(d string) {
		c := a.t.chatContent.clone()
		a.choice(c).obj("delta").set("content", d)
		c.set("obfuscation", obfuscation(d))
		out.data(a.chunk(c))
	}
	if !s.paced(r.Context(), out, ds[:send], content) {
		return
	}
	switch f.kind {
	case faultEndless:
		s.endless(r.Context(), out, f.every, content)
		return
	case faultCut:
		return
	case faultErrorEvent, faultFlatErrorEvent:
		// Chat has no error event; the API sends an error object as a chunk.
		out.data(string(quotaBody(a.t).bytes()))
		return
	case faultServerErrorEvent:
		e := a.t.serverError.obj("error")
		msg, typ := e.get("message").(string), e.get("type").(string)
		out.data(string(apiError(msg, typ, nil, nil).bytes()))
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

func (a *chatAnswer) setUsage(o *object, call Call, completion int) {
	u := usageOf(call, completion, a.reasoning, a.cache)
	o.set("prompt_tokens", u.in).set("completion_tokens", u.out).set("total_tokens", u.in+u.out)
	o.obj("prompt_tokens_details").set("cached_tokens", u.cached)
	o.obj("completion_tokens_details").set("reasoning_tokens", u.reasoned)
}

// chatThinking streams a reasoning model's thinking before its content:
// "reasoning_content" deltas while it thinks (when Summary asks for
// them) and keep-alive comments. It returns false when the client went
// away.
func (s *Server) chatThinking(ctx context.Context, out *stream, a *chatAnswer) bool {
	thoughts := deltas(summaryText)
	n := 0
	return s.think(ctx, out, *a.reasoning, func() {
		c := a.t.chatContent.clone()
		d := thoughts[n%len(thoughts)]
		n++
		a.choice(c).set("delta", newObject().set("content", nil).set("reasoning_content", d))
		c.set("obfuscation", obfuscation(d))
		out.data(a.chunk(c))
	})
}

// chatWhole answers a request without "stream": true with a
// chat.completion object. No such answer is recorded in testdata: its
// shape is the API reference's, its usage the recorded chunk's.
func (s *Server) chatWhole(w http.ResponseWriter, r *http.Request, a *chatAnswer, call *Call, f Fault) {
	if s.stoppedWhole(w, r, f, a.t, a.model) {
		return
	}
	if a.reasoning != nil && !s.pause(r.Context(), a.reasoning.Think) {
		return
	}
	text := s.generate(call)
	switch text {
	case HangText:
		s.untilGone(r.Context())
		return
	case FailText:
		writeJSON(w, http.StatusInternalServerError, statusError(http.StatusInternalServerError, a.model))
		return
	}
	ds := deltas(text)
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
	if f.kind == faultNone && call.Schema == "" {
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

// schemaName is the name of the JSON schema a chat request's
// response_format asks for, "" when it asks for none.
func schemaName(req *object) string {
	rf, ok := req.get("response_format").(*object)
	if !ok {
		return ""
	}
	if typ, _ := rf.get("type").(string); typ != "json_schema" {
		return ""
	}
	js, ok := rf.get("json_schema").(*object)
	if !ok {
		return ""
	}
	name, _ := js.get("name").(string)
	return name
}
