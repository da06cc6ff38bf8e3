package llm

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// A line of megabytes from the server is refused as it arrives, before
// anything holds it: the call is retried and the listener hears the next
// answer. (Read whole, a 10 MB line cost 389 MB, and a call that met one
// did not end in ten minutes.)
func TestAHugeLineIsRefusedNotHeld(t *testing.T) {
	for _, chat := range []bool{false, true} {
		srv := newServer(t)
		srv.SetNoResponses(chat)
		srv.Push(openaitest.HugeLine(10 << 20))
		g := newGuide(t, srv)
		said, _, err := drain(t, g, request(engine.Sensory))
		if err != nil || len(said) == 0 {
			t.Fatalf("chat %v: said %d, err %v", chat, len(said), err)
		}
		for _, s := range said {
			if strings.Contains(s, "calm calm calm") {
				t.Fatalf("chat %v: the huge line was spoken", chat)
			}
		}
		if n := len(generations(srv)); n < 2 {
			t.Errorf("chat %v: %d calls, want the refused one retried", chat, n)
		}
	}
}

// The bounds hand on nothing past them: a line past maxLine, or a body
// past maxBody, fails the read having given at most the bound.
func TestBoundedBodyStopsAtItsBounds(t *testing.T) {
	for _, c := range []struct {
		name string
		body string
	}{
		{"a long line", strings.Repeat("x", maxLine+1)},
		{"a long body", strings.Repeat(strings.Repeat("y", 1000)+"\n", maxBody/1000+2)},
	} {
		b := &boundedBody{body: io.NopCloser(strings.NewReader(c.body))}
		got, err := io.ReadAll(b)
		if !errors.Is(err, errTooLong) {
			t.Errorf("%s: read %d bytes, err %v; want errTooLong", c.name, len(got), err)
		}
		if len(got) > maxBody {
			t.Errorf("%s: handed on %d bytes", c.name, len(got))
		}
	}
	small := strings.Repeat("data: {\"delta\":\"calm \"}\n\n", 1000)
	got, err := io.ReadAll(&boundedBody{body: io.NopCloser(strings.NewReader(small))})
	if err != nil || string(got) != small {
		t.Errorf("an ordinary stream: %d bytes, %v", len(got), err)
	}
}

// Every call is bounded in what it may write: the sentences asked for and
// a margin (a model in a loop stops there), under each API's name for it;
// a server that refuses the parameter is asked again without it.
func TestEveryCallBoundsItsOutput(t *testing.T) {
	for _, c := range []struct {
		chat        bool
		param, path string
	}{{false, "max_output_tokens", "/v1/responses"}, {true, "max_tokens", "/v1/chat/completions"}} {
		srv := newServer(t)
		srv.SetNoResponses(c.chat)
		g := newGuide(t, srv)
		req := request(engine.Sensory)
		if _, _, err := drain(t, g, req); err != nil {
			t.Fatal(err)
		}
		want := float64(req.Asked()*tokensPerSentence + tokenMargin)
		for _, r := range generations(srv) {
			if r.Path != c.path {
				continue // the Responses call that found no Responses API
			}
			if got, _ := r.JSON[c.param].(float64); got != want {
				t.Errorf("chat %v: %s = %v, want %v", c.chat, c.param, r.JSON[c.param], want)
			}
		}

		refusing := newServer(t)
		refusing.SetNoResponses(c.chat)
		refusing.SetRejectParams(c.param)
		g = newGuide(t, refusing)
		said, _, err := drain(t, g, req)
		if err != nil || len(said) == 0 {
			t.Errorf("chat %v: a server refusing %s: said %d, %v", c.chat, c.param, len(said), err)
		}
	}
}

// A model caught in a loop, on a server that ignores the output-token
// limit, streams sentence after sentence and never finishes: the reply is
// cut at the most a call may give, and the call ends. Both APIs.
func TestAnEndlessReplyIsCut(t *testing.T) {
	for _, chat := range []bool{false, true} {
		srv := newServer(t)
		srv.SetNoResponses(chat)
		srv.Push(openaitest.Endless(time.Millisecond))
		g := newGuide(t, srv)
		req := request(engine.Sensory)
		said, rc, err := drain(t, g, req)
		if err != nil {
			t.Fatalf("chat %v: %v", chat, err)
		}
		if len(said) != req.Most() {
			t.Errorf("chat %v: %d sentences said; the most a call may give is %d", chat, len(said), req.Most())
		}
		if rc.Completed {
			t.Errorf("chat %v: a cut reply counted as completed: a chain would continue from it", chat)
		}
	}
}
