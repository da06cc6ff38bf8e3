package openaitest

import (
	"context"
	"net/http"
	"time"
)

// eventStream is the content type OpenAI streams with (recorded).
const eventStream = "text/event-stream; charset=utf-8"

// stream writes server-sent events, flushing each so the client sees it
// when it is sent, as from the real API.
type stream struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error // the first write error: the client has gone
}

func startStream(w http.ResponseWriter) *stream {
	w.Header().Set("Content-Type", eventStream)
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	s := &stream{w: w, rc: http.NewResponseController(w)}
	s.flush()
	return s
}

// event writes a Responses event: "event: <type>\ndata: <json>\n\n".
func (s *stream) event(o *object) {
	typ, _ := o.get("type").(string)
	s.write("event: " + typ + "\ndata: " + string(o.bytes()) + "\n\n")
}

// data writes a Chat Completions chunk: "data: <json>\n\n".
func (s *stream) data(payload string) { s.write("data: " + payload + "\n\n") }

// comment writes an SSE comment line, which clients skip: a keep-alive.
func (s *stream) comment(text string) { s.write(": " + text + "\n\n") }

func (s *stream) write(frame string) {
	if s.err != nil {
		return
	}
	if _, err := s.w.Write([]byte(frame)); err != nil {
		s.err = err
		return
	}
	s.flush()
}

func (s *stream) flush() {
	if err := s.rc.Flush(); err != nil && s.err == nil {
		s.err = err
	}
}

// pause waits d, returning false when the client went away or the server
// is closing, so a handler never outlives either.
func (s *Server) pause(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-s.closing:
	}
	return false
}

// untilGone waits for the client to go away or the server to close: a
// Hang.
func (s *Server) untilGone(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-s.closing:
	}
}

// keepAlive sends a keep-alive comment every d until the client goes away
// or the server closes: a KeepAlive.
func (s *Server) keepAlive(ctx context.Context, out *stream, d time.Duration) {
	for s.pause(ctx, d) && out.err == nil {
		out.comment("keep-alive")
	}
}

// stalled serves the faults that stop a stream once it has begun, the
// same for chat and responses: a Hang, or keep-alives only. It reports
// whether f was one of them.
func (s *Server) stalled(ctx context.Context, out *stream, f Fault) bool {
	switch f.kind {
	case faultHang:
		s.untilGone(ctx)
		return true
	case faultKeepAlive:
		s.keepAlive(ctx, out, f.every)
		return true
	}
	return false
}

// stoppedWhole serves the faults that stop an answer without "stream",
// chat's and responses' alike: a stall of any kind waits for the client
// to go, a cut hangs up, a quota error answers the HTTP 429 the API sends
// when it can say so up front, a server error event a 500. It reports
// whether f was one of them. (Chat answers QuotaExhausted before it gets
// here.)
func (s *Server) stoppedWhole(w http.ResponseWriter, r *http.Request, f Fault, t *templateSet, model string) bool {
	switch f.kind {
	case faultHang, faultKeepAlive, faultEndless:
		s.untilGone(r.Context())
	case faultCut:
		hangUp(w)
	case faultErrorEvent, faultQuotaAtStart, faultFlatErrorEvent:
		writeJSON(w, http.StatusTooManyRequests, quotaBody(t))
	case faultServerErrorEvent:
		writeJSON(w, http.StatusInternalServerError, statusError(http.StatusInternalServerError, model))
	default:
		return false
	}
	return true
}

// paced sends each delta through send at the server's latency: the first
// after the time to first token, the rest a token's time apart. It
// returns false when the client went away or the server is closing.
func (s *Server) paced(ctx context.Context, out *stream, ds []string, send func(string)) bool {
	ttft, perToken := s.latency()
	for i, d := range ds {
		wait := perToken
		if i == 0 {
			wait = ttft
		}
		if !s.pause(ctx, wait) || out.err != nil {
			return false
		}
		send(d)
	}
	return true
}

// endless sends a fresh sentence through send every d until the client
// goes away or the server closes: an Endless.
func (s *Server) endless(ctx context.Context, out *stream, d time.Duration, send func(string)) {
	for n := 1; s.pause(ctx, d) && out.err == nil; n++ {
		send(endlessLine(n))
	}
}

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, status int, body *object) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body.bytes())
}
