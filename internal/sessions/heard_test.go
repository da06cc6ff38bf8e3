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

const day = 24 * time.Hour

// spokenState is a session created at created, paused in its atmosphere
// after the guide said each text, a second apart.
func spokenState(t testing.TB, created time.Time, texts ...string) engine.State {
	t.Helper()
	st, err := engine.NewState(NewID(created), engine.Options{Length: 10 * time.Minute, Seed: 7}, created)
	if err != nil {
		t.Fatal(err)
	}
	st.Status = engine.Paused
	st.SealedAt = created
	st.Phases[engine.Atmosphere].Status = engine.PhaseActive
	st.Phases[engine.Atmosphere].StartedAt = created
	st.History = append(st.History, engine.Entry{At: created, Phase: engine.Atmosphere, Role: engine.RoleUser, Text: "an intention, not heard"})
	for i, text := range texts {
		st.History = append(st.History, engine.Entry{At: created.Add(time.Duration(i+1) * time.Second), Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: text})
	}
	st.History = append(st.History, engine.Entry{At: created.Add(time.Minute), Phase: engine.Atmosphere, Role: engine.RoleSystem, Text: "a note, not heard"})
	st.Phases[engine.Atmosphere].Spoken = len(texts)
	st.Position.Sentence = len(texts)
	st.UpdatedAt = created.Add(time.Minute)
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestHeardIsTheWindowBeforeNewestFirst(t *testing.T) {
	s, home := openStore(t)
	now := time.Date(2026, 11, 23, 21, 30, 0, 500, time.UTC)
	for _, st := range []engine.State{
		spokenState(t, now.Add(-2*day), "two days ago, first", "two days ago, second"),
		spokenState(t, now.Add(-25*day), "before the window"),
		spokenState(t, now.Add(-1*day), "yesterday"),
		spokenState(t, now.Add(-20*day-23*time.Hour), "just inside the window"),
		spokenState(t, now.Add(-5*time.Minute).In(cet), "this evening, in another zone"),
		spokenState(t, now, "the session itself"),
		spokenState(t, now.Add(time.Hour), "an hour later"),
	} {
		create(t, s, st)
	}
	// Neither a session begun and never spoken nor anything else in the
	// folder is a memory.
	silent, err := engine.NewState(NewID(now.Add(-3*time.Hour)), engine.Options{Length: 5 * time.Minute}, now.Add(-3*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, silent)
	if err := os.Mkdir(filepath.Join(home, "sessions", "notes"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "sessions", "20261123-101500-file"), []byte("not a folder"), 0o600); err != nil {
		t.Fatal(err)
	}

	heard, problems := s.Heard(now, 21*day, 30)
	if len(problems) > 0 {
		t.Errorf("problems: %v", problems)
	}
	want := [][]string{
		{"this evening, in another zone"},
		{"yesterday"},
		{"two days ago, first", "two days ago, second"},
		{"just inside the window"},
	}
	if !reflect.DeepEqual(heard, want) {
		t.Errorf("heard %q\nwant  %q", heard, want)
	}
	if heard, _ := s.Heard(now, 21*day, 2); !reflect.DeepEqual(heard, want[:2]) {
		t.Errorf("at most 2: heard %q", heard)
	}
}

// Asked again later, after an earlier session was resumed and spoke on and
// a later one was begun, the answer is the same: a resumed session hears
// with the memory it began with.
func TestHeardIsTheSameWhenAskedAgainLater(t *testing.T) {
	s, _ := openStore(t)
	now := time.Date(2026, 11, 23, 21, 30, 0, 0, time.UTC)
	earlier := spokenState(t, now.Add(-time.Hour), "an hour before")
	create(t, s, earlier)
	create(t, s, spokenState(t, now.Add(-day), "yesterday"))
	first, problems := s.Heard(now, 21*day, 30)
	if len(problems) > 0 || len(first) != 2 {
		t.Fatalf("heard %q, problems %v", first, problems)
	}

	// The earlier session is resumed after this one began, and speaks on.
	sess, err := s.Resume(earlier.ID)
	if err != nil {
		t.Fatal(err)
	}
	more := sess.State()
	more.History = append(more.History, engine.Entry{At: now.Add(time.Hour), Phase: engine.Atmosphere, Role: engine.RoleGuide, Text: "said after this session began"})
	more.Phases[engine.Atmosphere].Spoken++
	more.Position.Sentence++
	if err := sess.Save(more); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	create(t, s, spokenState(t, now.Add(2*time.Hour), "a later session"))

	again, problems := s.Heard(now, 21*day, 30)
	if len(problems) > 0 {
		t.Errorf("problems: %v", problems)
	}
	if !reflect.DeepEqual(again, first) {
		t.Errorf("asked again: %q\nfirst:      %q", again, first)
	}
}

func TestHeardSkipsWhatCannotBeRead(t *testing.T) {
	s, home := openStore(t)
	now := time.Date(2026, 11, 23, 21, 30, 0, 0, time.UTC)
	broken := spokenState(t, now.Add(-2*time.Hour), "in a broken session")
	fromBackup := spokenState(t, now.Add(-3*time.Hour), "before the damage")
	for _, st := range []engine.State{
		spokenState(t, now.Add(-time.Hour), "an hour ago"),
		broken,
		spokenState(t, now.Add(-4*time.Hour), "four hours ago"),
	} {
		create(t, s, st)
	}
	saved(t, s, fromBackup, fromBackup) // a second save: the first is the backup
	for _, name := range []string{"session.yaml", "session.yaml.bak", "transcript.md"} {
		write(t, home, broken.ID, name, []byte("not a session\x00"))
	}
	write(t, home, fromBackup.ID, "session.yaml", []byte("version: 1\ngarbage"))

	heard, problems := s.Heard(now, 21*day, 30)
	want := [][]string{{"an hour ago"}, {"before the damage"}, {"four hours ago"}}
	if !reflect.DeepEqual(heard, want) {
		t.Errorf("heard %q\nwant  %q", heard, want)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), broken.ID) {
		t.Errorf("problems %v, want one naming %s", problems, broken.ID)
	}
}

// Only the newest sessions are read: a damaged session beyond the window
// or beyond the sessions wanted is never opened, so never a problem.
func TestHeardReadsOnlyTheNewest(t *testing.T) {
	s, home := openStore(t)
	now := time.Date(2026, 11, 23, 21, 30, 0, 0, time.UTC)
	var ids []string
	for i := range 8 {
		st := spokenState(t, now.Add(-time.Duration(i+1)*time.Hour), fmt.Sprintf("%d hours ago", i+1))
		create(t, s, st)
		ids = append(ids, st.ID)
	}
	old := spokenState(t, now.Add(-30*day), "a month ago")
	create(t, s, old)
	for _, id := range append([]string{old.ID}, ids[3:]...) {
		for _, name := range []string{"session.yaml", "session.yaml.bak", "transcript.md"} {
			write(t, home, id, name, []byte("damaged"))
		}
	}
	heard, problems := s.Heard(now, 21*day, 3)
	if want := [][]string{{"1 hours ago"}, {"2 hours ago"}, {"3 hours ago"}}; !reflect.DeepEqual(heard, want) {
		t.Errorf("heard %q\nwant  %q", heard, want)
	}
	if len(problems) > 0 {
		t.Errorf("read what it did not need: %v", problems)
	}
}

// BenchmarkHeard is what a new session's memory costs with 10,000
// sessions, one every two hours: the window holds 252, of which the newest
// 30 are read, each an hour long. (The older ones are written short, as
// Heard never opens them: it keeps the set-up quick.)
func BenchmarkHeard(b *testing.B) {
	home := b.TempDir()
	s, err := Open(home)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	now := time.Date(2026, 11, 23, 21, 30, 0, 0, time.UTC)
	long, short := longState(b, "x", historyLength), fullState(b, "x")
	for i := range 10000 {
		st := long
		if i >= 300 {
			st = short
		}
		st.CreatedAt = now.Add(-time.Duration(i+1) * 2 * time.Hour)
		st.ID = NewID(st.CreatedAt)
		for j := range st.History {
			st.History[j].At = st.CreatedAt.Add(time.Duration(j) * time.Second)
		}
		data, err := encode(st)
		if err != nil {
			b.Fatal(err)
		}
		dir := filepath.Join(home, "sessions", st.ID)
		if err := os.Mkdir(dir, 0o700); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, primaryName), data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if heard, problems := s.Heard(now, 21*day, 30); len(heard) != 30 || len(problems) != 0 {
			b.Fatal(len(heard), problems)
		}
	}
}
