package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// decode reads a --json output into v, failing on a field v lacks.
func decode(t *testing.T, out string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%v in:\n%s", err, out)
	}
}

// newSession makes a completed session through lull itself, and returns
// its ID.
func newSession(t *testing.T, home string, args ...string) string {
	t.Helper()
	before, _ := os.ReadDir(filepath.Join(home, "sessions"))
	var had []string
	for _, e := range before {
		had = append(had, e.Name())
	}
	if _, stderr, code := runIn(t, home, append([]string{"new", "--no-tui", "--length", "5", "--voice", "none"}, args...)...); code != 0 {
		t.Fatalf("a session: exit %d: %s", code, stderr)
	}
	return onlyID(t, home, had)
}

// holdSession creates a session and keeps it open, locked, as a playing
// lull does, until the test ends.
func holdSession(t *testing.T, home, id string) {
	t.Helper()
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	st, err := engine.NewState(id, engine.Options{Length: 10 * time.Minute, Voice: "none", Soundscape: "none"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	held, err := store.Create(st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { held.Close() })
}

func TestSessionsListJSON(t *testing.T) {
	home := t.TempDir()
	var empty sessionsJSON
	stdout, _, code := runIn(t, home, "sessions", "list", "--json")
	decode(t, stdout, &empty)
	if code != 0 || empty.Format != "lull.sessions/1" || empty.Sessions == nil || len(empty.Sessions) != 0 || empty.Problems == nil {
		t.Errorf("no sessions: exit %d, %+v; want the format and two empty lists", code, empty)
	}
	if !strings.Contains(stdout, `"sessions": []`) {
		t.Errorf("no sessions is not an empty list: %s", stdout)
	}

	done := newSession(t, home, "--intention", "calm before a talk", "--mood-before", "2")
	holdSession(t, home, "20201124-213000-kdlu")
	if err := os.Mkdir(filepath.Join(home, "sessions", "not a session"), 0o700); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runIn(t, home, "sessions", "list", "--json")
	var got sessionsJSON
	decode(t, stdout, &got)
	if code != 0 || stderr != "" || len(got.Sessions) != 2 || len(got.Problems) != 1 {
		t.Fatalf("exit %d, stderr %q, %+v", code, stderr, got)
	}
	held, completed := got.Sessions[0], got.Sessions[1] // resumable first
	if held.ID != "20201124-213000-kdlu" || held.Status != "created" || held.Progress != 0 || held.Length != 10 {
		t.Errorf("the created session: %+v", held)
	}
	if completed.ID != done || completed.Status != "completed" || completed.Intention != "calm before a talk" || completed.MoodBefore != 2 ||
		completed.Progress != 1 || completed.Phase != "resolution" || completed.Guide != engine.GuideBuiltin || completed.CreatedAt.IsZero() {
		t.Errorf("the completed session: %+v", completed)
	}
	if !strings.Contains(got.Problems[0], "not a session") {
		t.Errorf("problems: %q", got.Problems)
	}
}

func TestSessionsShowJSON(t *testing.T) {
	home := t.TempDir()
	done := newSession(t, home, "--intention", "calm before a talk")
	holdSession(t, home, "20201124-213000-kdlu")

	stdout, stderr, code := runIn(t, home, "sessions", "show", done, "--json")
	var got sessionShowJSON
	decode(t, stdout, &got)
	if code != 0 || stderr != "" || got.Format != "lull.session-show/1" || got.Open || got.Resumable || got.Notes == nil ||
		got.Folder != filepath.Join(home, "sessions", done) {
		t.Errorf("a completed session: exit %d, stderr %q, %+v", code, stderr, got)
	}
	s := got.Session
	if s.Format != "lull.session/1" || s.ID != done || s.Status != "completed" || s.Intention != "calm before a talk" || len(s.Phases) != len(engine.Phases) || s.Sentences == 0 {
		t.Errorf("its session: %+v", s)
	}
	// The same document lull sessions export --format json writes.
	exported, _, _ := runIn(t, home, "sessions", "export", done, "--format", "json")
	inner, _ := json.MarshalIndent(got.Session, "", "  ")
	if strings.TrimSpace(exported) != string(inner) {
		t.Errorf("show --json's session differs from the export:\n%s\n%s", inner, exported)
	}

	stdout, _, _ = runIn(t, home, "sessions", "show", "20201124-213000-kdlu", "--json")
	got = sessionShowJSON{}
	decode(t, stdout, &got)
	if !got.Open || got.Resumable || got.LeftRunning || got.PID == 0 {
		t.Errorf("a session another lull holds: %+v", got)
	}

	if stdout, stderr, code := runIn(t, home, "sessions", "show", "20201124-000000-none", "--json"); code == 0 || stdout != "" || !strings.Contains(stderr, "no such session") {
		t.Errorf("a session that is not there: exit %d, %q, %q", code, stdout, stderr)
	}
}

// lull doctor --json says whether keys are set, never what they are, nor
// what a URL carries.
func TestDoctorJSONHoldsNoSecret(t *testing.T) {
	home := t.TempDir()
	secrets := []string{"sk-proj-0123456789abcdefghij", "s3cr3t-pass", "tok-en-value", "llm-key-9876543210"}
	config := "llm:\n  base_url: https://someone:s3cr3t-pass@llm.example/v1?key=tok-en-value\n"
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runEnv(t, home, []string{"OPENAI_API_KEY=" + secrets[0], "OPENAI_BASE_URL=https://u:s3cr3t-pass@example.com/v1?token=tok-en-value",
		"LULL_LLM_API_KEY=" + secrets[3]}, "doctor", "--json")
	var got doctorReport
	decode(t, stdout, &got)
	if code != 0 || got.Format != "lull.doctor/1" || got.Guide.InUse != engine.GuideOpenAI || got.Guide.APIKeySet == nil || !*got.Guide.APIKeySet ||
		!got.Environment.OpenAIKeySet || !got.Files.ConfigFound || got.Files.Config != filepath.Join(home, "config.yaml") {
		t.Errorf("exit %d, stderr %q, %+v", code, stderr, got)
	}
	for _, s := range secrets {
		if strings.Contains(stdout+stderr, s) {
			t.Errorf("doctor --json shows %q:\n%s", s, stdout)
		}
	}
	if got.Guide.Endpoint != "https://llm.example/v1?key=REDACTED" {
		t.Errorf("endpoint %q", got.Guide.Endpoint)
	}
}

// Every field of every --json output is named in the README, in the
// paragraph of its format.
func TestJSONFormatsAreDocumented(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for format, v := range map[string]any{sessionsFormat: sessionsJSON{}, sessionShowFormat: sessionShowJSON{},
		doctorFormat: doctorReport{}, statsFormat: statsJSON{}, sessionFormat: sessionJSON{}} {
		_, doc, ok := strings.Cut(readme, "**`"+format+"`**")
		if !ok {
			t.Errorf("the README has no paragraph for the format %s", format)
			continue
		}
		doc, _, _ = strings.Cut(doc, "\n\n")
		for _, name := range jsonNames(reflect.TypeOf(v)) {
			if name != "format" && !regexp.MustCompile("`"+regexp.QuoteMeta(name)+"`").MatchString(doc) {
				t.Errorf("%s: the README does not document the field %q", format, name)
			}
		}
	}
}

// jsonNames are the JSON field names of t and the structs it holds, but
// for those of a format of its own (the session in show's document).
func jsonNames(t reflect.Type) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == reflect.TypeFor[time.Time]() {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" && !slices.Contains(names, name) {
			names = append(names, name)
		}
		if f.Type != reflect.TypeFor[sessionJSON]() {
			names = append(names, jsonNames(f.Type)...)
		}
	}
	return names
}
