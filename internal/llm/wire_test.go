package llm

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// syncBuffer is a log sink safe for the stream's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// infoLog is a guide's log as a user's log file keeps it: Info and above.
func infoLog(c *Config, into *syncBuffer) {
	c.Logger = slog.New(slog.NewTextHandler(into, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// looksLikeJSON spots a provider's raw error quoted in words meant for
// people.
func looksLikeJSON(s string) bool {
	return strings.Contains(s, "{") || strings.Contains(s, `":`) || strings.Contains(s, "sequence_number")
}

// An exhausted quota, in every shape it comes, is one request, not
// retried, and a message that says what happened and what to do — no raw
// JSON in it or in the log.
func TestQuotaIsNotRetriedAndSaysWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault openaitest.Fault
		chat  bool
	}{
		{"nested error event before any text", openaitest.QuotaExhausted(), false},
		{"nested error event mid-stream", openaitest.ErrorEvent(), false},
		{"flat error event", openaitest.FlatErrorEvent(), false},
		{"chat error chunk mid-stream", openaitest.ErrorEvent(), true},
		{"chat 429 up front", openaitest.QuotaExhausted(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t)
			srv.SetNoResponses(tc.chat)
			var log syncBuffer
			g := newGuide(t, srv, func(c *Config) { infoLog(c, &log) })
			if tc.chat {
				g.goChat()
			}
			srv.Push(tc.fault)
			said, _, err := drain(t, g, request(engine.Breathing))
			var f *Failure
			if !errors.As(err, &f) || f.Kind != kindQuota {
				t.Fatalf("err %v (%T), want a quota failure", err, err)
			}
			if n := len(generations(srv)); n != 1 {
				t.Errorf("%d requests, want 1: an exhausted quota is not retried", n)
			}
			if len(said) != 0 {
				t.Errorf("said %q", said)
			}
			msg := f.Error()
			for _, want := range []string{"run out of credit", "insufficient_quota", "add credit", "billing", "built-in guide"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			if looksLikeJSON(msg) || looksLikeJSON(log.String()) {
				t.Errorf("raw JSON in the message %q or the log:\n%s", msg, log.String())
			}
		})
	}
}

// An error event that another try may not meet is read in both shapes,
// with the server's words and code, and retried.
func TestErrorEventShapesAreRead(t *testing.T) {
	for _, tc := range []struct {
		name, data, code, msg string
		kind                  string
	}{
		{"nested, code null", `{"type":"error","error":{"type":"server_error","code":null,"message":"An error occurred while processing the request.","param":null},"sequence_number":120}`,
			"server_error", "An error occurred while processing the request.", kindStreamError},
		{"flat", `{"type":"error","code":"ERR_SOMETHING","message":"Something went wrong","param":null,"sequence_number":1}`,
			"ERR_SOMETHING", "Something went wrong", kindStreamError},
		{"flat, quota", `{"type":"error","code":"insufficient_quota","message":"You exceeded your current quota.","param":null,"sequence_number":2}`,
			"insufficient_quota", quotaWords, kindQuota},
		{"chat chunk, numeric code", `{"error":{"code":502,"message":"Provider returned error"}}`,
			"502", "Provider returned error", kindStreamError},
		{"nested, bad model", `{"type":"error","error":{"type":"invalid_request_error","code":"model_not_found","message":"The model does not exist.","param":null}}`,
			"model_not_found", "The model does not exist.", kindStreamRefused},
		{"unreadable", `{"error":`, "", "the server reported an error mid-stream", kindStreamError},
	} {
		f := eventFailure([]byte(tc.data))
		if f.Kind != tc.kind || f.Code != tc.code || f.Message != tc.msg {
			t.Errorf("%s: kind %q code %q message %q", tc.name, f.Kind, f.Code, f.Message)
		}
		if looksLikeJSON(f.Error()) {
			t.Errorf("%s: %q quotes JSON", tc.name, f.Error())
		}
	}
}

// A chat stream's {"error":{…}} chunk of a passing failure is read as
// the server's error, not a network failure quoting the chunk, and
// retried.
func TestChatErrorChunkIsReadAndRetried(t *testing.T) {
	srv := newServer(t)
	srv.SetNoResponses(true)
	once := newGuide(t, srv, func(c *Config) { c.Attempts = 1 })
	once.goChat()
	srv.Push(openaitest.ServerErrorEvent())
	_, _, err := drain(t, once, request(engine.Sensory))
	var f *Failure
	if !errors.As(err, &f) || f.Kind != kindStreamError || f.Code != "server_error" ||
		f.Message != "An error occurred while processing the request." || looksLikeJSON(f.Error()) {
		t.Fatalf("err %v (%+v)", err, f)
	}
	g := newGuide(t, srv)
	g.goChat()
	srv.Push(openaitest.ServerErrorEvent())
	before := len(generations(srv))
	said, _, err := drain(t, g, request(engine.Sensory))
	if err != nil || len(said) != 6 || len(generations(srv))-before != 2 {
		t.Fatalf("said %d in %d requests, err %v", len(said), len(generations(srv))-before, err)
	}
}

// chainedRequest continues a stored response, with a history to send
// instead.
func chainedRequest() engine.Request {
	req := request(engine.Sensory)
	req.Chain = "resp_stored"
	req.Spoken = 1
	req.History = []engine.Entry{
		{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "Welcome."},
		{Phase: engine.Sensory, Role: engine.RoleGuide, Text: "Feel your feet."},
	}
	return req
}

// A bare 400 to a chained request is tried once more without the chain,
// the history as input; that working, the guide goes stateless.
func TestTerse400ToAChainedRequestRetriesWithoutTheChain(t *testing.T) {
	srv := newServer(t)
	srv.SetTersePrevious(true)
	g := newGuide(t, srv)
	said, rc, err := drain(t, g, chainedRequest())
	if err != nil || len(said) != 6 {
		t.Fatalf("said %d, err %v", len(said), err)
	}
	reqs := generations(srv)
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if reqs[0].JSON["previous_response_id"] != "resp_stored" {
		t.Errorf("the first request did not chain: %v", reqs[0].JSON["previous_response_id"])
	}
	second := reqs[1]
	if second.JSON["previous_response_id"] != nil || second.JSON["store"] != false {
		t.Errorf("the retry: previous %v store %v", second.JSON["previous_response_id"], second.JSON["store"])
	}
	in := strings.Join(inputs(second), "|")
	if !strings.Contains(in, "assistant: Welcome.") || !strings.Contains(in, "Feel your feet.") {
		t.Errorf("the retry does not carry the history: %q", in)
	}
	if len(rc.Stored) != 0 || !strings.Contains(g.Describe(), "stateless") {
		t.Errorf("stored %v; %s", rc.Stored, g.Describe())
	}
	// The session goes on, without the chain from the first try.
	if _, _, err := drain(t, g, chainedRequest()); err != nil {
		t.Fatal(err)
	}
	if reqs := generations(srv); len(reqs) != 3 || reqs[2].JSON["previous_response_id"] != nil {
		t.Errorf("%d requests; the next chained: %v", len(reqs), reqs[len(reqs)-1].JSON["previous_response_id"])
	}
}

// A 400 that comes without the chain too is a real one.
func TestA400WithoutTheChainTooIsReal(t *testing.T) {
	srv := newServer(t)
	srv.Push(openaitest.Status(400, ""), openaitest.Status(400, ""))
	g := newGuide(t, srv)
	_, _, err := drain(t, g, chainedRequest())
	var f *Failure
	if !errors.As(err, &f) || f.Status != 400 {
		t.Fatalf("err %v, want the 400", err)
	}
	if n := len(generations(srv)); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	if strings.Contains(g.Describe(), "stateless") {
		t.Errorf("a 400 that is not about the chain made the guide stateless: %s", g.Describe())
	}
}

// effortOf is what a generation request asked for: Responses'
// reasoning.effort, or chat's reasoning_effort; "" when neither.
func effortOf(r openaitest.Request) string {
	if r.Path == "/v1/chat/completions" {
		e, _ := r.JSON["reasoning_effort"].(string)
		return e
	}
	reasoning, _ := r.JSON["reasoning"].(map[string]any)
	if reasoning == nil {
		return ""
	}
	e, _ := reasoning["effort"].(string)
	return e
}

// Reasoning models are asked for low effort, by name or once the server
// shows they reason; other models get no such parameter.
func TestReasoningModelsAskForLowEffort(t *testing.T) {
	for _, tc := range []struct {
		model string
		chat  bool
		want  string
	}{
		{"o4-mini", false, "low"},
		{"o3", false, "low"},
		{"gpt-5-mini-2025-08-07", false, "low"},
		{"gpt-5", true, "low"},
		{"o1-preview", true, "low"},
		{"gpt-4.1-mini", false, ""},
		{"gpt-5-chat-latest", false, ""},
		{"gpt-4o", true, ""},
		{"llama3.2", true, ""},
	} {
		srv := newServer(t)
		srv.SetNoResponses(tc.chat)
		g := newGuide(t, srv, func(c *Config) { c.Model = tc.model })
		if _, _, err := drain(t, g, request(engine.Atmosphere)); err != nil {
			t.Fatalf("%s: %v", tc.model, err)
		}
		reqs := generations(srv)
		if got := effortOf(reqs[len(reqs)-1]); got != tc.want {
			t.Errorf("%s (chat %v): effort %q, want %q", tc.model, tc.chat, got, tc.want)
		}
		if _, ok := reqs[len(reqs)-1].JSON["reasoning"]; ok && tc.want == "" {
			t.Errorf("%s: a reasoning object was sent", tc.model)
		}
	}

	// A model lull does not know by name shows it reasons in
	// response.created; its next call asks for low effort.
	srv := newServer(t)
	srv.SetReasoning(&openaitest.Reasoning{})
	g := newGuide(t, srv, func(c *Config) { c.Model = "house-thinker-2" })
	for range 2 {
		if _, _, err := drain(t, g, request(engine.Atmosphere)); err != nil {
			t.Fatal(err)
		}
	}
	reqs := generations(srv)
	if effortOf(reqs[0]) != "" || effortOf(reqs[1]) != "low" {
		t.Errorf("efforts %q then %q, want none then low", effortOf(reqs[0]), effortOf(reqs[1]))
	}
}

// A parameter the server refuses by name is dropped, the call retried
// once, and never sent again; one lull needs is a real 400.
func TestRefusedParameterIsDroppedAndRetriedOnce(t *testing.T) {
	t.Run("responses", func(t *testing.T) {
		srv := newServer(t)
		srv.SetRejectParams("reasoning.effort")
		g := newGuide(t, srv, func(c *Config) { c.Model = "o3-mini" })
		said, _, err := drain(t, g, request(engine.Atmosphere))
		if err != nil || len(said) != 6 {
			t.Fatalf("said %d, err %v", len(said), err)
		}
		if _, _, err := drain(t, g, request(engine.Breathing)); err != nil {
			t.Fatal(err)
		}
		reqs := generations(srv)
		if len(reqs) != 3 || effortOf(reqs[0]) != "low" || effortOf(reqs[1]) != "" || effortOf(reqs[2]) != "" {
			t.Errorf("%d requests, efforts %v", len(reqs), efforts(reqs))
		}
	})
	t.Run("chat", func(t *testing.T) {
		srv := newServer(t)
		srv.SetNoResponses(true)
		srv.SetRejectParams("reasoning_effort", "stream_options")
		g := newGuide(t, srv, func(c *Config) { c.Model = "o4-mini" })
		g.goChat()
		said, _, err := drain(t, g, request(engine.Atmosphere))
		if err != nil || len(said) != 6 {
			t.Fatalf("said %d, err %v", len(said), err)
		}
		reqs := generations(srv)
		last := reqs[len(reqs)-1]
		if len(reqs) != 3 || effortOf(last) != "" || last.JSON["stream_options"] != nil {
			t.Errorf("%d requests; the last: effort %q stream_options %v", len(reqs), effortOf(last), last.JSON["stream_options"])
		}
	})
	t.Run("needed", func(t *testing.T) {
		srv := newServer(t)
		srv.SetRejectParams("store")
		g := newGuide(t, srv)
		_, _, err := drain(t, g, request(engine.Atmosphere))
		var f *Failure
		if !errors.As(err, &f) || f.Status != 400 || f.Param != "store" || len(generations(srv)) != 1 {
			t.Errorf("err %v after %d requests", err, len(generations(srv)))
		}
	})
}

func efforts(reqs []openaitest.Request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, effortOf(r))
	}
	return out
}

// A reasoning model that thinks for longer than the watchdog before its
// first text — 35 s against 30 s, here scaled down — is not cut, and its
// thinking is never spoken. The same silence from a model that is not
// known to reason is cut; keep-alive comments and reasoning deltas keep
// any call alive.
func TestThinkingLongerThanTheWatchdogIsNotCut(t *testing.T) {
	const watchdog = time.Second
	think := watchdog * 35 / 30
	for _, tc := range []struct {
		name      string
		model     string
		chat      bool
		reasoning openaitest.Reasoning
		cut       bool
	}{
		{"reasoning model thinking in silence", "o3", false, openaitest.Reasoning{Think: think}, false},
		{"reasoning model with a summary", "gpt-5-nano", false, openaitest.Reasoning{Think: think, Summary: watchdog / 5}, false},
		{"chat reasoning_content deltas", "deepseek-r1", true, openaitest.Reasoning{Think: think, Summary: watchdog / 5}, false},
		{"keep-alive comments", "llama3.2", true, openaitest.Reasoning{Think: think, KeepAlive: watchdog / 10}, false},
		{"silence from a model not known to reason", "llama3.2", true, openaitest.Reasoning{Think: think}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t)
			srv.SetNoResponses(tc.chat)
			srv.SetReasoning(&tc.reasoning)
			g := newGuide(t, srv, func(c *Config) { c.Model = tc.model; c.Watchdog = watchdog; c.Attempts = 1 })
			if tc.chat {
				g.goChat()
			}
			said, _, err := drain(t, g, request(engine.Relaxation))
			if tc.cut {
				var f *Failure
				if !errors.As(err, &f) || f.Kind != kindWatchdog {
					t.Fatalf("err %v, want the watchdog", err)
				}
				return
			}
			if err != nil || len(said) != 6 || len(generations(srv)) != 1 {
				t.Fatalf("said %d in %d requests, err %v", len(said), len(generations(srv)), err)
			}
			for _, s := range said {
				if strings.Contains(s, "Choosing the next lines") || strings.Contains(s, "listener is settling") {
					t.Errorf("thinking spoken: %q", s)
				}
			}
		})
	}
}

// Patience has a bound: a reasoning model still silent after it is cut,
// with words that say so.
func TestReasoningPatienceHasABound(t *testing.T) {
	srv := newServer(t)
	srv.SetReasoning(&openaitest.Reasoning{Think: 30 * time.Second})
	g := newGuide(t, srv, func(c *Config) { c.Model = "o3"; c.Watchdog = 100 * time.Millisecond; c.Attempts = 1 })
	_, _, err := drain(t, g, request(engine.Relaxation))
	var f *Failure
	if !errors.As(err, &f) || f.Kind != kindWatchdog || !strings.Contains(f.Message, "had not begun to write after 300ms") {
		t.Fatalf("err %v", err)
	}
}

// toOpenAI makes a guide talk to the fake as if it were api.openai.com,
// so that its cost is estimated.
func toOpenAI(srv *openaitest.Server) func(*Config) {
	u, _ := url.Parse(srv.URL)
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, u.Host)
	}}
	return func(c *Config) {
		c.BaseURL = "http://api.openai.com/v1"
		c.HTTP = &http.Client{Transport: tr}
	}
}

// Cached input tokens are read from both APIs and priced at the cached
// rate: the cost is lower by exactly the difference on those tokens.
func TestCachedTokensArePricedAsCached(t *testing.T) {
	for _, chat := range []bool{false, true} {
		srv := newServer(t)
		srv.SetNoResponses(chat)
		const cached = 64
		srv.SetCachedTokens(cached)
		g := newGuide(t, srv, toOpenAI(srv), func(c *Config) { c.Model = "gpt-4.1-mini" })
		if chat {
			g.goChat()
		}
		_, rc, err := drain(t, g, request(engine.Atmosphere))
		if err != nil {
			t.Fatal(err)
		}
		if rc.Tokens.Cached != cached || rc.Tokens.In <= cached || rc.Tokens.Out == 0 {
			t.Fatalf("chat %v: tokens %+v", chat, rc.Tokens)
		}
		full := (float64(rc.Tokens.In)*0.40 + float64(rc.Tokens.Out)*1.60) / 1e6
		want := full - cached*(0.40-0.10)/1e6
		if math.Abs(rc.Cost-want) > 1e-12 {
			t.Errorf("chat %v: cost %.9f, want %.9f (uncached %.9f)", chat, rc.Cost, want, full)
		}
	}
}

func TestCostOfCachedTokens(t *testing.T) {
	openai := Config{BaseURL: OpenAIBaseURL}
	for _, tc := range []struct {
		model string
		t     engine.Tokens
		want  float64
	}{
		{"gpt-4.1", engine.Tokens{In: 1e6, Cached: 1e6}, 0.50},
		{"gpt-4.1-mini", engine.Tokens{In: 1e6, Cached: 5e5}, 0.20 + 0.05},
		{"gpt-4.1-nano", engine.Tokens{In: 1e6, Cached: 1e6}, 0.025},
		{"gpt-4o", engine.Tokens{In: 1e6, Cached: 1e6}, 1.25},
		{"gpt-4o-mini-2024-07-18", engine.Tokens{In: 1e6, Cached: 1e6}, 0.075},
		{"gpt-5", engine.Tokens{In: 1e6, Cached: 1e6, Out: 1e6}, 0.125 + 10},
		{"gpt-5-mini", engine.Tokens{In: 1e6, Cached: 1e6}, 0.025},
		{"gpt-5-nano", engine.Tokens{In: 1e6, Cached: 1e6}, 0.005},
		{"gpt-5-nano", engine.Tokens{In: 10, Cached: 50}, 10 * 0.005 / 1e6}, // never more cached than sent
	} {
		openai.Model = tc.model
		if got := cost(openai, tc.t); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s %+v: %v, want %v", tc.model, tc.t, got, tc.want)
		}
	}
}

// A refusal names its parameter in many words; only an optional one the
// request carried is dropped, and only once.
func TestRefusedParameterNames(t *testing.T) {
	for msg, want := range map[string]string{
		"Unsupported parameter: 'reasoning.effort' is not supported with this model.":                  "reasoning.effort",
		"Unsupported value: 'reasoning_effort' does not support 'minimal' with this model.":            "reasoning_effort",
		"property 'reasoning_effort' is unsupported, did you mean 'reasoning_format'?":                 "reasoning_effort",
		"Unrecognized request argument supplied: stream_options":                                       "stream_options",
		"Unsupported parameter: 'reasoning_effort'. In the Responses API, this parameter has moved to": "reasoning_effort",
		"Invalid request": "",
	} {
		if got := unsupportedParam(&openai.Error{Message: msg}); got != want {
			t.Errorf("%q: %q, want %q", msg, got, want)
		}
	}
	if got := unsupportedParam(&openai.Error{Message: "bad", Code: "unsupported_parameter", Param: "temperature"}); got != "temperature" {
		t.Errorf("by code and param: %q", got)
	}
	g := newGuide(t, newServer(t))
	if g.drop("reasoning_effort", []string{paramEffort}) || g.drop("store", []string{"store"}) {
		t.Error("dropped a parameter not sent, or one lull needs")
	}
	if !g.drop("reasoning", []string{paramEffort}) || g.drop("reasoning.effort", []string{paramEffort}) || g.sends(paramEffort) {
		t.Error("reasoning.effort not dropped once and for good")
	}
}
