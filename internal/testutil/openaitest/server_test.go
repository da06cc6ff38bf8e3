package openaitest

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// The templates are the recorded events: parsed and written back they are
// byte for byte what OpenAI sent.
func TestRecordedEventsRoundTrip(t *testing.T) {
	for _, file := range []string{"responses_stream_text.sse", "responses_stream_text_minimal.sse",
		"chat_stream_text_include_usage.sse", "responses_stream_error_event.derived.sse",
		"responses_stream_reasoning.derived.sse", "responses_stream_error_null_code.derived.sse"} {
		events, err := readSSE(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range events {
			if string(ev.Data) == "[DONE]" {
				continue
			}
			o, err := parseObject(ev.Data)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if got := string(o.bytes()); got != string(ev.Data) {
				t.Errorf("%s %s:\n got %s\nwant %s", file, ev.Type, got, ev.Data)
			}
		}
	}
}

// sseFrames reads a raw stream into (event, data) frames, checking the
// framing on the way.
func sseFrames(t *testing.T, res *http.Response) [][2]string {
	t.Helper()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream; charset=utf-8" {
		t.Errorf("content type %q", ct)
	}
	var frames [][2]string
	var cur [2]string
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			frames = append(frames, cur)
			cur = [2]string{}
		case strings.HasPrefix(line, "event: "):
			cur[0] = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if cur[1] != "" {
				t.Errorf("two data lines in one event")
			}
			cur[1] = strings.TrimPrefix(line, "data: ")
		default:
			t.Errorf("unexpected line %q", line)
		}
	}
	if cur != [2]string{} {
		t.Errorf("stream ends inside an event")
	}
	return frames
}

// Every field of a recorded event is in the fake's event of that type, in
// the recorded order, and the wire framing is the recorded one.
func TestEventsCarryEveryRecordedField(t *testing.T) {
	s, _ := start(t)
	byType, err := eventsByType("responses_stream_text.sse")
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Post(s.URL+"/responses", "application/json",
		strings.NewReader(`{"model":"gpt-4o","input":"hi","stream":true,"instructions":"CURRENT PHASE: atmosphere","temperature":0.7}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	frames := sseFrames(t, res)
	seq := 0
	for _, f := range frames {
		if f[1] == "[DONE]" {
			t.Errorf("a Responses stream has no [DONE]")
		}
		got, err := parseObject([]byte(f[1]))
		if err != nil {
			t.Fatal(err)
		}
		if got.get("type") != f[0] {
			t.Errorf("event line %q, data type %v", f[0], got.get("type"))
		}
		if n := fmt.Sprint(got.get("sequence_number")); n != strconv.Itoa(seq) {
			t.Errorf("%s: sequence_number %v, want %d", f[0], n, seq)
		}
		seq++
		want := byType[f[0]]
		if want == nil {
			t.Fatalf("event %q is not in the recording", f[0])
		}
		sameKeys(t, f[0], want, got)
	}
	last, _ := parseObject([]byte(frames[len(frames)-1][1]))
	resp := last.obj("response")
	if resp.get("instructions") != "CURRENT PHASE: atmosphere" || resp.get("model") != "gpt-4o" ||
		resp.get("store") != true || resp.get("previous_response_id") != nil {
		t.Errorf("echo: %s", resp.bytes())
	}
	echo := newObject().set("temperature", resp.get("temperature")).set("tools", resp.get("tools"))
	if got := string(echo.bytes()); got != `{"temperature":0.7,"tools":[]}` {
		t.Errorf("echoed %s", got)
	}
}

// sameKeys checks that got has want's keys in want's order, down through
// nested objects (lists are compared by their first element).
func sameKeys(t *testing.T, where string, want, got *object) {
	t.Helper()
	if strings.Join(want.keys, ",") != strings.Join(got.keys, ",") {
		t.Errorf("%s: keys %v, recorded %v", where, got.keys, want.keys)
		return
	}
	for _, k := range want.keys {
		w, g := want.get(k), got.get(k)
		if wo, ok := w.(*object); ok {
			if gobj, ok := g.(*object); ok {
				sameKeys(t, where+"."+k, wo, gobj)
			}
		}
		if wl, ok := w.([]any); ok && len(wl) > 0 && k != "tools" {
			gl, _ := g.([]any)
			if len(gl) == 0 {
				t.Errorf("%s.%s is empty", where, k)
				continue
			}
			if wo, ok := wl[0].(*object); ok {
				if gobj, ok := gl[0].(*object); ok {
					sameKeys(t, where+"."+k+"[0]", wo, gobj)
				}
			}
		}
	}
}

func TestChatFramingEndsWithDone(t *testing.T) {
	s, _ := start(t)
	res, err := http.Post(s.URL+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	frames := sseFrames(t, res)
	if last := frames[len(frames)-1]; last != [2]string{"", "[DONE]"} {
		t.Errorf("last frame %q", last)
	}
	recorded, _ := readSSE("chat_stream_text_include_usage.sse")
	for i, f := range frames[:len(frames)-1] {
		if f[0] != "" {
			t.Errorf("chat frame with an event line %q", f[0])
		}
		got, _ := parseObject([]byte(f[1]))
		// First, content, finish and usage chunks match their recorded kin.
		j := min(i, 1)
		if i == len(frames)-3 {
			j = len(recorded) - 3
		} else if i == len(frames)-2 {
			j = len(recorded) - 2
		}
		want, _ := parseObject(recorded[j].Data)
		sameKeys(t, "chunk", want, got)
	}
}

func TestLatency(t *testing.T) {
	s, c := start(t)
	s.SetText(func(Call) string { return "a b c d e f" })
	s.SetLatency(150*time.Millisecond, 20*time.Millisecond)
	st := c.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{Model: "m", Input: input("x")})
	defer st.Close()
	began := time.Now()
	var created, first time.Duration
	n := 0
	for st.Next() {
		switch st.Current().Type {
		case "response.created":
			created = time.Since(began)
		case "response.output_text.delta":
			if n == 0 {
				first = time.Since(began)
			}
			n++
		}
	}
	total := time.Since(began)
	if st.Err() != nil {
		t.Fatal(st.Err())
	}
	if first-created < 140*time.Millisecond {
		t.Errorf("first delta %v after created, want ≥150ms", first-created)
	}
	if min := 150*time.Millisecond + time.Duration(n-1)*20*time.Millisecond; total < min-10*time.Millisecond {
		t.Errorf("stream took %v for %d deltas, want ≥%v", total, n, min)
	}
}

// Close returns while a stream hangs, and leaves no goroutine behind.
func TestCloseDoesNotWaitForOpenStreams(t *testing.T) {
	before := runtime.NumGoroutine()
	s := New()
	tr := &http.Transport{}
	c := openai.NewClient(option.WithBaseURL(s.URL), option.WithAPIKey("test"), option.WithMaxRetries(0),
		option.WithHTTPClient(&http.Client{Transport: tr}))
	s.Push(Hang(), Hang())
	done := make(chan run, 2)
	go func() { done <- ask(context.Background(), c, responses.ResponseNewParams{Input: input("x")}) }()
	go func() { _, err := chatText(context.Background(), c, false); done <- run{err: err} }()
	for len(s.Requests()) < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(3 * time.Second):
		t.Fatal("Close hangs on an open stream")
	}
	for range 2 {
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatal("a client stayed blocked after Close")
		}
	}
	s.Close() // twice is fine
	tr.CloseIdleConnections()
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before, %d after:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

func TestConcurrentUse(t *testing.T) {
	s, c := start(t)
	s.SetLatency(0, time.Millisecond)
	done := make(chan error)
	for i := range 8 {
		go func() {
			var err error
			switch i % 3 {
			case 0:
				err = ask(context.Background(), c, responses.ResponseNewParams{Input: input("x")}).err
			case 1:
				_, err = chatText(context.Background(), c, true)
			default:
				s.SetFlag(func(string) bool { return true })
				s.SetText(nil)
				_ = s.Requests()
				_ = s.Stored()
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func TestUnknownPathIsOpenAIs404(t *testing.T) {
	_, c := start(t)
	_, err := c.Models.List(context.Background())
	e := apiErr(t, err)
	if e.StatusCode != 404 || e.Message != "Invalid URL (GET /v1/models)" {
		t.Errorf("%d %q", e.StatusCode, e.Message)
	}
}
