package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

const testKey = "sk-test-canary-0c4f1e"

// testWatchdog is the watchdog of the tests that are not about it. A
// busy machine can hold the fake server's first words for more than a
// short one (at 400 ms, a 10 MB line on one busy core was taken for a
// silent server); the tests of the watchdog set their own, short.
const testWatchdog = 10 * time.Second

// newGuide is a guide on srv with fast retries and a patient watchdog
// (testWatchdog), whose local screen flags only what a test marks
// (markScreen): these tests are about the wire, and the screen has tests
// of its own. Tests of the layers set package safety's.
func newGuide(t *testing.T, srv *openaitest.Server, tune ...func(*Config)) *Guide {
	t.Helper()
	cfg := Config{APIKey: testKey, BaseURL: srv.URL, Model: "gpt-4.1-mini", Backoff: 5 * time.Millisecond, Watchdog: testWatchdog,
		Screen: markScreen{}, Strict: markScreen{strict: true}}
	for _, f := range tune {
		f(&cfg)
	}
	g, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func newServer(t *testing.T) *openaitest.Server {
	srv := openaitest.New()
	t.Cleanup(srv.Close)
	return srv
}

func request(p engine.Phase) engine.Request {
	return engine.Request{Phase: p, Budget: engine.Budget{Sentences: 10, WindDownAt: 8}, Length: 10 * time.Minute}
}

// drain reads a call to its end: its sentences, its receipt, how it ended.
func drain(t *testing.T, g *Guide, req engine.Request) ([]string, engine.Receipt, error) {
	t.Helper()
	return drainSlowly(t, g, req, 0)
}

// drainSlowly takes each sentence after a pause, as speech does.
func drainSlowly(t *testing.T, g *Guide, req engine.Request, pause time.Duration) ([]string, engine.Receipt, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, err := g.Stream(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		text, err := st.Next(ctx)
		if err != nil {
			st.Close()
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return out, st.(engine.Receipted).Receipt(), err
		}
		time.Sleep(pause)
		if !strings.HasSuffix(text, "\n\n") {
			t.Errorf("piece %q is not a whole sentence ending in a blank line", text)
		}
		out = append(out, strings.TrimSpace(text))
	}
}

// generations are the requests that asked for words.
func generations(srv *openaitest.Server) []openaitest.Request {
	var out []openaitest.Request
	for _, r := range srv.Requests() {
		if r.Method == "POST" && (r.Path == "/v1/responses" || r.Path == "/v1/chat/completions") && r.JSON["response_format"] == nil {
			out = append(out, r)
		}
	}
	return out
}

// inputs are the messages of a /v1/responses request, as role: text.
func inputs(r openaitest.Request) []string {
	var out []string
	items, _ := r.JSON["input"].([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		text, _ := m["content"].(string)
		out = append(out, m["role"].(string)+": "+text)
	}
	return out
}

func TestACallStreamsCheckedSentencesAndItsReceipt(t *testing.T) {
	srv := newServer(t)
	g := newGuide(t, srv)
	said, rc, err := drain(t, g, request(engine.Atmosphere))
	if err != nil {
		t.Fatal(err)
	}
	if len(said) != 6 || !strings.Contains(said[0], "atmosphere") {
		t.Fatalf("said %q", said)
	}
	if !rc.Completed || rc.ResponseID == "" || len(rc.Stored) != 1 || rc.Stored[0] != rc.ResponseID {
		t.Errorf("receipt %+v", rc)
	}
	if rc.Tokens.In == 0 || rc.Tokens.Out == 0 || rc.Cost != 0 {
		t.Errorf("receipt tokens %+v cost %v (a server other than OpenAI's costs nothing)", rc.Tokens, rc.Cost)
	}
	r := generations(srv)[0]
	if r.JSON["store"] != true || r.JSON["stream"] != true || r.JSON["previous_response_id"] != nil {
		t.Errorf("store %v stream %v previous %v", r.JSON["store"], r.JSON["stream"], r.JSON["previous_response_id"])
	}
	instr, _ := r.JSON["instructions"].(string)
	if !strings.Contains(instr, "CURRENT PHASE: ATMOSPHERE") || !strings.Contains(instr, "Safety") {
		t.Errorf("instructions do not name the phase or carry the safety rules:\n%.300s", instr)
	}
	if got := inputs(r); len(got) != 1 || !strings.HasPrefix(got[0], "user: Begin the session.\n") || !strings.Contains(got[0], "Write exactly 8 sentences") {
		t.Errorf("input %q", got)
	}
	if auth := r.Header.Get("Authorization"); auth != "Bearer "+testKey {
		t.Errorf("Authorization %q", auth)
	}
}

func TestChainedCallCarriesTheChainAndWhatItLacks(t *testing.T) {
	srv := newServer(t)
	g := newGuide(t, srv)
	_, first, err := drain(t, g, request(engine.Atmosphere))
	if err != nil {
		t.Fatal(err)
	}
	req := request(engine.Breathing)
	req.Chain = first.ResponseID
	req.History = []engine.Entry{{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "Welcome."}}
	req.Unchained = []string{"A line the chain does not hold."}
	g.recapNext.Store(false) // the recap of a run's first chained call is tested on its own
	req.WindDown = true
	req.Intention = "calm before a talk"
	if _, _, err := drain(t, g, req); err != nil {
		t.Fatal(err)
	}
	r := generations(srv)[1]
	if r.JSON["previous_response_id"] != first.ResponseID || r.JSON["store"] != true {
		t.Errorf("previous %v store %v", r.JSON["previous_response_id"], r.JSON["store"])
	}
	got := inputs(r)
	if len(got) != 2 || got[0] != "assistant: A line the chain does not hold." ||
		!strings.HasPrefix(got[1], "user: Continue. The session is now entering the breathing phase.\n") || !strings.Contains(got[1], "«calm before a talk»") {
		t.Errorf("input %q", got)
	}
	instr := r.JSON["instructions"].(string)
	for _, want := range []string{"CURRENT PHASE: BREATHING", "TRANSITION", "INTENTION"} {
		if !strings.Contains(instr, want) {
			t.Errorf("instructions lack %q", want)
		}
	}
	if strings.Contains(instr, "calm before a talk") {
		t.Error("the intention is in the instructions")
	}
}

func TestErrorEventMidStreamIsRetried(t *testing.T) {
	srv := newServer(t)
	srv.Push(openaitest.ServerErrorEvent())
	g := newGuide(t, srv)
	said, _, err := drain(t, g, request(engine.Sensory))
	if err != nil || len(said) != 6 {
		t.Fatalf("said %d, err %v", len(said), err)
	}
	if n := len(generations(srv)); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

func TestRateLimitHonoursRetryAfter(t *testing.T) {
	srv := newServer(t)
	srv.Push(openaitest.Status(429, "1"))
	g := newGuide(t, srv)
	began := time.Now()
	if _, _, err := drain(t, g, request(engine.Sensory)); err != nil {
		t.Fatal(err)
	}
	reqs := generations(srv)
	if len(reqs) != 2 {
		t.Fatalf("%d calls", len(reqs))
	}
	if gap := reqs[1].At.Sub(reqs[0].At); gap < time.Second {
		t.Errorf("retried after %v; the server asked for 1s", gap)
	}
	// Far beyond the one second asked for, only a retry that waited on
	// something else could take this long, however busy the machine.
	if took := time.Since(began); took > 30*time.Second {
		t.Errorf("took %v for a retry after 1s", took)
	}
}

func TestRetryAfterBeyondPatienceFailsAtOnce(t *testing.T) {
	srv := newServer(t)
	srv.Push(openaitest.Status(429, "3600"))
	g := newGuide(t, srv)
	_, _, err := drain(t, g, request(engine.Sensory))
	var f *Failure
	if !errors.As(err, &f) || f.Status != 429 {
		t.Fatalf("err %v", err)
	}
	if n := len(generations(srv)); n != 1 {
		t.Errorf("%d calls", n)
	}
}

func TestServerErrorStorm(t *testing.T) {
	t.Run("recovers", func(t *testing.T) {
		srv := newServer(t)
		for range 3 {
			srv.Push(openaitest.Status(500, ""))
		}
		g := newGuide(t, srv)
		if _, _, err := drain(t, g, request(engine.Relaxation)); err != nil {
			t.Fatal(err)
		}
		if n := len(generations(srv)); n != 4 {
			t.Errorf("%d calls, want 4", n)
		}
	})
	t.Run("fails for good", func(t *testing.T) {
		srv := newServer(t)
		for range 10 {
			srv.Push(openaitest.Status(500, ""))
		}
		g := newGuide(t, srv)
		_, _, err := drain(t, g, request(engine.Relaxation))
		var f *Failure
		if !errors.As(err, &f) || f.Status != 500 {
			t.Fatalf("err %v, want a 500 failure", err)
		}
		if n := len(generations(srv)); n != DefaultAttempts {
			t.Errorf("%d calls, want %d", n, DefaultAttempts)
		}
		if strings.Contains(err.Error(), testKey) {
			t.Error("the key is in the error")
		}
	})
}

func TestBadKeyIsNotRetried(t *testing.T) {
	srv := newServer(t)
	srv.Push(openaitest.Status(401, ""))
	g := newGuide(t, srv)
	_, _, err := drain(t, g, request(engine.Atmosphere))
	var f *Failure
	if !errors.As(err, &f) || f.Status != 401 || len(generations(srv)) != 1 {
		t.Fatalf("err %v after %d calls", err, len(generations(srv)))
	}
}

func TestHungServerTripsTheWatchdog(t *testing.T) {
	srv := newServer(t)
	srv.Push(openaitest.Hang())
	g := newGuide(t, srv, func(c *Config) { c.Watchdog = 200 * time.Millisecond })
	said, _, err := drain(t, g, request(engine.Sensory))
	if err != nil || len(said) != 6 {
		t.Fatalf("said %d, err %v", len(said), err)
	}
	if n := len(generations(srv)); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

func TestStreamCutWithoutCompletedIsAFailure(t *testing.T) {
	srv := newServer(t)
	srv.Push(openaitest.Cut(3))
	g := newGuide(t, srv)
	said, rc, err := drain(t, g, request(engine.Sensory))
	if err != nil || len(said) != 6 {
		t.Fatalf("said %d, err %v", len(said), err)
	}
	if n := len(generations(srv)); n != 2 {
		t.Errorf("%d calls, want 2: the cut one was not retried", n)
	}
	if len(rc.Stored) != 2 {
		t.Errorf("stored %v: the cut response is stored too, and must be forgotten", rc.Stored)
	}
}

// Without a guard, sentences go out as they are judged, so a cut can come
// after some were handed out. (A guard judges a reply whole at its end:
// a cut before then is retried like any other.)
func TestCutAfterSentencesWereHandedOutIsTheEnginesToHandle(t *testing.T) {
	srv := newServer(t)
	srv.Push(openaitest.Cut(40))
	srv.SetText(func(c openaitest.Call) string {
		var b strings.Builder
		for i := range 12 {
			fmt.Fprintf(&b, "Let the shoulders soften a little more, moment %d.\n", c.N*100+i)
		}
		return b.String()
	})
	g := newGuide(t, srv, func(c *Config) { c.Lookahead = 1; c.Guard.Off = true })
	said, rc, err := drain(t, g, request(engine.Sensory))
	var f *Failure
	if !errors.As(err, &f) || f.Kind != kindCut || len(said) == 0 {
		t.Fatalf("said %d, err %v", len(said), err)
	}
	if rc.Completed {
		t.Error("a cut call counts as completed")
	}
}

func TestPreviousResponseNotFoundGoesStateless(t *testing.T) {
	srv := newServer(t)
	g := newGuide(t, srv)
	req := request(engine.Sensory)
	req.Chain = "resp_gone"
	req.Spoken = 2
	req.History = []engine.Entry{
		{Phase: engine.Atmosphere, Role: engine.RoleUser, Text: "sleep"},
		{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "Welcome."},
		{Phase: engine.Atmosphere, Role: engine.RoleSystem, Text: "A note."},
		{Phase: engine.Sensory, Role: engine.RoleGuide, Text: "Feel your feet."},
	}
	req.Pending = []string{"Feel your ankles."}
	said, rc, err := drain(t, g, req)
	if err != nil || len(said) != 6 {
		t.Fatalf("said %d, err %v", len(said), err)
	}
	reqs := generations(srv)
	if len(reqs) != 2 {
		t.Fatalf("%d calls", len(reqs))
	}
	r := reqs[1]
	if r.JSON["store"] != false || r.JSON["previous_response_id"] != nil {
		t.Errorf("after previous_response_not_found: store %v previous %v", r.JSON["store"], r.JSON["previous_response_id"])
	}
	want := []string{
		"user: Begin the session.",
		"assistant: Welcome.",
		"user: Continue. The session is now entering the sensory phase.",
		"assistant: Feel your feet.\nFeel your ankles.",
		"user: Continue the sensory phase from where you left off.",
	}
	got := inputs(r)
	if len(got) == len(want) {
		got[len(got)-1], _, _ = strings.Cut(got[len(got)-1], "\n") // the request's first line
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("history as input:\n got %q\nwant %q", got, want)
	}
	if len(rc.Stored) != 0 {
		t.Errorf("a stateless call stored %v", rc.Stored)
	}
	if !strings.Contains(g.Describe(), "stateless") {
		t.Errorf("describe: %s", g.Describe())
	}
}

func TestServerThatIgnoresThePreviousIDGoesStateless(t *testing.T) {
	srv := newServer(t)
	srv.SetIgnorePrevious(true)
	g := newGuide(t, srv)
	req := request(engine.Sensory)
	req.Chain = "resp_anything"
	req.History = []engine.Entry{{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "Welcome."}}
	if _, _, err := drain(t, g, req); err != nil {
		t.Fatal(err)
	}
	reqs := generations(srv)
	if len(reqs) != 2 || reqs[1].JSON["previous_response_id"] != nil || reqs[1].JSON["store"] != false {
		t.Fatalf("%d calls; the second: %v", len(reqs), reqs[len(reqs)-1].JSON)
	}
	if got := inputs(reqs[1]); len(got) != 3 || got[1] != "assistant: Welcome." {
		t.Errorf("input %q", got)
	}
}

func TestServerThatRejectsThePreviousIDGoesStateless(t *testing.T) {
	srv := newServer(t)
	srv.SetRejectPrevious(true) // llama.cpp
	g := newGuide(t, srv)
	req := request(engine.Sensory)
	req.Chain = "resp_anything"
	if _, _, err := drain(t, g, req); err != nil {
		t.Fatal(err)
	}
	if reqs := generations(srv); len(reqs) != 2 || reqs[1].JSON["previous_response_id"] != nil {
		t.Fatalf("%d calls", len(reqs))
	}
}

func TestChatCompletionsWhereThereIsNoResponsesAPI(t *testing.T) {
	srv := newServer(t)
	srv.SetNoResponses(true)
	g := newGuide(t, srv, func(c *Config) { c.BaseURL = srv.URL; c.Model = "llama3.2" })
	req := request(engine.Relaxation)
	req.History = []engine.Entry{{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "Welcome."}}
	said, rc, err := drain(t, g, req)
	if err != nil || len(said) != 6 {
		t.Fatalf("said %d, err %v", len(said), err)
	}
	reqs := generations(srv)
	last := reqs[len(reqs)-1]
	if last.Path != "/v1/chat/completions" {
		t.Fatalf("last call went to %s", last.Path)
	}
	opts, _ := last.JSON["stream_options"].(map[string]any)
	if opts["include_usage"] != true {
		t.Errorf("stream_options %v", last.JSON["stream_options"])
	}
	msgs, _ := last.JSON["messages"].([]any)
	if len(msgs) != 4 || msgs[0].(map[string]any)["role"] != "system" {
		t.Errorf("messages %v", msgs)
	}
	if !rc.Completed || rc.Tokens.In == 0 || rc.Tokens.Out == 0 || len(rc.Stored) != 0 {
		t.Errorf("receipt %+v", rc)
	}
	if rc.Cost != 0 {
		t.Errorf("a local server's cost %v", rc.Cost)
	}
	// The guide stays on chat: the next call goes there at once.
	if _, _, err := drain(t, g, req); err != nil {
		t.Fatal(err)
	}
	if n := len(generations(srv)); n != len(reqs)+1 {
		t.Errorf("the second call took %d requests", n-len(reqs))
	}
}

func TestModerationWithholdsFlaggedSentencesInBatches(t *testing.T) {
	srv := newServer(t)
	srv.SetFlag(func(s string) bool { return strings.Contains(s, "moment 3") })
	g := newGuide(t, srv, func(c *Config) { c.Moderate = true; c.Lookahead = 1 })
	said, rc, err := drainSlowly(t, g, request(engine.Sensory), 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(said) != 5 || rc.Withheld != 1 {
		t.Fatalf("said %d, withheld %d", len(said), rc.Withheld)
	}
	for _, s := range said {
		if strings.Contains(s, "moment 3") {
			t.Errorf("flagged sentence handed out: %q", s)
		}
	}
	var checked, biggest int
	for _, r := range srv.Requests() {
		if r.Path != "/v1/moderations" {
			continue
		}
		if r.JSON["model"] != "omni-moderation-latest" {
			t.Errorf("moderation model %v", r.JSON["model"])
		}
		in, _ := r.JSON["input"].([]any)
		checked += len(in)
		biggest = max(biggest, len(in))
	}
	if checked != 6 || biggest < 2 {
		t.Errorf("moderated %d sentences, at most %d at once", checked, biggest)
	}
}

// A moderation endpoint that fails leaves the local screen to judge alone,
// at its strict thresholds: the call goes on, and says only what they pass.
func TestModerationFailureLeavesTheStrictLocalScreen(t *testing.T) {
	srv := newServer(t)
	target, _ := url.Parse(srv.URL)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/moderations" {
			http.Error(w, `{"error":{"message":"moderation is down","type":"server_error","param":null,"code":null}}`, http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()
	srv.SetText(func(openaitest.Call) string {
		return "Let your shoulders settle a little lower.\nNotice the weight of your hands resting where they are.\nFeel the floor holding you, steady and patient."
	})
	var logs strings.Builder
	g := newGuide(t, srv, func(c *Config) {
		c.BaseURL = front.URL + "/v1"
		c.Moderate = true
		c.Guard.Off = true
		c.Logger = slog.New(slog.NewTextHandler(&lockedBuilder{b: &logs}, nil))
		realScreens(c)
	})
	said, _, err := drain(t, g, request(engine.Sensory))
	if err != nil || len(said) == 0 {
		t.Fatalf("said %d, err %v: a failed layer should leave the local screen, not end the call", len(said), err)
	}
	strict := safety.Default().Strict()
	for _, s := range said {
		if v := strict.Sentence(s, engine.Place{Phase: engine.Sensory}); v.Flagged() {
			t.Errorf("%q was said though the strict screen flags it (%s)", s, v.Rule)
		}
	}
	if !strings.Contains(logs.String(), "strict thresholds") {
		t.Errorf("the log does not say the screen judged alone:\n%s", logs.String())
	}
}

func TestIncompleteResponseDropsTheBrokenSentence(t *testing.T) {
	srv := newServer(t)
	whole := []string{"Let your shoulders drop.", "Feel the chair beneath you.", "Notice the quiet of the room around you.",
		"Let the breath find its own pace.", "Rest your hands in your lap."}
	srv.SetText(func(openaitest.Call) string { return strings.Join(whole, " ") })
	srv.Push(openaitest.Incomplete())
	g := newGuide(t, srv)
	said, rc, err := drain(t, g, request(engine.Sensory))
	if err != nil || !rc.Completed {
		t.Fatalf("err %v, receipt %+v", err, rc)
	}
	if len(said) == 0 || len(said) >= len(whole) {
		t.Fatalf("said %q of a reply cut in the middle", said)
	}
	for i, s := range said {
		if s != whole[i] {
			t.Errorf("half a sentence handed out: %q", s)
		}
	}
}

func TestRecordedStreamParses(t *testing.T) {
	srv := newServer(t)
	srv.Push(openaitest.Replay("responses_stream_text.sse"))
	g := newGuide(t, srv, func(c *Config) { c.Guard.Off = true })
	said, rc, err := drain(t, g, request(engine.Atmosphere))
	if err != nil {
		t.Fatal(err)
	}
	if len(said) != 1 || said[0] != "The capital of France is Paris." {
		t.Errorf("said %q", said)
	}
	if rc.ResponseID != "resp_0565aca8c997b45400697ccca39bb08197ba2c6c7e7808a63a" || rc.Tokens != (engine.Tokens{In: 62, Out: 9}) {
		t.Errorf("receipt %+v", rc)
	}
}

func TestAFullBufferIsNotASilentServer(t *testing.T) {
	srv := newServer(t)
	// A watchdog of a second, not a tenth: on a busy machine the server's
	// first words came more than 100 ms after the call (a silence the
	// watchdog rightly stops), and the test failed once in a full run.
	const watchdog = time.Second
	g := newGuide(t, srv, func(c *Config) { c.Lookahead = 1; c.Watchdog = watchdog })
	ctx := context.Background()
	st, err := g.Stream(ctx, request(engine.Sensory))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	waitFor(t, "the call to reach the server", func() bool { return len(generations(srv)) == 1 })
	time.Sleep(2 * watchdog) // a paused listener: nothing is pulled for twice the watchdog
	n := 0
	for {
		_, err := st.Next(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("after a pause: %v", err)
		}
		n++
	}
	if n != 6 || len(generations(srv)) != 1 {
		t.Errorf("%d sentences from %d calls", n, len(generations(srv)))
	}
}

func TestCloseCancelsTheRequest(t *testing.T) {
	srv := newServer(t)
	// A reply that would take hours: only a cancelled request lets Close return.
	srv.SetLatency(0, time.Hour)
	g := newGuide(t, srv)
	st, err := g.Stream(context.Background(), request(engine.Sensory))
	if err != nil {
		t.Fatal(err)
	}
	rc := st.(engine.Receipted)
	waitFor(t, "the stored response to be known", func() bool { return len(rc.Receipt().Stored) == 1 })
	closed := make(chan struct{})
	go func() { st.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("Close did not return: the request was not cancelled")
	}
	if r := rc.Receipt(); r.Completed || len(r.Stored) != 1 {
		t.Errorf("receipt of a cancelled call %+v", r)
	}
}

func TestForgetDeletesStoredResponses(t *testing.T) {
	srv := newServer(t)
	g := newGuide(t, srv)
	_, a, _ := drain(t, g, request(engine.Atmosphere))
	_, b, _ := drain(t, g, request(engine.Atmosphere))
	done, err := g.Forget(context.Background(), []string{a.ResponseID, b.ResponseID, "resp_unknown", "../../models"})
	if err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("err %v, want the malformed id refused", err)
	}
	if len(done) != 3 {
		t.Errorf("forgot %v", done)
	}
	if left := srv.Stored(); len(left) != 0 {
		t.Errorf("still stored: %v", left)
	}
	for _, r := range srv.Requests() {
		if strings.Contains(r.Path, "models") {
			t.Errorf("a malformed id reached %s", r.Path)
		}
	}
}

func TestKeepResponsesForgetsNothing(t *testing.T) {
	srv := newServer(t)
	g := newGuide(t, srv, func(c *Config) { c.KeepResponses = true })
	_, a, _ := drain(t, g, request(engine.Atmosphere))
	done, err := g.Forget(context.Background(), []string{a.ResponseID})
	if err != nil || len(done) != 0 || len(srv.Stored()) != 1 {
		t.Errorf("forgot %v (err %v); stored %v", done, err, srv.Stored())
	}
}

func TestPrivateStoresNothing(t *testing.T) {
	srv := newServer(t)
	g := newGuide(t, srv, func(c *Config) { c.Private = true })
	req := request(engine.Sensory)
	req.Chain = "resp_x" // a chain from before: private runs do not use it
	_, rc, err := drain(t, g, req)
	if err != nil || len(rc.Stored) != 0 {
		t.Fatalf("err %v, stored %v", err, rc.Stored)
	}
	r := generations(srv)[0]
	if r.JSON["store"] != false || r.JSON["previous_response_id"] != nil {
		t.Errorf("store %v previous %v", r.JSON["store"], r.JSON["previous_response_id"])
	}
}

func TestConfigRefusals(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "OPENAI_API_KEY"},
		{Config{BaseURL: "ftp://x", Model: "m"}, "not an http"},
	} {
		_, err := New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): %v, want %q", tc.cfg, err, tc.want)
		}
	}
	g, err := New(Config{BaseURL: "http://user:secret@localhost:11434/v1?token=abc", Model: "llama3.2", APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{g.Describe(), g.Provider()} {
		if strings.Contains(s, "secret") || strings.Contains(s, "abc") || strings.Contains(s, testKey) {
			t.Errorf("%q leaks a credential", s)
		}
	}
	if !strings.Contains(g.Describe(), "stateless") {
		t.Errorf("Ollama's port is not known as stateless: %s", g.Describe())
	}
}

func TestCostIsEstimatedForOpenAIModelsOnly(t *testing.T) {
	for _, tc := range []struct {
		base, model string
		want        float64
	}{
		{OpenAIBaseURL, "gpt-4.1-mini", (1e6*0.40 + 1e5*1.60) / 1e6},
		{OpenAIBaseURL, "gpt-4.1-mini-2025-04-14", (1e6*0.40 + 1e5*1.60) / 1e6},
		{OpenAIBaseURL, "gpt-4.1", (1e6*2.00 + 1e5*8.00) / 1e6},
		{OpenAIBaseURL, "some-new-model", 0},
		{"http://localhost:11434/v1", "gpt-4.1-mini", 0},
	} {
		if got := cost(Config{BaseURL: tc.base, Model: tc.model}, engine.Tokens{In: 1e6, Out: 1e5}); got < tc.want-1e-9 || got > tc.want+1e-9 {
			t.Errorf("%s at %s: %v, want %v", tc.model, tc.base, got, tc.want)
		}
	}
}

func TestFirstChainedCallOfARunSaysWhatWasLastHeard(t *testing.T) {
	srv := newServer(t)
	// The calls are counted: a busy machine that stalls a stream past the
	// tests' 400 ms watchdog would add a retry, which is not what is tested.
	patient := func(c *Config) { c.Watchdog = time.Minute }
	_, first, err := drain(t, newGuide(t, srv, patient), request(engine.Atmosphere))
	if err != nil {
		t.Fatal(err)
	}
	g := newGuide(t, srv, patient) // a new process resuming the session
	req := request(engine.Atmosphere)
	req.Chain, req.Spoken = first.ResponseID, 3
	req.History = []engine.Entry{
		{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "One."},
		{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "Two."},
		{Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "Three."},
	}
	for range 2 {
		if _, _, err := drain(t, g, req); err != nil {
			t.Fatal(err)
		}
	}
	reqs := generations(srv)
	resumed, later := inputs(reqs[1]), inputs(reqs[2])
	if len(resumed) != 1 || !strings.Contains(resumed[0], "The listener last heard: Two. Three.") {
		t.Errorf("the resumed call's input %q does not say what was last heard", resumed)
	}
	if strings.Contains(strings.Join(later, " "), "last heard") {
		t.Errorf("the recap is repeated on the next call: %q", later)
	}
}

func TestNetworkErrorsKeepNoCredentials(t *testing.T) {
	f := classify(errors.New(`Post "http://user:pw@127.0.0.1:1/v1/responses?api-key=secret": dial tcp: connection refused`))
	if strings.Contains(f.Error(), "secret") || strings.Contains(f.Error(), "pw@") || !strings.Contains(f.Error(), "127.0.0.1:1/v1/responses") {
		t.Errorf("%s", f.Error())
	}
}

// markScreen flags a sentence that says "[unsafe]" (and, strict, one that
// says "[doubtful]"), and keeps a line whole or drops it whole.
type markScreen struct{ strict bool }

func (m markScreen) Line(sentences []string, _ engine.Place) []engine.Verdict {
	out := make([]engine.Verdict, len(sentences))
	for _, s := range sentences {
		if strings.Contains(s, "[unsafe]") || m.strict && strings.Contains(s, "[doubtful]") {
			for i := range out {
				out[i] = engine.Verdict{Category: "marked", Rule: "marked"}
			}
		}
	}
	return out
}

// Sentence makes markScreen the engine's screen too, for the sessions
// these tests run whole: their lines are about pacing and words, not harm.
func (m markScreen) Sentence(text string, at engine.Place) engine.Verdict {
	return m.Line([]string{text}, at)[0]
}

func (markScreen) Intention(string) error { return nil }

// realScreens judges with package safety's screens.
func realScreens(c *Config) {
	s := safety.Default()
	c.Screen, c.Strict = s, s.Strict()
}

// lockedBuilder is a log sink for a handler written from several
// goroutines.
type lockedBuilder struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitFor polls cond until it holds, failing after a deadline far beyond
// any busy machine: it waits for an event, it does not time one.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}
