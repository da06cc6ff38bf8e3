package openaitest

import (
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

// Fault is one way a generation request goes wrong. Push queues them;
// each /v1/responses or /v1/chat/completions request takes the next one.
// Every fault has a Chat Completions form too, described at its
// constructor.
type Fault struct {
	kind       faultKind
	status     int
	retryAfter string        // Retry-After, seconds
	retryMs    int           // retry-after-ms; 0 = not sent
	deltas     int           // Cut
	size       int           // HugeLine: the line's bytes
	every      time.Duration // KeepAlive, Endless: between comments or sentences
	file       string        // Replay
}

type faultKind int

const (
	faultNone faultKind = iota
	faultErrorEvent
	faultStatus
	faultHang
	faultCut
	faultIncomplete
	faultReplay
	faultEchoKey
	faultRedirectKey
	faultQuotaAtStart
	faultServerErrorEvent
	faultFlatErrorEvent
	faultHugeLine
	faultNoAnswer
	faultKeepAlive
	faultEndless
)

// ErrorEvent streams the start of an answer (created, in_progress, a couple
// of text deltas), then the recorded insufficient_quota `error` event and
// `response.failed`, and ends the body. openai-go's stream stops at the
// error event with an *ssestream.StreamError. Chat: the role chunk, two
// content chunks, then a `data: {"error":{…}}` chunk and the end.
func ErrorEvent() Fault { return Fault{kind: faultErrorEvent} }

// QuotaExhausted is the recorded insufficient_quota stream as it was sent:
// response.created, response.in_progress, the nested `error` event and
// response.failed, before any output. Chat: HTTP 429 with the
// insufficient_quota body, as the API answers a chat request up front.
func QuotaExhausted() Fault { return Fault{kind: faultQuotaAtStart} }

// ServerErrorEvent is ErrorEvent with the recorded server_error event
// instead (nested, "code": null): a failure another try may not meet.
// Chat: a `data: {"error":{…}}` chunk with the same values.
func ServerErrorEvent() Fault { return Fault{kind: faultServerErrorEvent} }

// FlatErrorEvent is ErrorEvent with the error's fields at the top level
// of the event ("type", "code", "message", "param", "sequence_number"),
// the shape the API reference documents for the `error` event; the values
// are the recorded insufficient_quota ones. Chat has one shape only: the
// nested chunk of ErrorEvent.
func FlatErrorEvent() Fault { return Fault{kind: faultFlatErrorEvent} }

// midStreamError reports whether a fault ends the stream in an error
// event after a couple of text deltas.
func (f Fault) midStreamError() bool {
	return f.kind == faultErrorEvent || f.kind == faultServerErrorEvent || f.kind == faultFlatErrorEvent
}

// streamed is what a stream of deltas ds sends under f: a huge line first
// when f asks for one, and of the whole, how many deltas go out before a
// mid-stream error, a cut or an incomplete end.
func (f Fault) streamed(ds []string) ([]string, int) {
	if f.kind == faultHugeLine {
		ds = append([]string{hugeText(f.size)}, ds...)
	}
	send := len(ds)
	switch {
	case f.midStreamError():
		send = min(2, send)
	case f.kind == faultCut:
		send = min(f.deltas, send)
	case f.kind == faultIncomplete:
		send = midSentence(ds)
	}
	return ds, send
}

// Status answers with an HTTP status and a JSON error body in OpenAI's
// shape: 429 is a rate limit ("requests", "rate_limit_exceeded"), 401 a bad
// key, 5xx a server_error, anything else an invalid_request_error. When
// retryAfter is not "" it is sent as the Retry-After header (seconds).
func Status(code int, retryAfter string) Fault {
	return Fault{kind: faultStatus, status: code, retryAfter: retryAfter}
}

// StatusMs is Status with a retry-after-ms header instead, which openai-go
// prefers to Retry-After.
func StatusMs(code, ms int) Fault {
	return Fault{kind: faultStatus, status: code, retryMs: ms}
}

// Hang sends response.created and response.in_progress (chat: the role
// chunk) and then nothing until the client goes away or the server closes.
func Hang() Fault { return Fault{kind: faultHang} }

// Cut streams the start of an answer and afterDeltas text deltas, then ends
// the body cleanly without response.completed and without an error event,
// like a proxy that gave up. Chat: that many content chunks, no
// finish_reason, no [DONE].
func Cut(afterDeltas int) Fault { return Fault{kind: faultCut, deltas: afterDeltas} }

// Incomplete streams an answer cut off mid-sentence that ends in
// response.incomplete with incomplete_details.reason "max_output_tokens".
// The response is stored, as the API stores incomplete responses. Chat:
// the cut text, finish_reason "length", the usage chunk when asked, [DONE].
func Incomplete() Fault { return Fault{kind: faultIncomplete} }

// HugeLine streams the start of an answer, then one text delta of size
// bytes with no line break in it — one SSE line that long, as a local
// server in a repetition loop or a hostile one sends — and then the
// answer's end as usual. Chat: one content chunk that long.
func HugeLine(size int) Fault { return Fault{kind: faultHugeLine, size: size} }

// NoAnswer takes the request and never answers, not even with headers,
// until the client goes away or the server closes: a server that stopped
// answering. Chat alike.
func NoAnswer() Fault { return Fault{kind: faultNoAnswer} }

// KeepAlive sends response.created and response.in_progress (chat: the
// role chunk), then only an SSE keep-alive comment every d, for ever: a
// proxy that keeps the stream open while the model behind it has stopped.
func KeepAlive(d time.Duration) Fault { return Fault{kind: faultKeepAlive, every: d} }

// Endless streams the call's text, then one more calm sentence every d,
// for ever, and never completes: a local model caught in a loop that no
// output-token limit stops (the server ignores it). Chat alike.
func Endless(d time.Duration) Fault { return Fault{kind: faultEndless, every: d} }

// endlessLine is the nth sentence of an Endless stream: each its own, as
// a looping model varies a word, so no filter of repeats stops it.
func endlessLine(n int) string {
	return fmt.Sprintf("\nLet the breath settle a little more, and more, loop %d.", n)
}

// hugeText is a HugeLine's delta: words, so nothing but its size is odd.
func hugeText(size int) string { return strings.Repeat("calm ", max(size/5, 1)) }

// Replay serves a file of testdata/ verbatim as the body, with the content
// type it was recorded with, whatever was asked. It panics when there is
// no such file, as a test that names one wrongly is broken.
func Replay(file string) Fault {
	if _, err := fs.Stat(testdata, path.Join("testdata", file)); err != nil {
		panic(fmt.Sprintf("openaitest: Replay: %v", err))
	}
	return Fault{kind: faultReplay, file: file}
}

// apiError is OpenAI's error body, keys in the order of the recorded
// previous_response_not_found body.
func apiError(message, typ string, param, code any) *object {
	e := newObject().set("message", message).set("type", typ).set("param", param).set("code", code)
	return newObject().set("error", e)
}

// statusError is the body a Status fault sends.
func statusError(code int, model string) *object {
	switch {
	case code == http.StatusTooManyRequests:
		return apiError(fmt.Sprintf("Rate limit reached for %s in organization org-openaitest on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.", model),
			"requests", nil, "rate_limit_exceeded")
	case code == http.StatusUnauthorized:
		return apiError("Incorrect API key provided: test. You can find your API key at https://platform.openai.com/account/api-keys.",
			"invalid_request_error", nil, "invalid_api_key")
	case code >= 500:
		return apiError("The server had an error while processing your request. Sorry about that!", "server_error", nil, nil)
	}
	return apiError(http.StatusText(code), "invalid_request_error", nil, nil)
}

// serveUpFront answers f if it is a fault that answers whatever the body
// says (a status, a replay, an echoed or redirected key), reporting
// whether it did.
func serveUpFront(w http.ResponseWriter, r *http.Request, f Fault, model string) bool {
	switch f.kind {
	case faultStatus:
		serveStatus(w, f, model)
	case faultReplay:
		serveReplay(w, f)
	case faultEchoKey:
		serveEchoKey(w, r, f)
	case faultRedirectKey:
		serveRedirectKey(w, r)
	default:
		return false
	}
	return true
}

// serveStatus answers a Status fault.
func serveStatus(w http.ResponseWriter, f Fault, model string) {
	if f.retryAfter != "" {
		w.Header().Set("Retry-After", f.retryAfter)
	}
	if f.retryMs > 0 {
		w.Header().Set("retry-after-ms", strconv.Itoa(f.retryMs))
	}
	writeJSON(w, f.status, statusError(f.status, model))
}

// serveReplay answers a Replay fault.
func serveReplay(w http.ResponseWriter, f Fault) {
	body, err := testdata.ReadFile(path.Join("testdata", f.file))
	if err != nil { // Replay checked the name; this is a broken build
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", replayContentType(f.file))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
