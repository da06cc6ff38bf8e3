package llm

import (
	"errors"
	"io"
	"strings"
	"testing"

	"lull/engine"
	"lull/internal/openaitest"
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
