package openaitest

import (
	"net/http"
	"slices"
	"strings"
	"time"
)

// badJSON is what the API answers to a body that is not JSON.
const badJSON = "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)"

// echoed are the request fields the API repeats in its response object
// (instructions, previous_response_id, store and model are set apart).
var echoed = []string{
	"temperature", "top_p", "max_output_tokens", "max_tool_calls", "metadata",
	"parallel_tool_calls", "tool_choice", "tools", "truncation", "user",
	"safety_identifier", "prompt_cache_key",
}

// answer is one Responses answer being streamed.
type answer struct {
	t        *templateSet
	req      *object
	call     Call
	previous any // the echoed previous_response_id: the id, or nil when absent or ignored
	id       string
	itemID   string
	created  int64
	seq      int
	deltas   []string
	// A reasoning model's answer: its mode, the finished reasoning item,
	// and the output index of the message after it.
	reasoning     *Reasoning
	reasoningItem *object
	msgIndex      int
	cache         int // input tokens the prompt cache holds (SetCachedTokens)
}

// take begins a generation request: it parses the body and takes the next
// fault, which must be served before the body is judged (a queued 429
// answers even a malformed request). It reports whether the caller should
// go on and answer.
func (s *Server) take(w http.ResponseWriter, r *http.Request, body []byte) (req *object, model string, f Fault, ok bool) {
	req, parseErr := parseObject(body)
	if req == nil {
		req = newObject()
	}
	model, _ = req.get("model").(string)
	if schemaName(req) == "" {
		f = s.nextFault() // queued faults are for generation; a guard's request takes none
	}
	if serveUpFront(w, r, f, model) {
		return req, model, f, false
	}
	if parseErr != nil {
		writeJSON(w, http.StatusBadRequest, apiError(badJSON, "invalid_request_error", nil, nil))
		return req, model, f, false
	}
	return req, model, f, true
}

// responses serves POST /v1/responses.
func (s *Server) responses(w http.ResponseWriter, r *http.Request, body []byte) {
	req, model, f, ok := s.take(w, r, body)
	if !ok || s.refuse(w, req) {
		return
	}

	a := &answer{
		t:         templates(),
		req:       req,
		id:        "resp_" + randomHex(25),
		itemID:    "msg_" + randomHex(25),
		created:   time.Now().Unix(),
		reasoning: s.reasoningMode(),
		cache:     s.cachedTokens(),
	}
	store, ok := req.get("store").(bool)
	a.call = Call{
		API:          "responses",
		Model:        model,
		Instructions: instructionsText(req.get("instructions")),
		Input:        responsesInput(req.get("input")),
		Store:        store || !ok,
	}
	a.call.PreviousID, _ = req.get("previous_response_id").(string)
	if !s.chain(w, a) || s.overflowResponses(w, a) {
		return
	}
	if f = s.stallFor(f, a.call); f.kind == faultNoAnswer {
		s.untilGone(r.Context())
		return
	}
	s.mu.Lock()
	s.created = append(s.created, a.id)
	s.mu.Unlock()
	if streaming, _ := req.get("stream").(bool); !streaming {
		s.respondWhole(w, r, a, f)
		return
	}
	s.streamAnswer(w, r, a, f)
}

// streamAnswer streams an answer event by event, as the recording does,
// or as far as the fault f lets it.
func (s *Server) streamAnswer(w http.ResponseWriter, r *http.Request, a *answer, f Fault) {
	out := startStream(w)
	out.event(a.event(a.t.created).set("response", a.response(a.t.created, "in_progress")))
	out.event(a.event(a.t.inProgress).set("response", a.response(a.t.inProgress, "in_progress")))
	if s.stalled(r.Context(), out, f) {
		return
	}
	if f.kind == faultQuotaAtStart { // as recorded: no output at all
		out.event(a.event(a.t.errorEvent))
		out.event(a.event(a.t.failed).set("response", a.response(a.t.failed, "failed")))
		return
	}
	if a.reasoning != nil {
		if a.reasoningItem = s.thinking(r.Context(), out, a, *a.reasoning); a.reasoningItem == nil {
			return
		}
		a.msgIndex = 1
	}
	var send int
	a.deltas, send = f.streamed(deltas(s.generate(&a.call)))
	out.event(a.message(a.t.itemAdded).set("item", a.item("in_progress", "")))
	part := a.message(a.t.partAdded)
	part.set("item_id", a.itemID)
	out.event(part)

	if !s.paced(r.Context(), out, a.deltas[:send], func(d string) {
		delta := a.message(a.t.delta).set("delta", d).set("item_id", a.itemID).set("obfuscation", obfuscation(d))
		if !obfuscate(a.req) {
			delta.del("obfuscation")
		}
		out.event(delta)
	}) {
		return
	}

	switch f.kind {
	case faultEndless:
		s.endless(r.Context(), out, f.every, func(d string) {
			delta := a.message(a.t.delta).set("delta", d).set("item_id", a.itemID).set("obfuscation", obfuscation(d))
			out.event(delta)
		})
		return
	case faultCut:
		return // the body ends here, without response.completed
	case faultErrorEvent, faultServerErrorEvent, faultFlatErrorEvent:
		out.event(a.errorEvent(f))
		out.event(a.event(a.t.failed).set("response", a.response(a.t.failed, "failed")))
		return
	}
	status := "completed"
	if f.kind == faultIncomplete {
		status = "incomplete"
	}
	text := joined(a.deltas[:send])
	done := a.message(a.t.textDone)
	done.set("item_id", a.itemID).set("text", text)
	out.event(done)
	partDone := a.message(a.t.partDone)
	partDone.set("item_id", a.itemID).obj("part").set("text", text)
	out.event(partDone)
	out.event(a.message(a.t.itemDone).set("item", a.item(status, text)))

	final := a.event(a.t.completed)
	final.set("response", a.finished(status, send))
	if status == "incomplete" {
		final.set("type", "response.incomplete")
	}
	// Stored and counted before the last event goes out: a client may
	// send its next request the moment it reads it.
	s.finish(a, text, f.kind == faultNone)
	out.event(final)
}

// obfuscate reports whether a stream carries "obfuscation" padding: by
// default, unless stream_options.include_obfuscation is false.
func obfuscate(req *object) bool {
	opts, _ := req.get("stream_options").(*object)
	if opts == nil {
		return true
	}
	on, ok := opts.get("include_obfuscation").(bool)
	return on || !ok
}

// chain checks previous_response_id against the server's settings and
// the stored responses, answering the 400s itself; it reports whether the
// request goes on.
func (s *Server) chain(w http.ResponseWriter, a *answer) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := a.call.PreviousID
	switch {
	case prev == "":
		return true
	case s.rejectPrevious:
		writeJSON(w, http.StatusBadRequest, apiError("previous_response_id is not supported", "invalid_request_error", "previous_response_id", nil))
		return false
	case s.tersePrevious:
		writeJSON(w, http.StatusBadRequest, apiError("Invalid request", "invalid_request_error", nil, nil))
		return false
	case s.ignorePrevious:
		return true
	}
	history, ok := s.stored[prev]
	if !ok {
		body := a.t.notFound.clone()
		body.obj("error").set("message", "Previous response with id '"+prev+"' not found.")
		writeJSON(w, http.StatusBadRequest, body)
		return false
	}
	a.call.History = slices.Clone(history)
	a.previous = prev
	return true
}

// respondWhole answers a request without "stream": true with the final
// response object as JSON. lull always streams; this is for tools that
// do not. Of the stream faults, Hang waits, Incomplete answers an
// incomplete response, ErrorEvent answers the HTTP 429 insufficient_quota
// error the API sends when it can say so up front, and Cut hangs up.
func (s *Server) respondWhole(w http.ResponseWriter, r *http.Request, a *answer, f Fault) {
	if s.stoppedWhole(w, r, f, a.t, a.call.Model) {
		return
	}
	if a.reasoning != nil {
		if !s.pause(r.Context(), a.reasoning.Think) {
			return
		}
		a.reasoningItem = a.t.reasoningDone.obj("item").clone().set("id", "rs_"+randomHex(25)).set("summary", []any{})
		a.msgIndex = 1
	}
	a.deltas = deltas(s.generate(&a.call))
	send, status := len(a.deltas), "completed"
	if f.kind == faultIncomplete {
		send, status = midSentence(a.deltas), "incomplete"
	}
	resp := a.finished(status, send)
	s.finish(a, joined(a.deltas[:send]), f.kind == faultNone)
	writeJSON(w, http.StatusOK, resp)
}

// finish stores a finished answer (when asked to) and, when no fault
// marred it, counts it toward DieAfter.
func (s *Server) finish(a *answer, text string, success bool) {
	s.mu.Lock()
	if a.call.Store {
		conv := append(slices.Clone(a.call.History), a.call.Input...)
		s.stored[a.id] = append(conv, Message{Role: "assistant", Text: text})
		s.storedOrder = append(s.storedOrder, a.id)
	}
	s.mu.Unlock()
	if success {
		s.succeeded()
	}
}

// event copies a recorded event and numbers it.
func (a *answer) event(tmpl *object) *object {
	e := tmpl.clone()
	e.set("sequence_number", a.seq)
	a.seq++
	return e
}

// response is the response object of a recorded event with this answer's
// values: the ids, the times, the status and what the request asked for.
func (a *answer) response(tmpl *object, status string) *object {
	r := tmpl.obj("response").clone()
	r.set("id", a.id).set("created_at", a.created).set("status", status)
	if _, ok := r.vals["completed_at"]; ok {
		var at any
		if status == "completed" {
			at = time.Now().Unix()
		}
		r.set("completed_at", at)
	}
	r.set("instructions", a.req.get("instructions"))
	r.set("model", a.call.Model)
	r.set("previous_response_id", a.previous)
	r.set("store", a.call.Store)
	r.set("tools", []any{})
	if a.reasoning != nil {
		r.set("reasoning", reasoningSettings(a.req))
	}
	for _, k := range echoed {
		if v, ok := a.req.vals[k]; ok {
			if _, known := r.vals[k]; known {
				r.set(k, v)
			}
		}
	}
	return r
}

// finished is the final response object, with the output and usage of
// the first send deltas.
func (a *answer) finished(status string, send int) *object {
	r := a.response(a.t.completed, status)
	text := joined(a.deltas[:send])
	output := []any{a.item(status, text)}
	if a.reasoningItem != nil {
		output = append([]any{a.reasoningItem}, output...)
	}
	r.set("output", output)
	u, o := usageOf(a.call, send, a.reasoning, a.cache), r.obj("usage")
	o.set("input_tokens", u.in).set("output_tokens", u.out).set("total_tokens", u.in+u.out)
	o.obj("input_tokens_details").set("cached_tokens", u.cached)
	o.obj("output_tokens_details").set("reasoning_tokens", u.reasoned)
	if status == "incomplete" {
		r.set("incomplete_details", newObject().set("reason", "max_output_tokens"))
		if r.get("max_output_tokens") == nil {
			r.set("max_output_tokens", send)
		}
	}
	return r
}

// message copies a recorded event of the message item, numbered and at
// the message's output index.
func (a *answer) message(tmpl *object) *object {
	return a.event(tmpl).set("output_index", a.msgIndex)
}

// errorEvent is the error event a fault ends the stream with: the
// recorded insufficient_quota one (nested, or flat as the API reference
// documents it) or the recorded server_error one.
func (a *answer) errorEvent(f Fault) *object {
	switch f.kind {
	case faultServerErrorEvent:
		return a.event(a.t.serverError)
	case faultFlatErrorEvent:
		e := a.t.errorEvent.obj("error")
		flat := newObject().set("type", "error").set("code", e.get("code")).set("message", e.get("message")).
			set("param", e.get("param")).set("sequence_number", 0)
		return a.event(flat)
	}
	return a.event(a.t.errorEvent)
}

// quotaBody is the HTTP 429 body for an exhausted quota, with the
// recorded error event's message.
func quotaBody(t *templateSet) *object {
	e := t.errorEvent.obj("error")
	return apiError(e.get("message").(string), "insufficient_quota", nil, "insufficient_quota")
}

// item is the assistant message item: in progress (no content yet), or
// done with its text.
func (a *answer) item(status, text string) *object {
	if status == "in_progress" {
		it := a.t.itemAdded.obj("item").clone()
		return it.set("id", a.itemID)
	}
	it := a.t.itemDone.obj("item").clone()
	it.set("id", a.itemID).set("status", status)
	it.list("content")[0].(*object).set("text", text)
	return it
}

// deleteResponse serves DELETE /v1/responses/{id}.
func (s *Server) deleteResponse(w http.ResponseWriter, id string) {
	s.mu.Lock()
	_, ok := s.stored[id]
	if ok {
		delete(s.stored, id)
		s.storedOrder = slices.DeleteFunc(s.storedOrder, func(x string) bool { return x == id })
		s.deleted = append(s.deleted, id)
	}
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusNotFound, apiError("No response found with id '"+id+"'.", "invalid_request_error", nil, nil))
		return
	}
	body := templates().deletion.clone()
	body.set("id", id).set("deleted", true)
	writeJSON(w, http.StatusOK, body)
}

func joined(parts []string) string { return strings.Join(parts, "") }
