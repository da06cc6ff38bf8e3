package app

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

func host(t *testing.T, base string) string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// The providers a run may switch to are those the config and environment
// set up, the chosen one first, each with its own key.
func TestProvidersFromConfigAndEnvironment(t *testing.T) {
	t.Parallel()
	cfg := Config{LLM: GuideConfig{BaseURL: "http://gpu-box:8000/v1"}}
	ch, err := ChooseGuide(cfg, GuideFlags{}, env("OPENAI_API_KEY", "sk-1", "LULL_LLM_API_KEY", "local-2"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range ch.Providers {
		names = append(names, p.Name)
	}
	if !slices.Equal(names, []string{"gpu-box:8000", "OpenAI"}) {
		t.Fatalf("providers %q", names)
	}
	to, err := ch.Switch("OpenAI", " gpt-4.1-nano ")
	if err != nil || to.LLM.BaseURL != "" || to.LLM.APIKey != "sk-1" || !to.LLM.Moderate || to.LLM.Model != "gpt-4.1-nano" || to.Guide != "openai" {
		t.Errorf("switched to OpenAI: %+v, %v", to.LLM, err)
	}
	back, err := to.Switch("gpu-box:8000", "llama3")
	if err != nil || back.LLM.BaseURL != "http://gpu-box:8000/v1" || back.LLM.APIKey != "local-2" || back.LLM.Moderate {
		t.Errorf("switched back: %+v, %v", back.LLM, err)
	}
	for _, bad := range []string{"", "two words", strings.Repeat("m", 101), "bell\a"} {
		if _, err := ch.Switch("", bad); err == nil {
			t.Errorf("model %q was taken", bad)
		}
	}
	if _, err := ch.Switch("elsewhere", "m"); err == nil || !strings.Contains(err.Error(), `"elsewhere"`) {
		t.Errorf("an unknown provider: %v", err)
	}
	only, _ := ChooseGuide(Config{}, GuideFlags{}, env("OPENAI_API_KEY", "sk-1"))
	if len(only.Providers) != 1 {
		t.Errorf("one provider set up, and %d offered", len(only.Providers))
	}
}

// An interrupted run goes on at another server, on another model.
func TestRetryWithAnotherProviderAndModel(t *testing.T) {
	t.Parallel()
	down, up := openaitest.New(), openaitest.New()
	t.Cleanup(down.Close)
	t.Cleanup(up.Close)
	down.DieAfter(1)
	cfg := Config{Length: 5, Voice: "none", Soundscape: "none", Breathing: defaultConfig.Breathing,
		LLM: GuideConfig{BaseURL: down.URL, OnFailure: "interrupt"}}
	ch, err := ChooseGuide(cfg, GuideFlags{}, env("LULL_LLM_API_KEY", "sk-test", "OPENAI_BASE_URL", up.URL))
	if err != nil {
		t.Fatal(err)
	}
	ch.LLM.Backoff, ch.LLM.MaxWait = 5*time.Millisecond, time.Second
	a, err := New(Options{Paths: Paths{Data: t.TempDir()}, Config: cfg, TimeScale: 2000, Guide: ch})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	r, err := a.Start(engine.Options{Length: 5 * time.Minute, Voice: "none", Soundscape: "none"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	<-r.Done()
	if st := r.Snapshot().Status; st != engine.Interrupted {
		t.Fatalf("the session is %s, want interrupted", st)
	}
	if what, do := r.Stopped(); !strings.Contains(what, "closed the connection") || do == "" {
		t.Errorf("stopped: %q %q", what, do)
	}
	if err := r.RetryWith(host(t, up.URL), "gpt-4.1-nano"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, req := range up.Requests() {
			if req.Method == http.MethodPost && req.Path == "/v1/responses" {
				if req.JSON["model"] != "gpt-4.1-nano" {
					t.Fatalf("the other server was asked for %v", req.JSON["model"])
				}
				movedTo(t, r, up.URL, "gpt-4.1-nano")
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the other server was never called")
}

// movedTo checks that a session moved by the m switch is recorded on the
// model and server it moved to, in its last run and in what a later
// resume goes on with.
func movedTo(t *testing.T, r *Run, url, model string) {
	t.Helper()
	st := r.Snapshot()
	at := func(server string) bool {
		return server != "" && strings.HasPrefix(url, strings.TrimSuffix(server, "/v1"))
	}
	if n := len(st.Runs); n < 2 {
		t.Fatalf("%d runs recorded, want the first and the one moved", n)
	}
	if last := st.Runs[len(st.Runs)-1]; last.Guide != "openai" || last.Model != model || !at(last.Server) {
		t.Errorf("the moved run is recorded as %+v, want openai, %s at %s", last, model, url)
	}
	if first := st.Runs[0]; first.Model == model || at(first.Server) {
		t.Errorf("the first run is recorded as %+v, the moved one's model or server", first)
	}
	if st.Model != model || !at(st.Server) {
		t.Errorf("a resume would go on with %s at %s, want %s at %s", st.Model, st.Server, model, url)
	}
}
