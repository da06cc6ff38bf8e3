package llm

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// localWindow is a small local model's context, 4,096 tokens, less room
// for a reply of ten sentences, as the fake counts tokens.
const localWindow = 4096 - 512

// promptChars is a generation request's instructions and input, in
// characters.
func promptChars(r openaitest.Request) int {
	n := 0
	if s, ok := r.JSON["instructions"].(string); ok {
		n += len(s)
	}
	for _, key := range []string{"input", "messages"} {
		items, _ := r.JSON[key].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				if s, ok := m["content"].(string); ok {
					n += len(s)
				}
			}
		}
	}
	return n
}

// TestStatelessSixtyMinutesStayWithinBudget: the last call of a 60-minute
// private session of short sentences still fits a 4k-token local model;
// the newest lines go verbatim and the earlier ones as a recap.
func TestStatelessSixtyMinutesStayWithinBudget(t *testing.T) {
	srv := newServer(t)
	srv.SetContextWindow(localWindow)
	m := &model{short: true}
	srv.SetText(m.write)
	g := newGuide(t, srv, func(c *Config) { c.Private = true; c.Watchdog = 10 * time.Second })
	e, sp := session(t, g, engine.Options{Length: 60 * time.Minute, Intention: "rest after a long week"})

	reqs := generations(srv)
	largest, last := 0, reqs[len(reqs)-1]
	for _, r := range reqs {
		largest = max(largest, promptChars(r))
		if r.JSON["store"] != false {
			t.Fatalf("a private session stored a response")
		}
	}
	t.Logf("%d calls, %d sentences spoken; the largest call sent %d characters, the last %d", len(reqs), len(sp.lines()), largest, promptChars(last))
	if n := srv.Overflows(); n != 0 {
		t.Errorf("%d calls exceeded a %d-token context", n, localWindow)
	}
	if largest > budgetChars(promptBudget) {
		t.Errorf("the largest call sent %d characters, over the budget of %d", largest, budgetChars(promptBudget))
	}
	if st := e.Snapshot(); st.Status != engine.Completed || st.Guide != "openai" {
		t.Errorf("status %s, guide %s", st.Status, st.Guide)
	}
	in := inputs(last)
	if len(in) < 3 || !strings.Contains(in[0], "Earlier in the session, summarised rather than repeated: atmosphere, ") {
		t.Fatalf("the last call does not open with a recap: %q", in[:min(len(in), 2)])
	}
	// The recent lines are there word for word, up to the newest one
	// said before the call.
	said := strings.Split(in[len(in)-2], "\n")
	if len(said) < 10 {
		t.Errorf("the last call retells only %d recent lines", len(said))
	}
	played := sp.lines()
	var at int
	for i, l := range played {
		if l.Text == said[len(said)-1] {
			at = i
		}
	}
	if at < len(played)-2*engine.MaxPerCall {
		t.Errorf("the last call's newest line %q is line %d of %d spoken: not the newest", said[len(said)-1], at, len(played))
	}
}

func TestContextExceededRestartsTheChainFromARecap(t *testing.T) {
	srv := newServer(t)
	// As much as one call may give (a reply past it is cut), in long sentences.
	long := strings.Repeat("Let the whole body rest here a little longer, with the heels and the hands and the shoulders heavy, nothing at all to do. ", 12)
	srv.SetText(func(openaitest.Call) string { return long })
	g := newGuide(t, srv)
	firstReq := request(engine.Sensory)
	firstReq.Budget = engine.Budget{Sentences: 12, WindDownAt: 10}
	_, first, err := drain(t, g, firstReq)
	if err != nil {
		t.Fatal(err)
	}
	srv.SetText(nil)
	srv.SetContextWindow(2050) // the stored exchange and the instructions are more
	req := request(engine.Sensory)
	req.Chain, req.Spoken = first.ResponseID, 4
	for i := range 12 {
		req.History = append(req.History, engine.Entry{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: fmt.Sprintf("A lamp glows low in the quiet room, moment %d.", i)})
	}
	req.History = append(req.History, engine.Entry{Phase: engine.Sensory, Role: engine.RoleGuide, Text: "Notice the heels."})
	g.recapNext.Store(false)
	said, rc, err := drain(t, g, req)
	if err != nil || len(said) == 0 {
		t.Fatalf("said %d, err %v: the model was abandoned", len(said), err)
	}
	reqs := generations(srv)
	if len(reqs) != 3 || srv.Overflows() != 1 {
		t.Fatalf("%d calls, %d overflows; want the chained one refused and one retry", len(reqs), srv.Overflows())
	}
	retry := reqs[2]
	if retry.JSON["previous_response_id"] != nil || retry.JSON["store"] != true {
		t.Errorf("the retry: previous %v store %v; want a new chain, stored", retry.JSON["previous_response_id"], retry.JSON["store"])
	}
	in := strings.Join(inputs(retry), "\n")
	if !strings.Contains(in, "Notice the heels.") || !strings.Contains(in, "A lamp glows low in the quiet room, moment 11.") {
		t.Errorf("the retry does not retell the session: %q", in)
	}
	if !rc.Completed || rc.ResponseID == "" || !contains(rc.Stored, rc.ResponseID) {
		t.Errorf("receipt %+v: the retry's response should become the new chain", rc)
	}
	if strings.Contains(g.Describe(), "stateless") {
		t.Errorf("the guide went stateless for good: %s", g.Describe())
	}
	if g.budget() != promptBudget {
		t.Errorf("budget %d: a chain that grew too long says nothing of the history's budget", g.budget())
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestContextExceededShrinksAStatelessHistory(t *testing.T) {
	for _, api := range []string{"responses", "chat"} {
		t.Run(api, func(t *testing.T) {
			srv := newServer(t)
			srv.SetNoResponses(api == "chat")
			srv.SetContextWindow(2200) // about 8,800 characters: less than the budget allows
			g := newGuide(t, srv, func(c *Config) { c.Private = true })
			req := request(engine.Relaxation)
			req.Spoken = 3
			for i := range 120 {
				req.History = append(req.History, engine.Entry{Phase: engine.Phases[i/30], Role: engine.RoleGuide,
					Text: fmt.Sprintf("Soft light settles over the quiet shore, moment %d.", i)})
			}
			said, _, err := drain(t, g, req)
			if err != nil || len(said) == 0 {
				t.Fatalf("said %d, err %v", len(said), err)
			}
			var gens []openaitest.Request
			for _, r := range generations(srv) {
				if r.Path == "/v1/"+map[string]string{"responses": "responses", "chat": "chat/completions"}[api] {
					gens = append(gens, r)
				}
			}
			if len(gens) < 2 || srv.Overflows() != len(gens)-1 {
				t.Fatalf("%d calls, %d overflows", len(gens), srv.Overflows())
			}
			if a, b := promptChars(gens[0]), promptChars(gens[len(gens)-1]); b >= a {
				t.Errorf("the retry sent %d characters, the refused call %d", b, a)
			}
			// The next call sends the smaller history at once.
			before := srv.Overflows()
			if _, _, err := drain(t, g, req); err != nil {
				t.Fatal(err)
			}
			if srv.Overflows() != before {
				t.Error("the next call overflowed again: the smaller budget was forgotten")
			}
		})
	}
}

func TestContextTooSmallForAnyRecapFailsTheCall(t *testing.T) {
	srv := newServer(t)
	srv.SetContextWindow(100) // not even the instructions fit
	g := newGuide(t, srv)
	_, _, err := drain(t, g, request(engine.Sensory))
	var f *Failure
	if !errors.As(err, &f) || !f.overflow() {
		t.Fatalf("err %v, want the overflow", err)
	}
	if n := len(generations(srv)); n != 1+maxOverflows {
		t.Errorf("%d calls, want %d", n, 1+maxOverflows)
	}
}

func TestOverflowIsReadInEveryServersWords(t *testing.T) {
	for _, tc := range []struct {
		f    Failure
		want bool
	}{
		{Failure{Kind: kindStatus, Status: 400, Code: "context_length_exceeded", Message: "Your input exceeds the context window of this model. Please adjust your input and try again."}, true},
		{Failure{Kind: kindStatus, Status: 400, Message: "This model's maximum context length is 4096 tokens. However, your messages resulted in 5120 tokens."}, true},
		{Failure{Kind: kindStatus, Status: 400, Message: "the request exceeds the available context size, try increasing it"}, true},
		{Failure{Kind: kindStreamError, Code: "context_length_exceeded", Message: "Your input exceeds the context window of this model."}, true},
		{Failure{Kind: kindNetwork, Message: `received error while streaming: {"type":"invalid_request_error","code":"context_length_exceeded","message":"Your input exceeds the context window of this model.","param":"input"}`}, true},
		{Failure{Kind: kindStatus, Status: http.StatusTooManyRequests, Code: "rate_limit_exceeded", Message: "Rate limit reached on tokens per min (TPM): too many tokens"}, false},
		{Failure{Kind: kindStatus, Status: 400, Code: "previous_response_not_found", Message: "Previous response with id 'resp_x' not found."}, false},
		{Failure{Kind: kindStatus, Status: 500, Message: "The server had an error while processing your request."}, false},
	} {
		if got := tc.f.overflow(); got != tc.want {
			t.Errorf("%s: overflow %v, want %v", tc.f.Error(), got, tc.want)
		}
	}
}
