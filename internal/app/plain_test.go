package app

import (
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// The history says in plain words why a guide stopped: what lull show
// prints and the screen shows is never a raw error (`Post "http://…": EOF`);
// the raw error goes to the log.
func TestGuideFailuresAreWrittenPlainly(t *testing.T) {
	t.Parallel()
	for _, onFailure := range []string{"builtin", "interrupt"} {
		t.Run(onFailure, func(t *testing.T) {
			srv := openaitest.New()
			t.Cleanup(srv.Close)
			srv.DieAfter(1)
			cfg := resumeTestConfig
			cfg.LLM.BaseURL, cfg.LLM.OnFailure = srv.URL, onFailure
			a := appOn(t, t.TempDir(), cfg, GuideFlags{}, env("LULL_LLM_API_KEY", "sk-test"))
			r, err := a.Start(engine.Options{Seed: 41})
			if err != nil {
				t.Fatal(err)
			}
			untilDone(t, r)
			var said []string
			for _, e := range r.Snapshot().History {
				if e.Role == engine.RoleSystem && strings.HasPrefix(e.Text, "The guide ") {
					said = append(said, e.Text)
				}
			}
			if len(said) == 0 {
				t.Fatal("the history does not say the guide stopped")
			}
			for _, s := range said {
				if strings.Contains(s, "Post ") || strings.Contains(s, "http") || strings.Contains(s, "EOF") {
					t.Errorf("the history says %q: a raw error", s)
				}
				if !strings.Contains(s, "server") {
					t.Errorf("the history says %q, which does not say what happened", s)
				}
			}
		})
	}
}
