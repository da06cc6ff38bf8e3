package openaitest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
)

func TestContextWindowRefusesLongPrompts(t *testing.T) {
	s, c := start(t)
	s.SetContextWindow(50) // 200 characters
	long := strings.Repeat("Rest here a little longer. ", 10)

	// Short enough: answered.
	completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("Go on.")}))

	// Streamed: the real shape, an error event after created and in_progress.
	r := ask(context.Background(), c, responses.ResponseNewParams{Input: input(long)})
	var se *ssestream.StreamError
	if !errors.As(r.err, &se) {
		t.Fatalf("err %v (%T), want a stream error event", r.err, r.err)
	}
	if strings.Join(r.types, ",") != "response.created,response.in_progress" {
		t.Errorf("events before the error: %v", r.types)
	}
	var ev struct {
		Type     string `json:"type"`
		Sequence int    `json:"sequence_number"`
		Error    struct {
			Type, Code, Message, Param string
		} `json:"error"`
	}
	if err := json.Unmarshal(se.Event.Data, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.Type != "error" || ev.Sequence != 2 || ev.Error.Code != "context_length_exceeded" || ev.Error.Type != "invalid_request_error" ||
		ev.Error.Param != "input" || ev.Error.Message != overflowMessage {
		t.Errorf("error event %+v", ev)
	}

	// The chained history counts: a short input on a long stored exchange.
	s.SetContextWindow(0)
	id := completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input(long)})).ID
	s.SetContextWindow(50)
	r = ask(context.Background(), c, responses.ResponseNewParams{Input: input("and then?"), PreviousResponseID: openai.String(id)})
	if !errors.As(r.err, &se) || !strings.Contains(se.Message, "context_length_exceeded") {
		t.Errorf("a chain past the window: err %v", r.err)
	}

	// Not streamed: a 400.
	_, err := c.Responses.New(context.Background(), responses.ResponseNewParams{Model: "m", Input: input(long)})
	if e := apiErr(t, err); e.StatusCode != http.StatusBadRequest || e.Code != "context_length_exceeded" || e.Param != "input" {
		t.Errorf("%d %q %q %q", e.StatusCode, e.Code, e.Param, e.Message)
	}
	if n := s.Overflows(); n != 3 {
		t.Errorf("%d overflows counted, want 3", n)
	}
}

func TestContextWindowRefusesLongChats(t *testing.T) {
	s, c := start(t)
	s.SetContextWindow(5) // the chat request's system text alone is longer
	_, err := chatStream(context.Background(), c, true)
	e := apiErr(t, err)
	if e.StatusCode != http.StatusBadRequest || e.Code != "context_length_exceeded" || e.Param != "messages" ||
		!strings.HasPrefix(e.Message, "This model's maximum context length is 5 tokens. However, your messages resulted in ") {
		t.Errorf("%d %q %q %q", e.StatusCode, e.Code, e.Param, e.Message)
	}
	s.SetContextWindow(0)
	if _, err := chatStream(context.Background(), c, true); err != nil {
		t.Errorf("without a window: %v", err)
	}
}
