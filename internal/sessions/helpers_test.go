package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

var cet = time.FixedZone("CET", 3600)

// t0 is when test sessions begin: in a zone other than UTC, with
// nanoseconds, to show both survive a round trip.
var t0 = time.Date(2026, 11, 23, 11, 15, 0, 123456789, cet)

func at(d time.Duration) time.Time { return t0.Add(d) }

// newState is a fresh session as the app creates it.
func newState(t testing.TB, id string) engine.State {
	t.Helper()
	st, err := engine.NewState(id, engine.Options{Length: 10 * time.Minute, Intention: "sleep", Seed: 7, Voice: "none", Soundscape: "brown"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// fullState has every field of a State set: a session paused in its
// breathing phase, with a summary and history of every role.
func fullState(t testing.TB, id string) engine.State {
	t.Helper()
	st := newState(t, id)
	st.Status = engine.Paused
	st.UpdatedAt = at(3 * time.Minute)
	st.SealedAt = at(time.Second)
	st.Guide = "builtin"
	st.Model = ""
	st.Runs = []engine.Run{
		{Guide: "openai", Model: "gpt-4.1-mini", StartedAt: at(time.Second)},
		{Guide: "builtin", StartedAt: at(80 * time.Second)},
	}
	st.Chain = engine.Chain{ResponseID: "resp_abc123", Provider: "https://api.openai.com/v1#gpt-4.1-mini", Unchained: []string{"Breathe in.", "And out."}}
	st.Stored = []engine.Stored{{ID: "resp_abc122", Server: "https://api.openai.com/v1"}, {ID: "resp_abc123", Server: "https://api.openai.com/v1"}}
	st.Cost = 0.0123
	st.Phase = engine.Breathing
	st.Position = engine.Position{Phase: engine.Breathing, Sentence: 4}
	st.Elapsed = 123456 * time.Millisecond
	for i := range st.Phases {
		st.Phases[i].Budget = engine.Budget{Sentences: 9 + i, WindDownAt: 7 + i, Target: 72 * time.Second, Rest: 2500 * time.Millisecond}
	}
	st.Phases[0].Status = engine.PhaseCompleted
	st.Phases[0].Spoken, st.Phases[0].Dropped = 9, 1
	st.Phases[0].Tokens = engine.Tokens{In: 4210, Out: 380}
	st.Phases[0].Elapsed = 71200 * time.Millisecond
	st.Phases[0].StartedAt, st.Phases[0].CompletedAt = at(time.Second), at(72*time.Second)
	st.Phases[1].Status = engine.PhaseActive
	st.Phases[1].Spoken = 4
	st.Phases[1].Elapsed = 52256 * time.Millisecond
	st.Phases[1].StartedAt = at(72 * time.Second)
	st.Summary = &engine.Summary{
		Duration: 123456 * time.Millisecond, Sentences: 13, Dropped: 1, Partial: true,
		Tokens: engine.Tokens{In: 4210, Out: 380}, Cost: 0.0123,
		CompletedAt: at(4 * time.Minute),
	}
	st.MoodBefore, st.MoodAfter, st.Note = 2, 4, "slept: well"
	st.MoodAsked, st.Volume, st.VoiceOff = true, -3, true
	st.VoiceRate, st.SoundscapeVolume = 0.85, -2
	st.History = []engine.Entry{{At: at(time.Second), Phase: engine.Atmosphere, Role: engine.RoleUser, Text: "sleep"}}
	texts := []string{
		`He said: "breathe" — #1, {calm}, [soft]`, "yes", "null", "- a dash", "two\nlines",
		" leading space", "tab\tinside", "café ☾", "'single'", "123", "~", "", "a: b",
	}
	for i, text := range texts {
		phase := engine.Atmosphere
		if i >= 9 {
			phase = engine.Breathing
		}
		st.History = append(st.History, engine.Entry{At: at(time.Duration(i+2) * time.Second), Phase: phase, Role: engine.RoleGuide, Text: text})
	}
	st.History = append(st.History, engine.Entry{At: at(90 * time.Second), Phase: engine.Breathing, Role: engine.RoleSystem, Text: "the voice failed; text only"})
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	return st
}

// longState is a session with a long history, as a whole hour leaves.
func longState(t testing.TB, id string, entries int) engine.State {
	st := fullState(t, id)
	for i := range entries {
		st.History = append(st.History, engine.Entry{At: at(time.Duration(i) * time.Second), Phase: engine.Breathing, Role: engine.RoleGuide,
			Text: fmt.Sprintf("Let your breath settle, slow and easy, as the evening light fades number %d.", i)})
	}
	return st
}

func openStore(t testing.TB) (*Store, string) {
	t.Helper()
	home := t.TempDir()
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, home
}

// create makes a session and closes it again, leaving it on disk.
func create(t testing.TB, s *Store, st engine.State) {
	t.Helper()
	sess, err := s.Create(st)
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
}

// saved creates a session and saves each state in turn.
func saved(t testing.TB, s *Store, states ...engine.State) {
	t.Helper()
	sess, err := s.Create(states[0])
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	for _, st := range states[1:] {
		if err := sess.Save(st); err != nil {
			t.Fatal(err)
		}
	}
}

// sameState compares states as the file keeps them: instants, not zones.
func sameState(t *testing.T, got, want engine.State) {
	t.Helper()
	if g, w := inUTC(got), inUTC(want); !reflect.DeepEqual(g, w) {
		t.Errorf("states differ:\n got %+v\nwant %+v", g, w)
	}
}

func inUTC(st engine.State) engine.State {
	st = st.Clone()
	st.CreatedAt, st.UpdatedAt, st.SealedAt = st.CreatedAt.UTC(), st.UpdatedAt.UTC(), st.SealedAt.UTC()
	for i := range st.Phases {
		st.Phases[i].StartedAt, st.Phases[i].CompletedAt = st.Phases[i].StartedAt.UTC(), st.Phases[i].CompletedAt.UTC()
	}
	if st.Summary != nil {
		st.Summary.CompletedAt = st.Summary.CompletedAt.UTC()
	}
	for i := range st.History {
		st.History[i].At = st.History[i].At.UTC()
	}
	for i := range st.Runs {
		st.Runs[i].StartedAt = st.Runs[i].StartedAt.UTC()
	}
	return st
}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustContain(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one saying %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
}

// tree lists every name under root with its mode and size: to show that
// something touched nothing.
func tree(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %v %d\n", path, info.Mode(), info.Size())
		return nil
	})
	return b.String()
}

// write puts data in a session's file, as damage or an attacker would.
func write(t testing.TB, home, id, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(home, "sessions", id, name), data, 0o600); err != nil {
		t.Fatal(err)
	}
}
