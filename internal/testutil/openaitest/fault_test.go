package openaitest

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
)

const sixWords = "Soft light rests here. Stay with it. Nothing to do. "

func TestResponsesFaults(t *testing.T) {
	cases := []struct {
		name  string
		fault Fault
		check func(t *testing.T, s *Server, r run)
	}{{
		name:  "error event",
		fault: ErrorEvent(),
		check: func(t *testing.T, s *Server, r run) {
			var se *ssestream.StreamError
			if !errors.As(r.err, &se) || se.Event.Type != "error" || !strings.Contains(se.Message, "insufficient_quota") {
				t.Errorf("error %v (%T), want the insufficient_quota error event", r.err, r.err)
			}
			if r.deltas != 2 || r.saw("response.completed") {
				t.Errorf("%d deltas, events %v", r.deltas, r.types)
			}
			if len(s.Stored()) != 0 {
				t.Errorf("a failed response was stored")
			}
		},
	}, {
		name:  "quota exhausted at the start",
		fault: QuotaExhausted(),
		check: func(t *testing.T, s *Server, r run) {
			var se *ssestream.StreamError
			if !errors.As(r.err, &se) || se.Event.Type != "error" || !strings.Contains(string(se.Event.Data), `"error":{"type":"insufficient_quota"`) {
				t.Errorf("error %v (%T), want the nested insufficient_quota error event", r.err, r.err)
			}
			if !slices.Equal(r.types, []string{"response.created", "response.in_progress"}) || len(s.Stored()) != 0 {
				t.Errorf("events %v before the error; stored %v", r.types, s.Stored())
			}
		},
	}, {
		name:  "server error event",
		fault: ServerErrorEvent(),
		check: func(t *testing.T, _ *Server, r run) {
			var se *ssestream.StreamError
			if !errors.As(r.err, &se) || !strings.Contains(string(se.Event.Data), `"error":{"type":"server_error","code":null`) || r.deltas != 2 {
				t.Errorf("error %v after %d deltas", r.err, r.deltas)
			}
		},
	}, {
		name:  "flat error event",
		fault: FlatErrorEvent(),
		check: func(t *testing.T, _ *Server, r run) {
			// No "error" object: openai-go hands the event over as it is.
			if r.err != nil || !r.saw("error") || r.deltas != 2 {
				t.Fatalf("err %v, %d deltas, events %v", r.err, r.deltas, r.types)
			}
			e := r.events[slices.Index(r.types, "error")].AsError()
			if e.Code != "insufficient_quota" || !strings.HasPrefix(e.Message, "You exceeded your current quota") || r.last.Type != "response.failed" {
				t.Errorf("flat event %+v, last %s", e, r.last.Type)
			}
		},
	}, {
		name:  "429 with Retry-After",
		fault: Status(429, "7"),
		check: func(t *testing.T, _ *Server, r run) {
			e := apiErr(t, r.err)
			if e.StatusCode != 429 || e.Code != "rate_limit_exceeded" || e.Type != "requests" ||
				e.Response.Header.Get("Retry-After") != "7" {
				t.Errorf("%d %q %q Retry-After %q", e.StatusCode, e.Code, e.Type, e.Response.Header.Get("Retry-After"))
			}
		},
	}, {
		name:  "503 with retry-after-ms",
		fault: StatusMs(503, 250),
		check: func(t *testing.T, _ *Server, r run) {
			e := apiErr(t, r.err)
			if e.StatusCode != 503 || e.Type != "server_error" || e.Response.Header.Get("retry-after-ms") != "250" ||
				e.Response.Header.Get("Retry-After") != "" {
				t.Errorf("%d %q headers %v", e.StatusCode, e.Type, e.Response.Header)
			}
		},
	}, {
		name:  "500",
		fault: Status(500, ""),
		check: func(t *testing.T, _ *Server, r run) {
			if e := apiErr(t, r.err); e.StatusCode != 500 || e.Type != "server_error" || e.Message == "" {
				t.Errorf("%d %q %q", e.StatusCode, e.Type, e.Message)
			}
		},
	}, {
		name:  "cut",
		fault: Cut(3),
		check: func(t *testing.T, s *Server, r run) {
			if r.err != nil || r.deltas != 3 || r.saw("response.completed") || r.saw("error") {
				t.Errorf("err %v, %d deltas, events %v", r.err, r.deltas, r.types)
			}
			if len(s.Stored()) != 0 {
				t.Errorf("a cut response was stored")
			}
		},
	}, {
		name:  "incomplete",
		fault: Incomplete(),
		check: func(t *testing.T, s *Server, r run) {
			if r.err != nil || r.last.Type != "response.incomplete" {
				t.Fatalf("err %v, last event %q", r.err, r.last.Type)
			}
			resp := r.last.Response
			if resp.Status != "incomplete" || resp.IncompleteDetails.Reason != "max_output_tokens" {
				t.Errorf("status %q reason %q", resp.Status, resp.IncompleteDetails.Reason)
			}
			if resp.OutputText() != r.text || strings.HasSuffix(strings.TrimSpace(r.text), ".") || r.text == "" {
				t.Errorf("text %q (output %q) is not cut mid-sentence", r.text, resp.OutputText())
			}
			if resp.Usage.OutputTokens != int64(r.deltas) {
				t.Errorf("usage %+v for %d deltas", resp.Usage, r.deltas)
			}
			if len(s.Stored()) != 1 {
				t.Errorf("an incomplete response is stored, as the API stores it")
			}
		},
	}, {
		name:  "replay",
		fault: Replay("responses_stream_text.sse"),
		check: func(t *testing.T, _ *Server, r run) {
			resp := completed(t, r)
			if r.text != "The capital of France is Paris." || resp.OutputText() != r.text || resp.Usage.TotalTokens != 71 {
				t.Errorf("text %q output %q usage %+v", r.text, resp.OutputText(), resp.Usage)
			}
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := start(t)
			s.SetText(func(Call) string { return sixWords })
			s.Push(tc.fault)
			tc.check(t, s, ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi")}))
			// The fault was used up: the next call is answered.
			completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi")}))
		})
	}
}

func TestHangEndsWithTheClientsContext(t *testing.T) {
	for _, api := range []string{"responses", "chat"} {
		t.Run(api, func(t *testing.T) {
			s, c := start(t)
			s.Push(Hang())
			ctx := timeout(t, 300*time.Millisecond)
			began := time.Now()
			var err error
			if api == "responses" {
				r := ask(ctx, c, responses.ResponseNewParams{Input: input("hi")})
				if !slices.Equal(r.types, []string{"response.created", "response.in_progress"}) {
					t.Errorf("events %v, want created and in_progress only", r.types)
				}
				err = r.err
			} else {
				_, err = chatText(ctx, c, true)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v, want the context's deadline", err)
			}
			if d := time.Since(began); d > 3*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestChatFaults(t *testing.T) {
	cases := []struct {
		name  string
		fault Fault
		check func(t *testing.T, r chatRun, err error)
	}{
		{"error chunk", ErrorEvent(), func(t *testing.T, r chatRun, err error) {
			var se *ssestream.StreamError
			if !errors.As(err, &se) || !strings.Contains(se.Message, "insufficient_quota") || r.text == "" {
				t.Errorf("err %v text %q", err, r.text)
			}
		}},
		{"quota exhausted at the start", QuotaExhausted(), func(t *testing.T, r chatRun, err error) {
			if e := apiErr(t, err); e.StatusCode != 429 || e.Code != "insufficient_quota" || r.text != "" {
				t.Errorf("%d %q text %q", e.StatusCode, e.Code, r.text)
			}
		}},
		{"server error chunk", ServerErrorEvent(), func(t *testing.T, r chatRun, err error) {
			var se *ssestream.StreamError
			if !errors.As(err, &se) || !strings.Contains(string(se.Event.Data), `"type":"server_error"`) || r.text == "" {
				t.Errorf("err %v text %q", err, r.text)
			}
		}},
		{"cut", Cut(2), func(t *testing.T, r chatRun, err error) {
			if err != nil || r.finish != "" || r.usage != nil || r.text != strings.Join(deltas(sixWords)[:2], "") {
				t.Errorf("err %v finish %q usage %v text %q", err, r.finish, r.usage, r.text)
			}
		}},
		{"length", Incomplete(), func(t *testing.T, r chatRun, err error) {
			if err != nil || r.finish != "length" || r.usage == nil || strings.HasSuffix(strings.TrimSpace(r.text), ".") {
				t.Errorf("err %v finish %q usage %v text %q", err, r.finish, r.usage, r.text)
			}
		}},
		{"429", Status(429, "1"), func(t *testing.T, _ chatRun, err error) {
			if e := apiErr(t, err); e.StatusCode != 429 || e.Response.Header.Get("Retry-After") != "1" {
				t.Errorf("%d %v", e.StatusCode, e.Response.Header)
			}
		}},
		{"replay", Replay("chat_stream_text_include_usage.sse"), func(t *testing.T, r chatRun, err error) {
			if err != nil || r.text != "The capital of the UK is London." || r.finish != "stop" || r.usage.TotalTokens != 87 {
				t.Errorf("err %v text %q finish %q usage %+v", err, r.text, r.finish, r.usage)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := start(t)
			s.SetText(func(Call) string { return sixWords })
			s.Push(tc.fault)
			r, err := chatStream(context.Background(), c, true)
			tc.check(t, r, err)
		})
	}
}

func TestFaultsAreTakenInOrderByGenerationsOnly(t *testing.T) {
	s, c := start(t)
	s.Push(Status(429, ""), Status(500, ""))
	// Moderation and DELETE take no fault.
	if _, err := c.Moderations.New(context.Background(), openai.ModerationNewParams{
		Input: openai.ModerationNewParamsInputUnion{OfString: openai.String("x")},
	}); err != nil {
		t.Fatal(err)
	}
	_ = c.Responses.Delete(context.Background(), "resp_nope")
	if e := apiErr(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("a")}).err); e.StatusCode != 429 {
		t.Errorf("first: %d", e.StatusCode)
	}
	if _, err := chatText(context.Background(), c, false); apiErr(t, err).StatusCode != 500 {
		t.Errorf("second: %v", err)
	}
	completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("a")}))
}

func TestDieAfter(t *testing.T) {
	s, c := start(t)
	s.DieAfter(1)
	completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("a")}))

	r := ask(context.Background(), c, responses.ResponseNewParams{Input: input("b")})
	var e *openai.Error
	if r.err == nil || errors.As(r.err, &e) {
		t.Errorf("a dead server answered: %v", r.err)
	}
	if _, err := c.Moderations.New(context.Background(), openai.ModerationNewParams{
		Input: openai.ModerationNewParamsInputUnion{OfString: openai.String("x")},
	}); err == nil {
		t.Errorf("a dead server answered a moderation")
	}
	if _, err := chatText(context.Background(), c, false); err == nil {
		t.Errorf("a dead server answered a chat")
	}

	s.Revive()
	completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("c")}))

	s.DieAfter(0)
	res, err := http.Get(s.URL + "/models")
	if err == nil {
		res.Body.Close()
		t.Errorf("DieAfter(0) answered: %s", res.Status)
	}
}
