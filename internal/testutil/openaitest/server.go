// Package openaitest is a fake OpenAI API for lull's tests: the Responses
// API (streaming, stored responses, previous_response_id, DELETE), Chat
// Completions (streaming), and Moderations, on a loopback port. It speaks
// the real wire format: every event is built from a recorded OpenAI event
// in testdata/ with the request's values put in. Knobs make it behave like
// the servers lull meets (one that ignores, rejects or tersely refuses
// previous_response_id, a chat-only one, one that dies, a reasoning model
// that thinks before it writes, one that refuses parameters by name, a
// prompt cache) and queue faults (rate limits, error events in both
// shapes, an exhausted quota, hangs, cut streams).
package openaitest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"
)

// Server is a fake OpenAI API on a loopback port.
//
// URL is set by New and never changes. Everything else is changed through
// the setters, which take the server's lock and are safe to call while
// requests are being served; a request reads the settings once, when it
// arrives (latency too), so a change applies to the next request.
type Server struct {
	URL string // base URL including "/v1", e.g. "http://127.0.0.1:41234/v1": what OPENAI_BASE_URL and option.WithBaseURL take

	srv       *httptest.Server // nil in memory (memory.go)
	mem       *memory          // nil on a loopback port
	closing   chan struct{}    // closed by Close: waiting handlers return
	closeOnce sync.Once

	mu             sync.Mutex
	text           func(Call) string
	judge          func(Call) string
	ttft, perToken time.Duration
	faults         []Fault
	ignorePrevious bool
	rejectPrevious bool
	tersePrevious  bool
	noResponses    bool
	reasoning      *Reasoning // nil: not a reasoning model
	rejectParams   []string   // parameters answered with a 400 by name
	cached         int        // input tokens reported as served from the prompt cache
	flag           func(string) bool
	stall          func(Call) Fault // a fault chosen from what a call asks (SetStall)
	dieIn          int              // successful generations until the server dies; -1: it does not
	requests       []Request
	stored         map[string][]Message // id → the conversation a previous_response_id to it brings in
	storedOrder    []string
	created        []string // every response id handed out, in order
	deleted        []string
	calls          int // generation calls so far (Call.N)
	moment         int // the default text's sentence counter
	window         int // the model's context window in tokens; 0: none (context.go)
	overflows      int // requests refused for their length
}

// Request is one request the server received.
type Request struct {
	Method, Path string // Path without host, e.g. "/v1/responses", "/v1/responses/resp_x"
	Header       http.Header
	Body         []byte
	JSON         map[string]any // Body decoded (nil when not JSON); shared between copies, read it only
	At           time.Time
}

// New starts a server on a loopback port. Close it when done (t.Cleanup).
func New() *Server {
	s := newServer()
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	return s
}

func newServer() *Server {
	return &Server{
		closing: make(chan struct{}),
		dieIn:   -1,
		stored:  map[string][]Message{},
	}
}

// set changes one of the server's fields under its lock: a test may
// change a setting while requests are being served.
func set[T any](s *Server, setting *T, v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	*setting = v
}

// get reads one of the server's fields under its lock.
func get[T any](s *Server, setting *T) T {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *setting
}

// Close stops the server. Open streams (a Hang, a slow answer) end first:
// their handlers are told to return and the client connections are closed,
// so Close never waits on a client.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closing)
		if s.mem != nil {
			s.mem.close()
			return
		}
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// SetText sets the function that writes the assistant text of a call. nil
// restores the default: six calm sentences naming the phase that the
// instructions' "CURRENT PHASE: <word>" line names, numbered so that no
// sentence repeats on this server.
func (s *Server) SetText(f func(Call) string) { set(s, &s.text, f) }

// SetJudge sets the function that answers a structured request (a chat
// request whose response_format names a JSON schema, as lull's guard
// sends): the answer's whole text, or HangText or FailText. nil restores
// the default, which judges every numbered line of the request's last
// message safe in the guard's shape. Structured requests do not count as
// generation calls (Call.N) and never reach SetText's function.
func (s *Server) SetJudge(f func(Call) string) { set(s, &s.judge, f) }

// SetLatency sets the delay before the first text delta (after
// response.created, or chat's role chunk, has been sent) and between
// deltas.
func (s *Server) SetLatency(ttft, perToken time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ttft, s.perToken = ttft, perToken
}

// Push queues faults. Each /v1/responses or /v1/chat/completions request
// that reaches an endpoint this server has, but for a structured one (a
// guard's: SetJudge), takes the next one (so the 404
// of a chat-only server takes none, nor do moderation and DELETE
// requests); when none is queued the request is answered normally. A fault
// comes before the request is looked at: a request with an unknown
// previous_response_id still gets the queued 429.
func (s *Server) Push(f ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, f...)
}

// SetStall sets a function that chooses a fault for each generation call
// from what it asks (its phase is in Instructions): a server that stops
// answering from some point on, or only in one phase. It is asked only
// when no queued fault (Push) is waiting, after the request is read; the
// zero Fault answers normally. nil: none.
func (s *Server) SetStall(f func(Call) Fault) { set(s, &s.stall, f) }

// stallFor is the fault SetStall's function chooses for c, when f is none.
func (s *Server) stallFor(f Fault, c Call) Fault {
	choose := get(s, &s.stall)
	if f.kind != faultNone || choose == nil || c.Schema != "" {
		return f
	}
	return choose(c)
}

// SetIgnorePrevious makes the server behave like Ollama: it accepts a
// previous_response_id, even an unknown one, and ignores it. The response
// echoes "previous_response_id": null and Call.History is empty.
func (s *Server) SetIgnorePrevious(on bool) { set(s, &s.ignorePrevious, on) }

// SetRejectPrevious makes the server behave like llama.cpp: a request with
// a previous_response_id gets HTTP 400 "previous_response_id is not
// supported".
func (s *Server) SetRejectPrevious(on bool) { set(s, &s.rejectPrevious, on) }

// SetTersePrevious makes the server answer any request with a
// previous_response_id with a bare HTTP 400 "Invalid request" that names
// no parameter and has no code, as some proxies and compatible servers do.
func (s *Server) SetTersePrevious(on bool) { set(s, &s.tersePrevious, on) }

// SetCachedTokens makes every answer report n of its input tokens (at most
// all of them) as served from the prompt cache: usage's
// input_tokens_details.cached_tokens, chat's
// prompt_tokens_details.cached_tokens. 0, the default, reports none.
func (s *Server) SetCachedTokens(n int) { set(s, &s.cached, max(0, n)) }

// cachedTokens is the SetCachedTokens setting.
func (s *Server) cachedTokens() int { return get(s, &s.cached) }

// SetNoResponses makes the server a chat-only one: everything under
// /v1/responses answers 404 with a plain-text body ("404 page not found",
// as Go and gin servers send); /v1/chat/completions still works.
func (s *Server) SetNoResponses(on bool) { set(s, &s.noResponses, on) }

// SetFlag sets which moderation inputs are flagged (as violence). nil, the
// default, flags none.
func (s *Server) SetFlag(f func(text string) bool) { set(s, &s.flag, f) }

// DieAfter makes the server die after n more successful /responses or
// /chat/completions answers, ones given in full with no fault (n = 0: at
// once). The count is taken before the last event goes out, so the very
// next request dies. From then on every request, on any path, has its
// connection closed without a response. Revive undoes it.
func (s *Server) DieAfter(n int) { set(s, &s.dieIn, max(0, n)) }

// Revive brings a dead (or dying) server back.
func (s *Server) Revive() { set(s, &s.dieIn, -1) }

// Requests returns every request received, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		r.Header = r.Header.Clone()
		r.Body = slices.Clone(r.Body)
		out[i] = r
	}
	return out
}

// Stored returns the ids of the stored responses not yet deleted, oldest
// first.
func (s *Server) Stored() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.storedOrder)
}

// Created returns the id of every response the server began, stored or
// not, in the order of the calls that made them.
func (s *Server) Created() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.created)
}

// Deleted returns the ids deleted, in order.
func (s *Server) Deleted() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.deleted)
}

// serve records the request and routes it.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, At: time.Now()}
	if err := json.Unmarshal(body, &req.JSON); err != nil {
		req.JSON = nil
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	dead := s.dieIn == 0
	noResponses := s.noResponses
	s.mu.Unlock()

	if dead {
		hangUp(w)
		return
	}
	w.Header().Set("openai-version", "2020-10-01")
	w.Header().Set("x-request-id", "req_"+randomHex(16))

	path := r.URL.Path
	responsesPath := path == "/v1/responses" || strings.HasPrefix(path, "/v1/responses/")
	switch {
	case responsesPath && noResponses:
		http.NotFound(w, r)
	case path == "/v1/responses" && r.Method == http.MethodPost:
		s.responses(w, r, body)
	case strings.HasPrefix(path, "/v1/responses/") && r.Method == http.MethodDelete:
		s.deleteResponse(w, strings.TrimPrefix(path, "/v1/responses/"))
	case path == "/v1/chat/completions" && r.Method == http.MethodPost:
		s.chat(w, r, body)
	case path == "/v1/moderations" && r.Method == http.MethodPost:
		s.moderate(w, body)
	case path == gonePath:
		hangUp(w) // where RedirectKey sends the client
	default:
		// What api.openai.com answers for a path it does not have.
		writeJSON(w, http.StatusNotFound, apiError("Invalid URL ("+r.Method+" "+path+")", "invalid_request_error", nil, nil))
	}
}

// hangUp closes the connection without answering: a server that died.
func hangUp(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // net/http closes the connection
	}
	_ = conn.Close()
}

// nextFault takes the next queued fault; the zero Fault means none.
func (s *Server) nextFault() Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.faults) == 0 {
		return Fault{}
	}
	f := s.faults[0]
	s.faults = s.faults[1:]
	return f
}

// generate numbers the call and writes its text. A structured request (a
// guard's) is answered by SetJudge's function instead, and not counted.
func (s *Server) generate(c *Call) string {
	if c.Schema != "" {
		judge := get(s, &s.judge)
		if judge == nil {
			return judgeAllSafe(*c)
		}
		return judge(*c)
	}
	s.mu.Lock()
	s.calls++
	c.N = s.calls
	f := s.text
	s.mu.Unlock()
	if f == nil {
		return s.defaultText(*c)
	}
	return f(*c)
}

// succeeded counts a successful generation toward DieAfter.
func (s *Server) succeeded() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dieIn > 0 {
		s.dieIn--
	}
}

// latency is the current SetLatency setting.
func (s *Server) latency() (ttft, perToken time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ttft, s.perToken
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
