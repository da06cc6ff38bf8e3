//go:build unix

package e2e

// End-to-end tests of what lull prints and keeps, with the real binary:
// hostile text (escape sequences, line breaks, bidi controls) on every
// output path, the intention rule on every input path, LULL_TIME_SCALE's
// bounds, and a provider that echoes the API key.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// lullEnv runs the binary with a private home and more environment,
// killed after within: a run that should stop at once and does not fails
// instead of hanging the suite.
func lullEnv(t *testing.T, home string, env []string, within time.Duration, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	cmd := exec.CommandContext(ctx, lullBin, args...)
	cmd.Env = append(append(hermeticEnv(), "LULL_HOME="+home), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("lull %s did not end within %v", strings.Join(args, " "), within)
	}
	return out.String(), errOut.String(), err
}

// unprintable finds what a terminal would act on rather than show: ESC,
// BEL, C1 controls, bidi controls. It returns a little context, or "".
func unprintable(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool {
		return r == 0x1b || r == 0x07 || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
	})
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("%q", s[max(i-40, 0):min(i+40, len(s))])
}

func checkPrintableOutput(t *testing.T, what, out string) {
	t.Helper()
	if bad := unprintable(out); bad != "" {
		t.Errorf("%s printed a control: …%s…", what, bad)
	}
	if strings.Contains(out, "pwned") {
		t.Errorf("%s printed the body of an escape sequence:\n%s", what, out)
	}
}

// hostileYAML is an intention as a hand-edited or older file may hold
// it, in YAML's double-quoted form: an OSC that retitles the terminal, a
// CSI that clears it, a line break, a bidi override, a bell.
const hostileYAML = `"\e]0;pwned\a \e[2J calm\nbefore \u202Ea talk\a"`

// writeHostileSession saves a session paused in its breathing phase the
// way lull does, then writes the hostile intention into its session.yaml
// by hand and seals it again, as someone editing the file would.
func writeHostileSession(t *testing.T, home, id string) {
	t.Helper()
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	when := time.Now().Add(-2 * time.Hour)
	st, err := engine.NewState(id, engine.Options{Length: 5 * time.Minute, Intention: "placeholder", Seed: 3, Voice: "none", Soundscape: "none"}, when)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := store.Create(st)
	if err != nil {
		t.Fatal(err)
	}
	say := func(p engine.Phase, n int) {
		for i := range n {
			e := engine.Entry{At: when, Phase: p, Role: engine.RoleGuide, Text: fmt.Sprintf("%s line %d.", p.Title(), i+1)}
			st.History = append(st.History, e)
			if err := sess.Transcribe(e); err != nil {
				t.Fatal(err)
			}
		}
		st.Phases[p].Spoken = n
	}
	st.SealedAt = when
	st.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
	say(engine.Atmosphere, 4)
	st.Phases[engine.Breathing].Status = engine.PhaseActive
	say(engine.Breathing, 1)
	st.Phase, st.Position = engine.Breathing, engine.Position{Phase: engine.Breathing, Sentence: 1}
	st.Elapsed = 50 * time.Second
	st.Status, st.UpdatedAt = engine.Paused, when
	if err := sess.Save(st); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	store.Close()

	path := filepath.Join(home, "sessions", id, "session.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	body, _, ok := bytes.Cut(data, []byte("checksum: sha256:"))
	if !ok || !bytes.Contains(body, []byte("\nintention: placeholder\n")) {
		t.Fatalf("session.yaml is not as expected:\n%s", data)
	}
	body = bytes.Replace(body, []byte("\nintention: placeholder\n"), []byte("\nintention: "+hostileYAML+"\n"), 1)
	sum := sha256.Sum256(body)
	sealed := append(body, []byte("checksum: sha256:"+hex.EncodeToString(sum[:])+"\n")...)
	if err := os.WriteFile(path, sealed, 0o600); err != nil {
		t.Fatal(err)
	}
	// It loads, and holds the intention raw: the screens must cope.
	if got := load(t, home, id); !strings.Contains(got.Intention, "\x1b]0;pwned\a") || got.Status != engine.Paused {
		t.Fatalf("the hand-written session loads as %s with intention %q", got.Status, got.Intention)
	}
}

// A session whose file holds escape sequences, a line break and a bidi
// override in its intention loads, and every path that prints it shows
// the words, "calm before a talk", and nothing a terminal would act on.
func TestHostileIntentionIsPrintedCleanEverywhere(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	const id = "hostile-intention"
	writeHostileSession(t, home, id)
	const words = "calm before a talk"

	for _, args := range [][]string{
		{"sessions", "list"},
		{"sessions", "show", id},
		{"sessions", "prune", "--older-than", "1h"},
	} {
		out, errOut, err := lullEnv(t, home, []string{"LULL_TIME_SCALE=1"}, time.Minute, args...)
		if err != nil {
			t.Errorf("lull %s: %v\n%s", strings.Join(args, " "), err, errOut)
		}
		checkPrintableOutput(t, "lull "+strings.Join(args, " "), out+errOut)
		if !strings.Contains(out, words) {
			t.Errorf("lull %s does not show the intention's words:\n%s", strings.Join(args, " "), out)
		}
	}

	// The TUI: the home list, then the session screen once resumed. The
	// pane keeps its title, and the screen shows the words.
	s := newScreen(t, []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=20"})
	s.waitFor("paused", 20*time.Second) // the row is drawn
	checkPane(t, s)
	s.waitFor(words, 20*time.Second)
	s.send("Enter")
	s.waitFor("elapsed", 20*time.Second)
	checkPane(t, s)
	s.waitFor(words, 20*time.Second)
	s.send("q")
	s.waitFor("__EXIT=0", 20*time.Second)

	// Resumed without the TUI: the header line and whatever the guide says.
	out, errOut, err := lullEnv(t, home, []string{"LULL_TIME_SCALE=100"}, 2*time.Minute, "resume", id, "--no-tui")
	if err != nil {
		t.Fatalf("resume --no-tui: %v\n%s\n%s", err, out, errOut)
	}
	checkPrintableOutput(t, "lull resume --no-tui", out+errOut)
	if first, _, _ := strings.Cut(out, "\n"); !strings.Contains(first, "intention: "+words) {
		t.Errorf("the header line does not show the intention's words: %q", first)
	}
	if st := load(t, home, id); st.Status != engine.Completed {
		t.Errorf("the session is %s after resuming, want completed", st.Status)
	}
}

// checkPane fails when the pane's title was changed, or its screen shows
// an escape sequence's body or holds a bidi control.
func checkPane(t *testing.T, s *screen) {
	t.Helper()
	if title := s.tmux("display-message", "-p", "-t", "lull", "#{pane_title}"); strings.Contains(title, "pwned") {
		t.Errorf("the pane was retitled: %q", strings.TrimSpace(title))
	}
	screen := s.capture()
	if strings.Contains(screen, "pwned") || strings.Contains(screen, "[2J") {
		t.Errorf("the screen shows an escape sequence:\n%s", screen)
	}
	if bad := unprintable(screen); bad != "" {
		t.Errorf("the screen holds a control: …%s…", bad)
	}
}

// modelWithEscapes writes sentences holding escape sequences, as a
// compromised or confused model might.
func modelWithEscapes(c openaitest.Call) string {
	var b strings.Builder
	for i := range 6 {
		first, rest, _ := strings.Cut(modelLine(callPhase(c), c.N, i), " ")
		fmt.Fprintf(&b, "%s \x1b]0;pwned by the model\a%s\x1b[2J\n", first, rest)
	}
	return b.String()
}

// A model's sentences with escape sequences reach the screen clean: in
// --no-tui and in the TUI.
func TestModelEscapesArePrintedClean(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(modelWithEscapes)

	home := t.TempDir()
	out, errOut, err := lullLLM(t, home, srv.URL, nil, "new", "--no-tui", "--guide", "openai", "--length", "5", "--voice", "none")
	if err != nil {
		t.Fatalf("lull new: %v\n%s\n%s", err, out, errOut)
	}
	checkPrintableOutput(t, "lull new --no-tui", out+errOut)
	first := modelLine(engine.Atmosphere, 1, 0)
	if !strings.Contains(out, first) {
		t.Errorf("the model's sentence is not printed clean:\n%s", out)
	}

	s := newScreen(t, []string{"LULL_HOME=" + t.TempDir(), "LULL_TIME_SCALE=20", "OPENAI_API_KEY=" + canaryKey, "OPENAI_BASE_URL=" + srv.URL},
		"new", "--guide", "openai", "--length", "5", "--voice", "none")
	// Whichever line is on the screen when it is read: the server counts
	// on from the run above, and at this pace a line shows for moments.
	shown := func(pane string) bool {
		for _, pool := range modelLines() {
			for _, line := range pool {
				if strings.Contains(pane, strings.Join(strings.Fields(line)[:3], " ")) { // across the escape, too short to wrap
					return true
				}
			}
		}
		return false
	}
	s.waitUntil(shown, "a line of the model's", 30*time.Second)
	checkPane(t, s)
	s.send("q")
	s.waitFor("__EXIT=0", 20*time.Second)
}

// The intention rule holds on every path: --intention on new and render
// refuses a control or an overlong intention at once, before any session
// or file is made, and folds whitespace to one line.
func TestIntentionRuleOnTheCommandLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("calm ", 26_000) // 130,000 bytes
	for name, c := range map[string]struct {
		args []string
		says string
	}{
		"new, 130 KB":       {[]string{"new", "--no-tui", "--length", "5", "--voice", "none", "--intention", long}, "at most 120"},
		"render, 130 KB":    {[]string{"render", "--out", "OUT", "--length", "5", "--voice", "none", "--intention", long}, "at most 120"},
		"new, escape":       {[]string{"new", "--no-tui", "--length", "5", "--voice", "none", "--intention", "sleep\x1b]0;pwned\a"}, "escape character"},
		"new, bidi":         {[]string{"new", "--no-tui", "--length", "5", "--voice", "none", "--intention", "calm \u202eklat"}, "bidirectional-text control (U+202E)"},
		"render, bell only": {[]string{"render", "--out", "OUT", "--length", "5", "--voice", "none", "--intention", "\a"}, "bell character"},
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			wav := filepath.Join(t.TempDir(), "out.wav")
			args := append([]string(nil), c.args...)
			for i, a := range args {
				if a == "OUT" {
					args[i] = wav
				}
			}
			out, errOut, err := lullEnv(t, home, []string{"LULL_TIME_SCALE=100"}, time.Minute, args...)
			if err == nil {
				t.Fatalf("accepted:\n%s", out)
			}
			if !strings.Contains(errOut, "--intention") || !strings.Contains(errOut, c.says) {
				t.Errorf("the refusal does not say %q:\n%s", c.says, errOut)
			}
			checkPrintableOutput(t, "the refusal", errOut)
			if len(errOut) > 1000 {
				t.Errorf("the refusal is %d bytes long: it quotes the intention", len(errOut))
			}
			if entries, _ := os.ReadDir(filepath.Join(home, "sessions")); len(entries) > 0 {
				t.Errorf("a refused intention made %d session folders", len(entries))
			}
			if _, err := os.Stat(wav); err == nil {
				t.Error("a refused intention wrote a WAV file")
			}
		})
	}

	// Whitespace folds to one line, the same on the way in as in the file.
	home := t.TempDir()
	out, errOut, err := lullEnv(t, home, []string{"LULL_TIME_SCALE=100"}, 2*time.Minute,
		"new", "--no-tui", "--length", "5", "--voice", "none", "--intention", "  calm\n\tbefore   a talk \n")
	if err != nil {
		t.Fatalf("lull new: %v\n%s\n%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	if st := load(t, home, id); st.Intention != "calm before a talk" {
		t.Errorf("saved intention %q, want it folded to one line", st.Intention)
	}
}

// LULL_TIME_SCALE: NaN, infinities, zero, negatives, junk and numbers out
// of bounds are refused with the bounds; NaN never starts a session.
func TestTimeScaleRefusesNaNAndSaysItsBounds(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "1e400", "0", "-1", "0.01", "1e9", "fast", "0x"} {
		t.Run(v, func(t *testing.T) {
			home := t.TempDir()
			_, errOut, err := lullEnv(t, home, []string{"LULL_TIME_SCALE=" + v}, time.Minute, "sessions", "list")
			if err == nil {
				t.Fatalf("LULL_TIME_SCALE=%s was accepted", v)
			}
			if !strings.Contains(errOut, "LULL_TIME_SCALE") || !strings.Contains(errOut, "from 0.1 to 10000") {
				t.Errorf("the refusal does not state the bounds:\n%s", errOut)
			}
		})
	}
	for _, v := range []string{"0.1", "1", "100", "10000", " 20 "} {
		if _, errOut, err := lullEnv(t, t.TempDir(), []string{"LULL_TIME_SCALE=" + v}, time.Minute, "sessions", "list"); err != nil {
			t.Errorf("LULL_TIME_SCALE=%q refused: %v\n%s", v, err, errOut)
		}
	}

	// NaN once sat at 0:00 forever: now nothing begins.
	home := t.TempDir()
	_, errOut, err := lullEnv(t, home, []string{"LULL_TIME_SCALE=NaN"}, time.Minute, "new", "--no-tui", "--length", "5", "--voice", "none")
	if err == nil || !strings.Contains(errOut, "from 0.1 to 10000") {
		t.Errorf("new with NaN: %v\n%s", err, errOut)
	}
	if entries, _ := os.ReadDir(filepath.Join(home, "sessions")); len(entries) > 0 {
		t.Errorf("LULL_TIME_SCALE=NaN made a session")
	}
}

// checkNoSecret reads every file under home and the outputs: the secret,
// raw or URL-escaped, is in none.
func checkNoSecret(t *testing.T, home, secret string, outputs ...string) {
	t.Helper()
	forms := []string{secret, url.QueryEscape(secret)}
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
		for _, f := range forms {
			if bytes.Contains(data, []byte(f)) {
				t.Errorf("the key is in %s", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"session.yaml", "session.yaml.bak", "transcript.md", "lull.log"} {
		if !strings.Contains(fmt.Sprint(walk(t, home)), name) {
			t.Errorf("no %s under %s: the check read too little", name, home)
		}
	}
	for _, o := range outputs {
		for _, f := range forms {
			if strings.Contains(o, f) {
				t.Errorf("the key was printed:\n%s", o)
			}
		}
	}
}

func walk(t *testing.T, dir string) []string {
	var names []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, d.Name())
		}
		return nil
	})
	return names
}

// A provider (or a proxy in front of it) that echoes the API key in its
// error message, or redirects to a URL carrying it: the key reaches no
// file under LULL_HOME — session.yaml, its backup, the transcript, the
// log — and neither stdout nor stderr; the history says what happened in
// plain words. Once with an sk- key, once with a
// key of no known shape, which only the registered value can catch.
func TestEchoedKeyIsNeverKeptOrShown(t *testing.T) {
	t.Parallel()
	const plainKey = "proxy-token-9a8b7c6d5e4f3a2b"
	for _, c := range []struct {
		name, key string
		faults    []openaitest.Fault
		config    string
	}{
		{"echoed sk key, hand-over", canaryKey, []openaitest.Fault{openaitest.EchoKey(401)}, ""},
		{"echoed plain key, interrupted", plainKey, []openaitest.Fault{openaitest.EchoKey(401)}, "llm:\n  on_failure: interrupt\n"},
		{"key in a redirect's URL", plainKey, []openaitest.Fault{openaitest.RedirectKey(), openaitest.RedirectKey(), openaitest.RedirectKey(), openaitest.RedirectKey()}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := openaitest.New()
			defer srv.Close()
			srv.SetText(exactText)
			srv.Push(c.faults...)
			home := t.TempDir()
			if c.config != "" {
				if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(c.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			env := []string{"LULL_TIME_SCALE=100", "OPENAI_API_KEY=" + c.key, "OPENAI_BASE_URL=" + srv.URL}
			out, errOut, err := lullEnv(t, home, env, 2*time.Minute, "new", "--no-tui", "--guide", "openai", "--length", "5", "--voice", "none")
			id, _ := onlySession(t, home)
			st := load(t, home, id)
			failure := systemEntry(st, "failed")
			if failure == "" {
				failure = systemEntry(st, "stopped")
			}
			// The history says it in plain words; the raw error, key masked,
			// goes to the log alone (checkNoSecret reads both).
			if failure == "" || !strings.Contains(failure, "server") || strings.Contains(failure, "REDACTED") {
				t.Errorf("the failure is not in the history in plain words: %q (%v)\n%s\n%s", failure, err, out, errOut)
			}
			// Show it and resume it: both read the history back.
			show, showErr, _ := lullEnv(t, home, env, time.Minute, "sessions", "show", id)
			res, resErr, _ := lullEnv(t, home, env, 2*time.Minute, "resume", id, "--no-tui", "--guide", "builtin")
			if st := load(t, home, id); st.Status != engine.Completed {
				t.Errorf("the session did not complete: %s\n%s\n%s", st.Status, errOut, resErr)
			}
			if len(srv.Requests()) == 0 {
				t.Fatal("lull never called the server")
			}
			checkNoSecret(t, home, c.key, out, errOut, show, showErr, res, resErr)
		})
	}
}

// doctor shows where the voice and the guide are without user info or
// query values in their URLs.
func TestDoctorRedactsURLs(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	config := "speech:\n  base_url: https://spuser:sppass@speech.example/v1?token=tok-secret-4242\n" +
		"llm:\n  base_url: https://llmuser:llmpass@llm.example/v1?key=llm-secret-7777\n"
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"LULL_LLM_API_KEY=llm-key-abcdef0123", "OPENAI_BASE_URL=https://envuser:envpass@env.example/v1?sig=env-secret-9999"}
	out, errOut, err := lullEnv(t, home, env, time.Minute, "doctor")
	if err != nil {
		t.Fatalf("doctor: %v\n%s\n%s", err, out, errOut)
	}
	for _, secret := range []string{"sppass", "spuser", "tok-secret-4242", "llmpass", "llmuser", "llm-secret-7777", "envpass", "envuser", "env-secret-9999", "llm-key-abcdef0123"} {
		if strings.Contains(out+errOut, secret) {
			t.Errorf("doctor printed %q:\n%s", secret, out)
		}
	}
	for _, shown := range []string{"https://speech.example/v1?token=REDACTED", "https://llm.example/v1?key=REDACTED", "https://env.example/v1?sig=REDACTED"} {
		if !strings.Contains(out, shown) {
			t.Errorf("doctor does not show %s:\n%s", shown, out)
		}
	}
}
