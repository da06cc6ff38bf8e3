package openaitest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// start runs a server for one test.
func start(t *testing.T) (*Server, openai.Client) {
	t.Helper()
	s := New()
	t.Cleanup(s.Close)
	// A transport of the test's own, so its idle connections go with it.
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	c := openai.NewClient(
		option.WithBaseURL(s.URL),
		option.WithAPIKey("test"),
		option.WithMaxRetries(0),
		option.WithHTTPClient(&http.Client{Transport: tr}),
	)
	return s, c
}

// run is what a streamed Responses call gave.
type run struct {
	text   string // the deltas joined
	deltas int
	types  []string // event types in order
	events []responses.ResponseStreamEventUnion
	last   responses.ResponseStreamEventUnion // the last event
	err    error
}

func (r run) saw(typ string) bool {
	for _, t := range r.types {
		if t == typ {
			return true
		}
	}
	return false
}

// ask streams one Responses call, as lull does.
func ask(ctx context.Context, c openai.Client, p responses.ResponseNewParams) run {
	if p.Model == "" {
		p.Model = "gpt-4.1-mini"
	}
	st := c.Responses.NewStreaming(ctx, p)
	defer st.Close()
	var r run
	for st.Next() {
		ev := st.Current()
		r.types = append(r.types, ev.Type)
		r.events = append(r.events, ev)
		r.last = ev
		if ev.Type == "response.output_text.delta" {
			r.text += ev.Delta
			r.deltas++
		}
	}
	r.err = st.Err()
	return r
}

// completed is the response of a run's response.completed event, or a
// test failure.
func completed(t *testing.T, r run) responses.Response {
	t.Helper()
	if r.err != nil {
		t.Fatalf("stream error: %v", r.err)
	}
	if r.last.Type != "response.completed" {
		t.Fatalf("last event %q, want response.completed (events %v)", r.last.Type, r.types)
	}
	return r.last.Response
}

// apiErr is the *openai.Error in err, or a test failure.
func apiErr(t *testing.T, err error) *openai.Error {
	t.Helper()
	var e *openai.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *openai.Error", err, err)
	}
	return e
}

func input(text string) responses.ResponseNewParamsInputUnion {
	return responses.ResponseNewParamsInputUnion{OfString: openai.String(text)}
}

// callLog records the calls a SetText function sees.
type callLog struct {
	mu    sync.Mutex
	calls []Call
}

func (l *callLog) text(reply string) func(Call) string {
	return func(c Call) string {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.calls = append(l.calls, c)
		return reply
	}
}

func (l *callLog) all() []Call {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.calls)
}

func readAll(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func timeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
