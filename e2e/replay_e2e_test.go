//go:build unix

package e2e

// End-to-end tests of lull replay and lull sessions export, on the real
// binary.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// sessionFolders lists the session ids under home.
func sessionFolders(t *testing.T, home string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(home, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		ids = append(ids, e.Name())
	}
	return ids
}

// Issue 12: a session recorded from the fake LLM server is replayed as a
// new session that records what it replays, says only the saved words,
// and makes no request to the server.
func TestReplayOfAnLLMSessionCallsNoModel(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(exactText)
	home := t.TempDir()
	out, errOut, err := lullLLM(t, home, srv.URL, nil, "new", "--no-tui", "--guide", "openai", "--length", "5", "--voice", "none")
	if err != nil {
		t.Fatalf("lull new: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	orig := load(t, home, id)
	if orig.Status != engine.Completed || orig.Guide != "openai" {
		t.Fatalf("the original is %s on %s", orig.Status, orig.Guide)
	}
	before := len(srv.Requests())
	if len(generationRequests(srv)) == 0 {
		t.Fatal("the original made no request: the test proves nothing")
	}

	out, errOut, err = lullLLM(t, home, srv.URL, nil, "replay", id, "--no-tui")
	if err != nil {
		t.Fatalf("lull replay: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
	if after := len(srv.Requests()); after != before {
		t.Errorf("the replay made %d requests to the LLM server", after-before)
	}
	ids := sessionFolders(t, home)
	if len(ids) != 2 {
		t.Fatalf("%d sessions, want the original and its replay", len(ids))
	}
	replayID := ids[0]
	if replayID == id {
		replayID = ids[1]
	}
	rep := load(t, home, replayID)
	if rep.Status != engine.Completed || rep.ReplayOf != id || rep.Guide != "replay" {
		t.Fatalf("the replay is %s on guide %q, replay_of %q; want completed, replay, %s", rep.Status, rep.Guide, rep.ReplayOf, id)
	}
	if rep.Length != orig.Length || rep.Intention != orig.Intention || rep.Sleep != orig.Sleep {
		t.Errorf("the replay is %v %q sleep %v; the original %v %q sleep %v", rep.Length, rep.Intention, rep.Sleep, orig.Length, orig.Intention, orig.Sleep)
	}
	// Only saved words, each phase's own, in their order.
	for _, p := range engine.Phases {
		saved, said := phaseWords(orig, p), phaseWords(rep, p)
		if len(said) == 0 {
			t.Errorf("%s: the replay said nothing", p)
		}
		j := 0
		for _, s := range said {
			for j < len(saved) && saved[j] != s {
				j++
			}
			if j == len(saved) {
				t.Errorf("%s: the replay said %q, which the original did not say there (or not in that order)", p, s)
				break
			}
			j++
		}
		if len(said) > 0 && said[len(said)-1] != saved[len(saved)-1] {
			t.Errorf("%s: the replay ends on %q, the original on %q", p, said[len(said)-1], saved[len(saved)-1])
		}
	}
	if n, m := len(rep.Said()), len(orig.Said()); n*10 < m*8 {
		t.Errorf("the replay said %d of %d sentences", n, m)
	}
	show, _, err := lull(t, home, "1", "sessions", "show", replayID)
	if err != nil || !strings.Contains(show, "replay of") || !strings.Contains(show, id) {
		t.Errorf("sessions show does not say what it replays (%v):\n%s", err, show)
	}
	list, _, err := lull(t, home, "1", "sessions", "list")
	if err != nil || !strings.Contains(list, "replay of "+id) {
		t.Errorf("sessions list does not say what it replays (%v):\n%s", err, list)
	}

	// A replay of the replay says the original's words, and records the
	// original.
	out, errOut, err = lullLLM(t, home, srv.URL, nil, "replay", replayID, "--no-tui", "--soundscape", "none")
	if err != nil {
		t.Fatalf("lull replay of a replay: %v\n%s%s", err, out, errOut)
	}
	if after := len(srv.Requests()); after != before {
		t.Errorf("the replay of the replay made %d requests to the LLM server", after-before)
	}
	for _, other := range sessionFolders(t, home) {
		if other == id || other == replayID {
			continue
		}
		again := load(t, home, other)
		if again.ReplayOf != id || again.Soundscape != "none" {
			t.Errorf("the replay of a replay records replay_of %q soundscape %q, want %s, none", again.ReplayOf, again.Soundscape, id)
		}
	}
}

func phaseWords(st engine.State, p engine.Phase) []string {
	var out []string
	for _, e := range st.History {
		if e.Role == engine.RoleGuide && e.Phase == p {
			out = append(out, e.Text)
		}
	}
	return out
}

// Issue 12: replay refuses, clearly, what it cannot replay: an unknown
// id, and a session that is not finished (resume it instead).
func TestReplayRefusesWhatItCannotReplay(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	_, errOut, err := lull(t, home, "1", "replay", "20260101-000000-none", "--no-tui")
	if err == nil || !strings.Contains(errOut, "no such session") {
		t.Errorf("an unknown id: %v\n%s", err, errOut)
	}
	// A session paused by Ctrl-C once it has begun to speak.
	first := exec.Command(lullBin, "new", "--no-tui", "--length", "30", "--voice", "none")
	first.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=1")
	var firstOut bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = first.Process.Kill(); _ = first.Wait() })
	deadline := time.Now().Add(60 * time.Second)
	for !spokeOnce(home) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := first.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait() // its output is read once it has ended
	id, _ := onlySession(t, home)
	if st := load(t, home, id); st.Status != engine.Paused {
		t.Fatalf("the session is %s, want paused:\n%s", st.Status, firstOut.String())
	}
	_, errOut, err = lull(t, home, "1", "replay", id, "--no-tui")
	if err == nil || !strings.Contains(errOut, "resume it instead: lull resume "+id) {
		t.Errorf("replay of a paused session: %v\n%s", err, errOut)
	}
	if ids := sessionFolders(t, home); len(ids) != 1 {
		t.Errorf("a refused replay made a session: %v", ids)
	}

	// A breathing practice: its only words are the cues of its first
	// breaths; it is begun again, not replayed.
	practice := t.TempDir()
	if out, errOut, err := lull(t, practice, "1000", "breathe", "4-7-8", "--minutes", "1", "--no-tui", "--voice", "none"); err != nil {
		t.Fatalf("lull breathe: %v\n%s%s", err, out, errOut)
	}
	pid, _ := onlySession(t, practice)
	_, errOut, err = lull(t, practice, "1", "replay", pid, "--no-tui")
	if err == nil || !strings.Contains(errOut, "breathing practice") || !strings.Contains(errOut, "lull breathe 4-7-8") {
		t.Errorf("replay of a breathing practice: %v\n%s", err, errOut)
	}
	if ids := sessionFolders(t, practice); len(ids) != 1 {
		t.Errorf("a refused replay made a session: %v", ids)
	}
}

// Issue 12: export in all four formats. The WAV is the words spoken
// again, as long as the session; the Markdown has no checksum comments;
// the JSON parses; the text has the words. No export makes a session.
func TestExportAllFormats(t *testing.T) {
	t.Parallel()
	needVoice(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if out, errOut, err := lull(t, home, "1", "render", "--out", filepath.Join(dir, "first.wav"), "--length", "5", "--seed", "3",
		"--voice", "espeak-ng", "--soundscape", "none", "--intention", "calm before a talk"); err != nil {
		t.Fatalf("lull render: %v\n%s%s", err, out, errOut)
	}
	id, folder := onlySession(t, home)
	st := load(t, home, id)
	said := st.Said()
	transcript, err := os.ReadFile(filepath.Join(folder, "transcript.md"))
	if err != nil || !strings.Contains(string(transcript), "<!--") {
		t.Fatalf("transcript.md has no checksum comments to leave out (%v)", err)
	}

	md, errOut, err := lull(t, home, "1", "sessions", "export", id, "--format", "md")
	if err != nil {
		t.Fatalf("export md: %v\n%s", err, errOut)
	}
	if strings.Contains(md, "<!--") {
		t.Errorf("the Markdown has comments:\n%s", md)
	}
	if !strings.HasPrefix(md, "# calm before a talk\n") {
		t.Errorf("the Markdown's title:\n%s", md)
	}
	for _, p := range engine.Phases {
		if !strings.Contains(md, "\n## "+p.Title()+"\n") {
			t.Errorf("no heading for %s", p)
		}
	}
	for _, s := range said {
		if !strings.Contains(md, s) {
			t.Errorf("the Markdown lacks %q", s)
			break
		}
	}

	txtPath := filepath.Join(dir, "calm.txt")
	if err := os.WriteFile(txtPath, []byte("an older export, replaced"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, err := lull(t, home, "1", "sessions", "export", id, "--format", "txt", "--out", txtPath); err != nil {
		t.Fatalf("export txt: %v\n%s", err, errOut)
	}
	txt, err := os.ReadFile(txtPath)
	if err != nil {
		t.Fatal(err)
	}
	flat := strings.Join(strings.Fields(string(txt)), " ")
	for _, s := range said {
		if !strings.Contains(flat, s) {
			t.Errorf("the text lacks %q", s)
			break
		}
	}
	for _, markup := range []string{"<!--", "**", "## "} {
		if strings.Contains(string(txt), markup) {
			t.Errorf("the text has %q in it", markup)
		}
	}
	for _, line := range strings.Split(string(txt), "\n") {
		if n := len([]rune(line)); n > 72 {
			t.Errorf("a line of %d characters: %q", n, line)
		}
	}

	js, errOut, err := lull(t, home, "1", "sessions", "export", id, "--format", "json")
	if err != nil {
		t.Fatalf("export json: %v\n%s", err, errOut)
	}
	var doc struct {
		Format string `json:"format"`
		ID     string `json:"id"`
		Phases []struct {
			Phase     string   `json:"phase"`
			Sentences []string `json:"sentences"`
		} `json:"phases"`
		History []struct {
			Role string `json:"role"`
			Text string `json:"text"`
		} `json:"history"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatalf("the JSON does not parse: %v\n%s", err, js)
	}
	var fromPhases []string
	for _, p := range doc.Phases {
		fromPhases = append(fromPhases, p.Sentences...)
	}
	if doc.Format != "lull.session/1" || doc.ID != id || len(doc.Phases) != 5 || !slices.Equal(fromPhases, said) || len(doc.History) != len(st.History) {
		t.Errorf("the JSON: format %q id %q, %d phases, %d sentences of %d, %d history entries of %d",
			doc.Format, doc.ID, len(doc.Phases), len(fromPhases), len(said), len(doc.History), len(st.History))
	}

	wavPath := filepath.Join(dir, "again.wav")
	out, errOut, err := lull(t, home, "1", "sessions", "export", id, "--format", "wav", "--out", wavPath)
	if err != nil {
		t.Fatalf("export wav: %v\n%s%s", err, out, errOut)
	}
	// Never silent while it works (issue 26): to a pipe, a line a tenth.
	if !strings.Contains(errOut, "Rendering: 0%") || !strings.Contains(errOut, "Rendering: 100%") {
		t.Errorf("export wav shows no progress:\n%s", errOut)
	}
	w := readWAV(t, wavPath)
	got, want := w.duration(), st.Length
	t.Logf("the exported WAV lasts %v (the session %v); voice heard in %.0f%% of 100 ms windows", got, want, windowsHeard(w)*100)
	if (got - want).Abs() > want/100 {
		t.Errorf("the exported WAV lasts %v, want %v ± 1 %%", got, want)
	}
	if heard := windowsHeard(w); heard < 0.2 || heard > 0.9 {
		t.Errorf("sound in %.0f%% of 100 ms windows: want speech with pauses (20–90 %%)", heard*100)
	}
	if ids := sessionFolders(t, home); len(ids) != 1 {
		t.Errorf("exporting made sessions: %v", ids)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(leftovers) > 0 {
		t.Errorf("left behind: %v", leftovers)
	}
}

// Issue 12: export refuses a folder, a device and lull's own files, and
// a WAV with nowhere to go; what it would overwrite stays as it was.
func TestExportRefusesWhatItMustNotWrite(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if _, errOut, err := lull(t, home, "100", "new", "--no-tui", "--length", "5", "--voice", "none"); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	id, folder := onlySession(t, home)
	primary := filepath.Join(folder, "session.yaml")
	before, err := os.ReadFile(primary)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"is a folder":       {"--format", "md", "--out", t.TempDir()},
		"lull's own folder": {"--format", "md", "--out", primary},
		"needs somewhere":   {"--format", "wav"},
		"choose md, txt":    {"--format", "pdf"},
		"say which format":  {},
		"no such session":   {"--format", "md"},
	}
	for want, args := range cases {
		target := id
		if want == "no such session" {
			target = "20260101-000000-none"
		}
		out, errOut, err := lull(t, home, "1", append([]string{"sessions", "export", target}, args...)...)
		if err == nil || !strings.Contains(errOut, want) {
			t.Errorf("export %v: %v, want an error saying %q\nstdout:\n%s\nstderr:\n%s", args, err, want, out, errOut)
		}
	}
	if os.Geteuid() == 0 {
		dev := filepath.Join(t.TempDir(), "null")
		if err := makeNode(dev, unix.S_IFCHR|0o666, 1, 3); err != nil {
			t.Fatal(err)
		}
		if _, errOut, err := lull(t, home, "1", "sessions", "export", id, "--format", "txt", "--out", dev); err == nil || !strings.Contains(errOut, "is a device") {
			t.Errorf("export to a device: %v\n%s", err, errOut)
		}
	}
	if after, _ := os.ReadFile(primary); string(after) != string(before) {
		t.Error("session.yaml changed")
	}
}

// spokeOnce reports whether the one session under home has said a line.
func spokeOnce(home string) bool {
	entries, _ := os.ReadDir(filepath.Join(home, "sessions"))
	return len(entries) == 1 && spoke(home, entries[0].Name())
}

// Issue 12: a replay paused partway resumes as a replay: on the saved
// words, still calling no model.
func TestPausedReplayResumesAsAReplay(t *testing.T) {
	t.Parallel()
	srv := openaitest.New()
	defer srv.Close()
	srv.SetText(exactText)
	home := t.TempDir()
	if out, errOut, err := lullLLM(t, home, srv.URL, nil, "new", "--no-tui", "--guide", "openai", "--length", "5", "--voice", "none"); err != nil {
		t.Fatalf("lull new: %v\n%s%s", err, out, errOut)
	}
	id, _ := onlySession(t, home)
	orig := load(t, home, id)
	before := len(srv.Requests())

	replay := exec.Command(lullBin, "replay", id, "--no-tui")
	replay.Env = append(hermeticEnv(), "LULL_HOME="+home, "LULL_TIME_SCALE=1", "OPENAI_API_KEY="+canaryKey, "OPENAI_BASE_URL="+srv.URL)
	var replayOut bytes.Buffer
	replay.Stdout, replay.Stderr = &replayOut, &replayOut
	if err := replay.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = replay.Process.Kill(); _ = replay.Wait() })
	replayID := ""
	deadline := time.Now().Add(60 * time.Second)
	for replayID == "" && time.Now().Before(deadline) {
		for _, other := range sessionFolders(t, home) {
			if other != id && spoke(home, other) {
				replayID = other
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := replay.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = replay.Wait() // its output is read once it has ended
	if replayID == "" {
		t.Fatalf("the replay never spoke:\n%s", replayOut.String())
	}
	if st := load(t, home, replayID); st.Status != engine.Paused {
		t.Fatalf("the replay is %s after Ctrl-C, want paused:\n%s", st.Status, replayOut.String())
	}
	if out, errOut, err := lullLLM(t, home, srv.URL, nil, "resume", replayID, "--no-tui"); err != nil {
		t.Fatalf("lull resume of the replay: %v\n%s%s", err, out, errOut)
	}
	rep := load(t, home, replayID)
	if rep.Status != engine.Completed || rep.ReplayOf != id {
		t.Fatalf("the resumed replay is %s, replay_of %q", rep.Status, rep.ReplayOf)
	}
	for _, r := range rep.Runs {
		if r.Guide != "replay" {
			t.Errorf("a run of the replay on guide %q: %+v", r.Guide, rep.Runs)
		}
	}
	if after := len(srv.Requests()); after != before {
		t.Errorf("the replay and its resume made %d requests to the LLM server", after-before)
	}
	saved := map[string]bool{}
	for _, s := range orig.Said() {
		saved[s] = true
	}
	for _, s := range rep.Said() {
		if !saved[s] {
			t.Errorf("the resumed replay said %q, which the original did not", s)
		}
	}
}

// spoke reports whether session id under home has said a line.
func spoke(home, id string) bool {
	store, err := sessions.Open(home)
	if err != nil {
		return false
	}
	defer store.Close()
	st, _, err := store.Load(id)
	return err == nil && st.Spoken() > 0
}

// Issue 12, in a real terminal: enter on a completed session shows its
// words read-only, esc goes back, and r there begins its replay.
func TestTmuxRereadAndReplay(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if _, errOut, err := lull(t, home, "100", "new", "--no-tui", "--length", "5", "--voice", "none", "--intention", "rest after work"); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	id, _ := onlySession(t, home)
	orig := load(t, home, id)
	first := orig.Said()[0]
	env := []string{"LULL_HOME=" + home, "LULL_TIME_SCALE=20"}
	s := newScreen(t, env)
	s.waitFor("rest after work", 30*time.Second)
	s.send("Enter")
	shown := s.waitFor("— Atmosphere —", 30*time.Second)
	for _, want := range []string{"Guide", "builtin", "read-only", "r replay"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the read-only view lacks %q:\n%s", want, shown)
		}
	}
	if !strings.Contains(strings.Join(strings.Fields(s.lines()), " "), strings.Join(strings.Fields(first), " ")) {
		t.Errorf("the read-only view lacks the first sentence %q:\n%s", first, shown)
	}
	s.send("Escape")
	s.waitFor("n new session", 30*time.Second)
	s.send("Enter")
	s.waitFor("— Atmosphere —", 30*time.Second)
	s.send("r")
	s.waitFor("speaking", 30*time.Second)
	s.send("q")
	s.waitFor("__EXIT=0", 30*time.Second)
	var replayID string
	for _, other := range sessionFolders(t, home) {
		if other != id {
			replayID = other
		}
	}
	if replayID == "" {
		t.Fatal("r made no replay")
	}
	if rep := load(t, home, replayID); rep.ReplayOf != id || rep.Guide != "replay" {
		t.Errorf("the replay records replay_of %q on guide %q", rep.ReplayOf, rep.Guide)
	}
}
