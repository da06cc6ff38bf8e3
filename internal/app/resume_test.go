package app

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// resumeTestConfig is a quick session on the silent output.
var resumeTestConfig = Config{Length: 5, Voice: "none", Soundscape: "none", Breathing: defaultConfig.Breathing}

// appOn is an app on data, whose guide the config, flags and environment
// choose as lull's command line would.
func appOn(t *testing.T, data string, cfg Config, f GuideFlags, getenv func(string) string) *App {
	t.Helper()
	ch, err := ChooseGuide(cfg, f, getenv)
	if err != nil {
		t.Fatal(err)
	}
	ch.LLM.Backoff, ch.LLM.MaxWait = 5*time.Millisecond, time.Second
	a, err := New(Options{Paths: Paths{Data: data}, Config: cfg, TimeScale: 2000, Guide: ch})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// pausedAfterFirstWords runs run until it has spoken, then closes it: a
// paused session.
func pausedAfterFirstWords(t *testing.T, r *Run) engine.State {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for spoken(r) == 0 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	st := r.Snapshot()
	if st.Status != engine.Paused || spoken(r) == 0 {
		t.Fatalf("closed after its first words: %s, %d spoken", st.Status, spoken(r))
	}
	return st
}

func spoken(r *Run) int {
	st := r.Snapshot()
	return st.Spoken()
}

// resumeToEnd resumes id and lets it finish.
func resumeToEnd(t *testing.T, a *App, id string) *Run {
	t.Helper()
	r, err := a.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	untilDone(t, r)
	return r
}

// untilDone lets run end, and closes it when the test does.
func untilDone(t *testing.T, r *Run) {
	t.Helper()
	t.Cleanup(func() { r.Close() })
	select {
	case <-r.Done():
	case <-time.After(90 * time.Second): // bounds a failure only
		t.Fatal("the session never ended")
	}
}

// modelsAsked are the models a server was asked to write with.
func modelsAsked(s *openaitest.Server) []string {
	var out []string
	for _, req := range s.Requests() {
		if req.Method == http.MethodPost && (req.Path == "/v1/responses" || req.Path == "/v1/chat/completions") {
			if m, ok := req.JSON["model"].(string); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// A session begun on the built-in guide goes on with it, though a server
// is set up now: its words go to no provider unless the listener asks.
func TestResumeKeepsTheBuiltinGuide(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	t.Cleanup(srv.Close)
	data := t.TempDir()
	local := appOn(t, data, resumeTestConfig, GuideFlags{}, env())
	r, err := local.Start(engine.Options{Seed: 11, Intention: "a private worry"})
	if err != nil {
		t.Fatal(err)
	}
	st := pausedAfterFirstWords(t, r)
	local.Close()

	withServer := resumeTestConfig
	withServer.LLM.BaseURL = srv.URL
	online := appOn(t, data, withServer, GuideFlags{}, env("LULL_LLM_API_KEY", "sk-test"))
	list, _ := online.List()
	if len(list) != 1 || online.ResumesOn(list[0].Info) != "built-in guide" {
		t.Fatalf("the list says a resume is written by %q", online.ResumesOn(list[0].Info))
	}
	done := resumeToEnd(t, online, st.ID).Snapshot()
	if asked := modelsAsked(srv); len(asked) > 0 {
		t.Fatalf("a built-in session was sent to the server on resume (%d calls)", len(asked))
	}
	if done.Status != engine.Completed || done.Guide != "builtin" {
		t.Fatalf("after resuming: %s on %q", done.Status, done.Guide)
	}
	online.Close()

	// Asked for, the move happens: --guide openai.
	r, err = appOn(t, data, resumeTestConfig, GuideFlags{}, env()).Start(engine.Options{Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	moved := pausedAfterFirstWords(t, r)
	asked := appOn(t, data, withServer, GuideFlags{Guide: "openai", Model: "llama3"}, env("LULL_LLM_API_KEY", "sk-test"))
	after := resumeToEnd(t, asked, moved.ID).Snapshot()
	if len(modelsAsked(srv)) == 0 {
		t.Fatal("--guide openai did not move the session to the server")
	}
	last := after.Runs[len(after.Runs)-1]
	if last.Guide != "openai" || last.Model != "llama3" || !strings.HasPrefix(srv.URL, strings.TrimSuffix(last.Server, "/v1")) {
		t.Errorf("the run is recorded as %+v, want openai, llama3 at %s", last, srv.URL)
	}
}

// A session on a chosen model at one server goes on with that model at
// that server; when that server is not set up, on the built-in guide, with
// a notice that says so — never on another server unasked.
func TestResumeKeepsTheModelAndServer(t *testing.T) {
	t.Parallel()
	first, other := openaitest.New(), openaitest.New()
	t.Cleanup(first.Close)
	t.Cleanup(other.Close)
	data := t.TempDir()
	onFirst := resumeTestConfig
	onFirst.LLM.BaseURL, onFirst.LLM.Model = first.URL, "qwen-chosen"
	a := appOn(t, data, onFirst, GuideFlags{}, env("LULL_LLM_API_KEY", "sk-test"))
	r, err := a.Start(engine.Options{Seed: 21})
	if err != nil {
		t.Fatal(err)
	}
	st := pausedAfterFirstWords(t, r)
	if st.Server == "" || st.Runs[0].Server == "" {
		t.Fatalf("the session does not record its server: %+v", st.Runs)
	}
	a.Close()
	before := len(modelsAsked(first))

	// The same server, another default model: the session's own model.
	sameServer := onFirst
	sameServer.LLM.Model = "default-model"
	b := appOn(t, data, sameServer, GuideFlags{}, env("LULL_LLM_API_KEY", "sk-test"))
	list, _ := b.List()
	if on := b.ResumesOn(list[0].Info); !strings.HasPrefix(on, "qwen-chosen at ") {
		t.Errorf("the list says a resume is written by %q", on)
	}
	r, err = b.Resume(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(modelsAsked(first)) == before && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	r.Close()
	for _, m := range modelsAsked(first)[before:] {
		if m != "qwen-chosen" {
			t.Fatalf("resumed on model %q, want the session's qwen-chosen", m)
		}
	}
	b.Close()

	// Only another server set up: the built-in guide goes on, and says why.
	elsewhere := resumeTestConfig
	elsewhere.LLM.BaseURL = other.URL
	c := appOn(t, data, elsewhere, GuideFlags{}, env("LULL_LLM_API_KEY", "sk-test"))
	list, _ = c.List()
	if on := c.ResumesOn(list[0].Info); on != "built-in guide" {
		t.Errorf("the list says a resume is written by %q", on)
	}
	run := resumeToEnd(t, c, st.ID)
	if n := len(modelsAsked(other)); n > 0 {
		t.Fatalf("the session was moved to another server unasked (%d calls)", n)
	}
	said := strings.Join(run.Notices(), "\n")
	if !strings.Contains(said, "not set up here") || !strings.Contains(said, "--guide openai") {
		t.Errorf("notices %q do not say why the built-in guide goes on", said)
	}
}

// deleted are the response ids a server was asked to delete.
func deleted(s *openaitest.Server) []string {
	var out []string
	for _, req := range s.Requests() {
		if req.Method == http.MethodDelete {
			out = append(out, strings.TrimPrefix(req.Path, "/v1/responses/"))
		}
	}
	return out
}

// A session that stored responses at one server and was moved to another
// deletes each at the server that keeps it, and the file says none is
// left only when that is so.
func TestStoredResponsesAreDeletedWhereTheyLive(t *testing.T) {
	t.Parallel()
	first, second := openaitest.New(), openaitest.New()
	t.Cleanup(first.Close)
	t.Cleanup(second.Close)
	data := t.TempDir()
	both := func(cfg Config, base string) Config { cfg.LLM.BaseURL = base; return cfg }
	a := appOn(t, data, both(resumeTestConfig, first.URL), GuideFlags{}, env("LULL_LLM_API_KEY", "sk-test", "OPENAI_BASE_URL", second.URL))
	r, err := a.Start(engine.Options{Seed: 31})
	if err != nil {
		t.Fatal(err)
	}
	st := pausedAfterFirstWords(t, r)
	a.Close()
	var atFirst []string
	for _, s := range st.Stored {
		atFirst = append(atFirst, s.ID)
	}
	if len(atFirst) == 0 {
		t.Fatal("the first server stored nothing")
	}

	// Both servers are set up; the listener moves the session to the second.
	moved := appOn(t, data, both(resumeTestConfig, second.URL), GuideFlags{Guide: "openai"}, env("LULL_LLM_API_KEY", "sk-test", "OPENAI_BASE_URL", first.URL))
	done := resumeToEnd(t, moved, st.ID)
	done.Close()
	for _, id := range atFirst {
		if !slices.Contains(deleted(first), id) {
			t.Errorf("%s was not deleted at the first server, which keeps it (deleted there: %q)", id, deleted(first))
		}
		if slices.Contains(deleted(second), id) {
			t.Errorf("%s was asked of the second server, which never had it", id)
		}
	}
	if len(deleted(second)) == 0 {
		t.Error("the second server's own responses were not deleted")
	}
	final, _, err := moved.Store().Load(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(final.Stored) != 0 {
		t.Errorf("the file still lists %+v", final.Stored)
	}
}
