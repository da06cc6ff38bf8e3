//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// The server dies mid-session: the interrupted screen says so in plain
// words — no Go error, no URL, nothing cut off — and m runs the session on
// another model typed there, as lull resume --model would. --no-tui says
// the same words.
func TestInterruptedScreenIsPlainAndSwitchesModel(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(exactText)
	srv.DieAfter(3)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("llm:\n  on_failure: interrupt\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=100", "OPENAI_API_KEY=" + canaryKey, "OPENAI_BASE_URL=" + srv.URL}
	s := newScreen(t, env, "new", "--guide", "openai", "--length", "10", "--voice", "none", "--soundscape", "none")
	screen := s.waitFor("The guide could not go on.", 60*time.Second)
	screen = s.waitFor("closed the connection", 30*time.Second)
	for _, raw := range []string{"Post ", "EOF", "http://", "127.0.0.1", "/v1/"} {
		if strings.Contains(screen, raw) {
			t.Errorf("the interrupted screen shows %q:\n%s", raw, screen)
		}
	}
	if !strings.Contains(screen, "try another model") || !strings.Contains(screen, "server is running") {
		t.Errorf("the interrupted screen does not say what to do:\n%s", screen)
	}

	srv.Revive()
	before := len(generationRequests(srv))
	s.send("m")
	s.waitFor("Try another model", 10*time.Second)
	s.send("C-u")
	s.tmux("send-keys", "-t", "lull", "-l", "gpt-4.1-nano")
	s.send("Enter")
	deadline := time.Now().Add(30 * time.Second)
	for len(generationRequests(srv)) <= before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	reqs := generationRequests(srv)
	if len(reqs) <= before || reqs[before].JSON["model"] != "gpt-4.1-nano" {
		t.Fatalf("after the switch, %d calls; want the next on gpt-4.1-nano", len(reqs)-before)
	}
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if n := len(st.Runs); n < 2 || st.Runs[n-1].Model != "gpt-4.1-nano" {
		t.Errorf("runs %+v, want the last on gpt-4.1-nano", st.Runs)
	}

	// --no-tui, the server gone again: the same plain words.
	srv.DieAfter(0)
	if st.Status == engine.Completed {
		t.Skip("the session completed before the second failure")
	}
	_, errOut, err := lullLLM(t, home, srv.URL, nil, "resume", id, "--no-tui")
	if err == nil || !strings.Contains(errOut, "The server closed the connection before it answered.") ||
		strings.Contains(errOut, "Post ") || strings.Contains(errOut, "EOF") || !strings.Contains(errOut, "--model NAME") {
		t.Errorf("--no-tui, interrupted: %v\n%s", err, errOut)
	}
	checkNoCanary(t, home, errOut)
}
