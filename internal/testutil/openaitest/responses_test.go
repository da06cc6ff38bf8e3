package openaitest

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

func TestResponsesStreamAccumulatesTextAndUsage(t *testing.T) {
	s, c := start(t)
	r := ask(context.Background(), c, responses.ResponseNewParams{
		Instructions: openai.String("You guide a relaxation.\nCURRENT PHASE: Sensory\nSpeak slowly."),
		Input:        input("Go on."),
	})
	resp := completed(t, r)

	want := []string{"response.created", "response.in_progress", "response.output_item.added", "response.content_part.added"}
	if !slices.Equal(r.types[:4], want) {
		t.Errorf("stream starts %v, want %v", r.types[:4], want)
	}
	if resp.OutputText() != r.text {
		t.Errorf("completed text %q, deltas gave %q", resp.OutputText(), r.text)
	}
	if n := strings.Count(r.text, ". "); n != 6 || !strings.HasSuffix(r.text, ". ") {
		t.Errorf("text %q: want 6 sentences each ending in \". \"", r.text)
	}
	if !strings.Contains(r.text, "sensory phase") {
		t.Errorf("text %q does not name the sensory phase", r.text)
	}
	if resp.Usage.OutputTokens != int64(r.deltas) || resp.Usage.InputTokens < 1 ||
		resp.Usage.TotalTokens != resp.Usage.InputTokens+resp.Usage.OutputTokens {
		t.Errorf("usage %+v with %d deltas", resp.Usage, r.deltas)
	}
	if resp.Model != "gpt-4.1-mini" || !strings.HasPrefix(resp.ID, "resp_") || resp.Status != "completed" {
		t.Errorf("response id %q model %q status %q", resp.ID, resp.Model, resp.Status)
	}
	if resp.Instructions.OfString != "You guide a relaxation.\nCURRENT PHASE: Sensory\nSpeak slowly." {
		t.Errorf("instructions not echoed: %q", resp.Instructions.RawJSON())
	}
	if got := s.Stored(); !slices.Equal(got, []string{resp.ID}) {
		t.Errorf("stored %v, want [%s]", got, resp.ID)
	}
}

func TestDefaultTextNeverRepeatsASentence(t *testing.T) {
	_, c := start(t)
	seen := map[string]bool{}
	for _, phase := range []string{"atmosphere", "BREATHING", "relaxation", "resolution", "", "resolution"} {
		r := ask(context.Background(), c, responses.ResponseNewParams{
			Instructions: openai.String("CURRENT PHASE: " + phase),
			Input:        input("next"),
		})
		completed(t, r)
		for _, sentence := range strings.SplitAfter(strings.TrimSpace(r.text), ". ") {
			sentence = strings.TrimSpace(sentence)
			if seen[sentence] {
				t.Errorf("sentence %q repeated", sentence)
			}
			seen[sentence] = true
			if phase != "" && !strings.Contains(sentence, strings.ToLower(phase)+" phase") {
				t.Errorf("sentence %q does not name phase %s", sentence, phase)
			}
		}
	}
	if len(seen) != 36 {
		t.Errorf("%d distinct sentences, want 36", len(seen))
	}
}

func TestSetTextSeesTheCall(t *testing.T) {
	s, c := start(t)
	var log callLog
	s.SetText(log.text("One. Two three four five six seven."))
	first := completed(t, ask(context.Background(), c, responses.ResponseNewParams{
		Instructions: openai.String("be calm"),
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage("hello", responses.EasyInputMessageRoleUser),
		}},
		Store: openai.Bool(true),
	}))
	r := ask(context.Background(), c, responses.ResponseNewParams{
		Input:              input("again"),
		PreviousResponseID: openai.String(first.ID),
		Store:              openai.Bool(false),
	})
	if got := completed(t, r).OutputText(); got != "One. Two three four five six seven." {
		t.Errorf("text %q", got)
	}
	calls := log.all()
	if len(calls) != 2 {
		t.Fatalf("%d calls", len(calls))
	}
	want0 := Call{API: "responses", Model: "gpt-4.1-mini", Instructions: "be calm", Input: []Message{{"user", "hello"}}, Store: true, N: 1}
	if !callEqual(calls[0], want0) {
		t.Errorf("first call %+v, want %+v", calls[0], want0)
	}
	want1 := Call{API: "responses", Model: "gpt-4.1-mini", Input: []Message{{"user", "again"}}, PreviousID: first.ID, N: 2,
		History: []Message{{"user", "hello"}, {"assistant", "One. Two three four five six seven."}}}
	if !callEqual(calls[1], want1) {
		t.Errorf("second call %+v, want %+v", calls[1], want1)
	}
	if got := s.Stored(); !slices.Equal(got, []string{first.ID}) {
		t.Errorf("store:false was stored: %v", got)
	}
	if d := deltas("One. Two three four five six seven."); r.deltas != len(d) {
		t.Errorf("%d deltas, want %d", r.deltas, len(d))
	}
}

func callEqual(a, b Call) bool {
	return a.API == b.API && a.Model == b.Model && a.Instructions == b.Instructions &&
		slices.Equal(a.Input, b.Input) && a.PreviousID == b.PreviousID && a.Store == b.Store &&
		a.N == b.N && slices.Equal(a.History, b.History)
}

func TestPreviousResponseID(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(s *Server)
		prevID func(t *testing.T, s *Server, c openai.Client) string
		// want: "" a completed answer echoing the id; "null" one echoing
		// null; else the 400's message.
		want     string
		wantCode string
	}{{
		name:   "stored",
		prevID: storedID,
	}, {
		name: "deleted",
		prevID: func(t *testing.T, s *Server, c openai.Client) string {
			id := storedID(t, s, c)
			if err := c.Responses.Delete(context.Background(), id); err != nil {
				t.Fatal(err)
			}
			return id
		},
		want:     "Previous response with id '%s' not found.",
		wantCode: "previous_response_not_found",
	}, {
		name:     "never created",
		prevID:   func(*testing.T, *Server, openai.Client) string { return "resp_nope" },
		want:     "Previous response with id '%s' not found.",
		wantCode: "previous_response_not_found",
	}, {
		name:   "ignored like Ollama",
		setup:  func(s *Server) { s.SetIgnorePrevious(true) },
		prevID: func(*testing.T, *Server, openai.Client) string { return "resp_whatever" },
		want:   "null",
	}, {
		name:   "rejected like llama.cpp",
		setup:  func(s *Server) { s.SetRejectPrevious(true) },
		prevID: storedID,
		want:   "previous_response_id is not supported",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, c := start(t)
			id := tc.prevID(t, s, c)
			if tc.setup != nil {
				tc.setup(s)
			}
			var log callLog
			s.SetText(log.text("Fine."))
			r := ask(context.Background(), c, responses.ResponseNewParams{
				Input:              input("and then?"),
				PreviousResponseID: openai.String(id),
			})
			var history []Message
			if calls := log.all(); len(calls) > 0 {
				history = calls[0].History
			}
			switch tc.want {
			case "":
				if got := completed(t, r).PreviousResponseID; got != id {
					t.Errorf("previous_response_id echoed %q, want %q", got, id)
				}
				if len(history) != 2 {
					t.Errorf("history %v, want the stored exchange", history)
				}
			case "null":
				resp := completed(t, r)
				if raw := resp.JSON.PreviousResponseID.Raw(); raw != "null" {
					t.Errorf("previous_response_id echoed %s, want null", raw)
				}
				if len(history) != 0 {
					t.Errorf("ignored previous id still gave history %v", history)
				}
			default:
				e := apiErr(t, r.err)
				want := tc.want
				if strings.Contains(want, "%s") {
					want = strings.Replace(want, "%s", id, 1)
				}
				if e.StatusCode != http.StatusBadRequest || e.Message != want || e.Code != tc.wantCode ||
					e.Param != "previous_response_id" || e.Type != "invalid_request_error" {
					t.Errorf("error %d %q code %q param %q type %q, want 400 %q code %q",
						e.StatusCode, e.Message, e.Code, e.Param, e.Type, want, tc.wantCode)
				}
			}
		})
	}
}

// storedID makes a stored response and returns its id.
func storedID(t *testing.T, _ *Server, c openai.Client) string {
	t.Helper()
	return completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi")})).ID
}

func TestDeleteResponse(t *testing.T) {
	s, c := start(t)
	id := storedID(t, s, c)
	if err := c.Responses.Delete(context.Background(), id); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if got := s.Deleted(); !slices.Equal(got, []string{id}) {
		t.Errorf("deleted %v", got)
	}
	if got := s.Stored(); len(got) != 0 {
		t.Errorf("still stored: %v", got)
	}
	e := apiErr(t, c.Responses.Delete(context.Background(), id))
	if e.StatusCode != http.StatusNotFound || e.Message != "No response found with id '"+id+"'." {
		t.Errorf("second delete: %d %q", e.StatusCode, e.Message)
	}

	// The body of a deletion, in the recorded shape.
	id = storedID(t, s, c)
	req, _ := http.NewRequest(http.MethodDelete, s.URL+"/responses/"+id, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body := readAll(t, res.Body)
	if want := `{"id":"` + id + `","object":"response","deleted":true}`; body != want {
		t.Errorf("deletion body %s, want %s", body, want)
	}
}

func TestNoResponsesIsChatOnly(t *testing.T) {
	s, c := start(t)
	s.SetNoResponses(true)
	s.Push(Status(500, ""))
	e := apiErr(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi")}).err)
	if e.StatusCode != http.StatusNotFound {
		t.Errorf("status %d, want 404", e.StatusCode)
	}
	// The 404 took no fault: the chat call gets the queued 500.
	_, err := chatText(context.Background(), c, true)
	if e := apiErr(t, err); e.StatusCode != 500 {
		t.Errorf("chat after 404: %d, want the queued 500", e.StatusCode)
	}
	if _, err := chatText(context.Background(), c, true); err != nil {
		t.Errorf("chat on a chat-only server: %v", err)
	}
}

func TestRequestsAreRecorded(t *testing.T) {
	s, c := start(t)
	id := storedID(t, s, c)
	_ = c.Responses.Delete(context.Background(), id)
	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if r := reqs[0]; r.Method != "POST" || r.Path != "/v1/responses" || r.JSON["stream"] != true ||
		r.Header.Get("Authorization") != "Bearer test" || r.At.IsZero() {
		t.Errorf("first request %s %s %v %v", r.Method, r.Path, r.JSON, r.Header)
	}
	if r := reqs[1]; r.Method != "DELETE" || r.Path != "/v1/responses/"+id || r.JSON != nil {
		t.Errorf("second request %s %s %v", r.Method, r.Path, r.JSON)
	}
}
