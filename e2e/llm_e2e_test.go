//go:build unix

package e2e

// End-to-end runs of the real binary with the LLM guide, against a local
// server that speaks OpenAI's wire format (internal/testutil/openaitest, built from
// recorded streams).

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

const canaryKey = "sk-canary-5f0d2b7e9c41a3"

// lullLLM runs the binary against an LLM server with the canary key.
func lullLLM(t *testing.T, home, base string, extraEnv []string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lullBin, args...)
	cmd.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=100",
		"OPENAI_API_KEY="+canaryKey, "OPENAI_BASE_URL="+base)
	cmd.Env = append(cmd.Env, extraEnv...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// exactText writes as many sentences as the instructions ask for, so
// calls run to their end the way a model's do.
func exactText(c openaitest.Call) string {
	n := 6
	if m := regexp.MustCompile(`Write about (\d+) sentences`).FindStringSubmatch(c.Instructions); m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	var b strings.Builder
	for i := range n {
		b.WriteString(modelLine(callPhase(c), c.N, i) + "\n") // one a line, as lull asks
	}
	return b.String()
}

// callPhase is the phase a call's instructions are for.
func callPhase(c openaitest.Call) engine.Phase {
	if m := phaseInInstructions.FindStringSubmatch(c.Instructions); m != nil {
		if p, err := engine.ParsePhase(strings.ToLower(m[1])); err == nil {
			return p
		}
	}
	return engine.Atmosphere
}

// generationRequests are the requests that asked for words: not the
// guard's, which ask for a verdict (a response_format).
func generationRequests(srv *openaitest.Server) []openaitest.Request {
	var out []openaitest.Request
	for _, r := range srv.Requests() {
		if r.Method == http.MethodPost && (r.Path == "/v1/responses" || r.Path == "/v1/chat/completions") && r.JSON["response_format"] == nil {
			out = append(out, r)
		}
	}
	return out
}

var phaseInInstructions = regexp.MustCompile(`CURRENT PHASE: (\w+)`)

// checkNoCanary reads every file under home: the key is in none.
func checkNoCanary(t *testing.T, home string, outputs ...string) {
	t.Helper()
	files := 0
	err := filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if bytes.Contains(data, []byte(canaryKey)) || bytes.Contains(data, []byte(canaryKey[3:])) {
			t.Errorf("the key is in %s", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 4 {
		t.Errorf("only %d files under %s: the check read too little", files, home)
	}
	for _, o := range outputs {
		if strings.Contains(o, canaryKey) {
			t.Error("the key was printed")
		}
	}
}

// Acceptance 1 and 5: a whole session written by the LLM, chained.
func TestLLMSessionIsChainedAndForgotten(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(exactText)
	home := t.TempDir()
	out, errOut, err := lullLLM(t, home, srv.URL, nil, "new", "--no-tui", "--guide", "openai", "--length", "10", "--voice", "none")
	if err != nil {
		t.Fatalf("lull new: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Completed {
		t.Fatalf("status %s", st.Status)
	}
	for _, r := range st.Phases {
		if r.Status != engine.PhaseCompleted || r.Spoken < 3 || r.Tokens.In == 0 || r.Tokens.Out == 0 {
			t.Errorf("%s: %s, %d spoken, tokens %+v", r.Phase, r.Status, r.Spoken, r.Tokens)
		}
	}
	if st.Guide != "openai" || st.Model != "gpt-4.1-mini" || len(st.Runs) != 1 {
		t.Errorf("guide %q model %q runs %+v", st.Guide, st.Model, st.Runs)
	}
	if !strings.Contains(out, "tokens in") {
		t.Errorf("the summary does not say what the LLM used:\n%s", out)
	}

	reqs := generationRequests(srv)
	created := map[string]int{} // response id → the call that made it
	var ids []string
	byPhase := map[string]string{}
	immediate := 0
	for i, r := range reqs {
		if r.JSON["store"] != true {
			t.Errorf("call %d: store %v", i+1, r.JSON["store"])
		}
		instr, _ := r.JSON["instructions"].(string)
		m := phaseInInstructions.FindStringSubmatch(instr)
		if m == nil {
			t.Fatalf("call %d: instructions name no phase", i+1)
		}
		name := strings.ToLower(m[1])
		if !strings.Contains(instr, "You are NOW in the "+name+" phase") {
			t.Errorf("call %d: instructions do not say it is now the %s phase", i+1, name)
		}
		if _, ok := byPhase[name]; !ok {
			byPhase[name] = strings.SplitN(instr, "LENGTH:", 2)[0]
		}
		prev, _ := r.JSON["previous_response_id"].(string)
		switch {
		case i == 0 && prev != "":
			t.Errorf("the first call chains from %s", prev)
		case i > 0 && prev == "":
			t.Errorf("call %d carries no previous_response_id", i+1)
		case i > 0:
			at, ok := created[prev]
			if !ok {
				t.Errorf("call %d chains from %s, which this session did not create", i+1, prev)
			} else if at == i-1 {
				immediate++
			}
		}
		// The server's own record says which response each call created.
		created[responseOf(t, srv, i)] = i
		ids = append(ids, responseOf(t, srv, i))
	}
	if len(byPhase) != 5 {
		t.Errorf("instructions named %d phases: %v", len(byPhase), slices.Collect(maps.Keys(byPhase)))
	}
	seen := map[string]bool{}
	for name, instr := range byPhase {
		if seen[instr] {
			t.Errorf("the %s phase's instructions are the same as another phase's", name)
		}
		seen[instr] = true
	}
	t.Logf("%d calls; %d of %d chained calls continue the call just before", len(reqs), immediate, len(reqs)-1)

	// Everything stored was deleted at the end.
	if left := srv.Stored(); len(left) != 0 {
		t.Errorf("%d responses still stored at the provider", len(left))
	}
	if deleted := srv.Deleted(); len(deleted) != len(ids) {
		t.Errorf("%d responses deleted of %d created", len(deleted), len(ids))
	}
	if len(st.Stored) != 0 {
		t.Errorf("the session still lists stored responses: %v", st.Stored)
	}

	// The log has each call's timing, and no key anywhere.
	logData, err := os.ReadFile(filepath.Join(home, "lull.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`guide call.*first_audio_ms=\d+ first_token_ms=\d+`).Match(logData) {
		t.Errorf("no first_token_ms/first_audio_ms in the log:\n%.2000s", logData)
	}
	checkNoCanary(t, home, out, errOut)
}

// responseOf is the id of the response the i-th generation call created,
// read from the stream the server sent: the fake keeps responses in order.
func responseOf(t *testing.T, srv *openaitest.Server, i int) string {
	t.Helper()
	ids := srv.Created()
	if i >= len(ids) {
		t.Fatalf("call %d created no response (%d created)", i+1, len(ids))
	}
	return ids[i]
}

// notFoundFront answers every call that carries previous_response_id with
// OpenAI's 400 previous_response_not_found, as a server does once its
// stored responses are gone, and passes the rest to srv.
func notFoundFront(t *testing.T, srv *openaitest.Server) string {
	t.Helper()
	body, err := os.ReadFile("../internal/testutil/openaitest/testdata/error_400_previous_response_not_found.json")
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse(srv.URL)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/responses" {
			data, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(data))
			if bytes.Contains(data, []byte(`"previous_response_id"`)) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				w.Write(body)
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	return front.URL + "/v1"
}

// Acceptance 2: a server that has lost the chain → stateless, completed.
func TestLLMPreviousResponseNotFoundGoesStateless(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(exactText)
	base := notFoundFront(t, srv)
	home := t.TempDir()
	out, errOut, err := lullLLM(t, home, base, nil, "new", "--no-tui", "--guide", "openai", "--length", "10", "--voice", "none")
	if err != nil {
		t.Fatalf("lull new: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Completed || st.Guide != "openai" {
		t.Fatalf("status %s on guide %s", st.Status, st.Guide)
	}
	reqs := generationRequests(srv) // what got past the front: the first call, then stateless ones
	if len(reqs) < 10 {
		t.Fatalf("only %d calls reached the server", len(reqs))
	}
	for i, r := range reqs[1:] {
		if r.JSON["store"] != false || r.JSON["previous_response_id"] != nil {
			t.Errorf("call %d after the refusal: store %v previous %v", i+2, r.JSON["store"], r.JSON["previous_response_id"])
		}
		items, _ := r.JSON["input"].([]any)
		if len(items) < 3 {
			t.Errorf("call %d after the refusal sends %d input items, not the history", i+2, len(items))
		}
	}
	// The history went as input, in order: the last call holds what was said.
	last := reqs[len(reqs)-1].JSON["input"].([]any)
	said := st.Said()
	var sent strings.Builder
	for _, it := range last {
		m := it.(map[string]any)
		if m["role"] == "assistant" {
			sent.WriteString(m["content"].(string) + " ")
		}
	}
	instructions, _ := reqs[len(reqs)-1].JSON["instructions"].(string)
	lastCall := exactText(openaitest.Call{N: len(reqs), Instructions: instructions}) // what it answered
	for _, s := range said {
		if !strings.Contains(lastCall, s) && !strings.Contains(sent.String(), s) {
			t.Errorf("the last call's history lacks %q", s)
			break
		}
	}
	checkNoCanary(t, home, out, errOut)
}

// Acceptance 3 (default): the server dies → the built-in guide carries on.
func TestLLMServerDiesSessionCompletesOnBuiltin(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(exactText)
	srv.DieAfter(6)
	home := t.TempDir()
	out, errOut, err := lullLLM(t, home, srv.URL, nil, "new", "--no-tui", "--guide", "openai", "--length", "10", "--voice", "none")
	if err != nil {
		t.Fatalf("lull new: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Completed || st.Guide != "builtin" {
		t.Fatalf("status %s on guide %s", st.Status, st.Guide)
	}
	if len(st.Runs) != 2 || st.Runs[0].Guide != "openai" || st.Runs[1].Guide != "builtin" {
		t.Errorf("runs %+v", st.Runs)
	}
	if e := systemEntry(st, "failed"); e == "" {
		t.Errorf("no system entry records the failure: %v", st.History)
	}
	if !strings.Contains(flat(errOut), "Continuing with the built-in guide") {
		t.Errorf("the hand-over was not announced:\n%s", errOut)
	}
	checkNoCanary(t, home, out, errOut)
}

func systemEntry(st engine.State, word string) string {
	for _, e := range st.History {
		if e.Role == engine.RoleSystem && strings.Contains(e.Text, word) {
			return e.Text
		}
	}
	return ""
}

// Acceptance 3 (interrupt) and 4: the server dies → interrupted; resumed
// on another model the history is sent; resumed on the built-in guide it
// completes.
func TestLLMInterruptedResumesOnAnotherModelAndOnBuiltin(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(exactText)
	srv.DieAfter(4)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("llm:\n  on_failure: interrupt\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lullLLM(t, home, srv.URL, nil, "new", "--no-tui", "--guide", "openai", "--length", "10", "--voice", "none")
	if err == nil {
		t.Fatalf("a dead server did not interrupt the session:\n%s", out)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Status != engine.Interrupted {
		t.Fatalf("status %s, want interrupted\n%s", st.Status, errOut)
	}
	failure := systemEntry(st, "guide")
	if failure == "" {
		t.Errorf("no system entry for the failure: %v", st.History)
	}
	if !strings.Contains(errOut, "lull resume "+id) || !strings.Contains(errOut, "--guide builtin") {
		t.Errorf("the interruption does not say how to go on:\n%s", errOut)
	}
	spokenBefore := st.Spoken()

	// The server is back; resume on another model: no chain there, so the
	// history goes as input.
	srv.Revive()
	before := len(generationRequests(srv))
	srv.DieAfter(2)
	out2, errOut2, _ := lullLLM(t, home, srv.URL, nil, "resume", id, "--no-tui", "--model", "gpt-4.1-nano")
	reqs := generationRequests(srv)
	if len(reqs) <= before {
		t.Fatalf("the resumed run made no call:\n%s\n%s", out2, errOut2)
	}
	first := reqs[before]
	if first.JSON["model"] != "gpt-4.1-nano" || first.JSON["previous_response_id"] != nil {
		t.Errorf("resumed on another model: model %v previous %v", first.JSON["model"], first.JSON["previous_response_id"])
	}
	items, _ := first.JSON["input"].([]any)
	var history strings.Builder
	for _, it := range items {
		m := it.(map[string]any)
		history.WriteString(fmt.Sprint(m["content"]) + " ")
	}
	for _, s := range st.Said() {
		if !strings.Contains(history.String(), s) {
			t.Errorf("the history sent to the other model lacks %q", s)
			break
		}
	}
	st = load(t, home, id)
	if st.Status != engine.Interrupted || st.Spoken() <= spokenBefore {
		t.Fatalf("after the second run: %s with %d spoken (was %d)", st.Status, st.Spoken(), spokenBefore)
	}
	if n := len(st.Runs); n != 2 || st.Runs[1].Model != "gpt-4.1-nano" {
		t.Errorf("runs %+v", st.Runs)
	}

	// Now on the built-in guide, to the end.
	out3, errOut3, err := lullLLM(t, home, srv.URL, nil, "resume", id, "--no-tui", "--guide", "builtin")
	if err != nil {
		t.Fatalf("resume --guide builtin: %v\n%s\n%s", err, out3, errOut3)
	}
	st = load(t, home, id)
	if st.Status != engine.Completed || st.Guide != "builtin" {
		t.Fatalf("status %s on %s", st.Status, st.Guide)
	}
	checkNoCanary(t, home, out, errOut, out2, errOut2, out3, errOut3)
}

// --keep-responses leaves them at the provider, listed in the session;
// deleting the session deletes them there too.
func TestLLMKeptResponsesGoWithTheSession(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(exactText)
	home := t.TempDir()
	out, errOut, err := lullLLM(t, home, srv.URL, nil, "new", "--no-tui", "--length", "5", "--voice", "none", "--keep-responses")
	if err != nil {
		t.Fatalf("lull new: %v\n%s\n%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	st := load(t, home, id)
	if st.Guide != "openai" {
		t.Fatalf("a key and a base URL did not choose the LLM guide: %s", st.Guide)
	}
	kept := srv.Stored()
	if len(kept) == 0 || len(st.Stored) != len(srv.Created()) || len(srv.Deleted()) != 0 {
		t.Fatalf("kept %d at the server, %d listed in the session, %d deleted", len(kept), len(st.Stored), len(srv.Deleted()))
	}
	show, _, err := lullLLM(t, home, srv.URL, nil, "sessions", "show", id)
	if err != nil || !strings.Contains(show, "openai (gpt-4.1-mini)") || !strings.Contains(show, "tokens in") || !strings.Contains(show, "responses kept at the provider") {
		t.Errorf("sessions show (%v):\n%s", err, show)
	}
	if _, errOut, err := lullLLM(t, home, srv.URL, nil, "sessions", "delete", id, "--yes"); err != nil {
		t.Fatalf("delete: %v\n%s", err, errOut)
	}
	if left := srv.Stored(); len(left) != 0 {
		t.Errorf("%d responses left at the provider after deleting the session", len(left))
	}
}
