package sessions

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

const id = "20261123-101500-x7kq"

func TestRoundTrip(t *testing.T) {
	s, _ := openStore(t)
	created := newState(t, id)
	sess, err := s.Create(created)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, sess.State(), created)
	full := fullState(t, id)
	for _, e := range full.History {
		if err := sess.Transcribe(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := sess.Save(full); err != nil {
		t.Fatal(err)
	}
	got, report, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, got, full)
	if report.FromBackup || len(report.Notes) > 0 {
		t.Errorf("report %+v from a sound file", report)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}
	resumed, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	defer resumed.Close()
	sameState(t, resumed.State(), full)
	if dir, _ := s.Dir(id); resumed.Dir() != dir || !filepath.IsAbs(dir) {
		t.Errorf("Dir %q, Session.Dir %q", dir, resumed.Dir())
	}
}

func TestCreateRefuses(t *testing.T) {
	s, _ := openStore(t)
	create(t, s, newState(t, id))
	_, err := s.Create(newState(t, id))
	mustContain(t, err, "already exists")

	bad := newState(t, "20261123-101500-bbbb")
	bad.Position.Sentence = 3
	_, err = s.Create(bad)
	mustContain(t, err, "position says sentence 3")
	if _, err := os.Stat(filepath.Join(s.path, bad.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused session left its folder: %v", err)
	}
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode().Perm()
}

// A home the user made is theirs: Open does not change its mode.
func TestOpenLeavesAnExistingHome(t *testing.T) {
	home := t.TempDir()
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if m := mode(t, home); m != 0o755 {
		t.Errorf("home became %v", m)
	}
	if m := mode(t, filepath.Join(home, "sessions")); m != 0o700 {
		t.Errorf("sessions is %v", m)
	}
}

func TestTruncatedPrimaryLoadsBackup(t *testing.T) {
	cuts := map[string]func([]byte) []byte{
		"half": func(b []byte) []byte { return b[:len(b)/2] },
		"at a history line": func(b []byte) []byte {
			return b[:bytes.LastIndex(b, []byte("\n  - {at:"))+1]
		},
	}
	for name, cut := range cuts {
		t.Run(name, func(t *testing.T) {
			s, home := openStore(t)
			first := fullState(t, id)
			second := longState(t, id, 20)
			second.Phases[1].Spoken += 20
			second.Position.Sentence += 20
			spoke(t, s, newState(t, id), first, second)
			dir := filepath.Join(home, "sessions", id)
			write(t, home, id, primaryName, cut(read(t, filepath.Join(dir, primaryName))))

			got, report, err := s.Load(id)
			if err != nil {
				t.Fatal(err)
			}
			sameState(t, got, first)
			if !report.FromBackup || len(report.Notes) != 1 {
				t.Fatalf("report %+v", report)
			}
			if n := report.Notes[0]; !strings.Contains(n, "backup") || !strings.Contains(n, "last update may be lost") {
				t.Errorf("note %q", n)
			}
			t.Log(report.Notes[0])

			// Resume carries the report; its first save puts back a good
			// primary and keeps the backup it loaded, not the damaged file.
			bak := read(t, filepath.Join(dir, backupName))
			sess, err := s.Resume(id)
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			if !sess.Report().FromBackup {
				t.Error("Resume does not say it loaded the backup")
			}
			third := first
			third.Elapsed += 2 * time.Second
			if err := sess.Save(third); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(read(t, filepath.Join(dir, backupName)), bak) {
				t.Error("the backup is no longer the good file that was loaded")
			}
			got, report, err = s.Load(id)
			if err != nil || report.FromBackup {
				t.Fatalf("after a save: %v %+v", err, report)
			}
			sameState(t, got, third)
		})
	}
}

// When session.yaml and its backup are both unreadable, the session is
// rebuilt from the transcript, and the report says so plainly.
func TestBothDamagedRebuilds(t *testing.T) {
	s, home := openStore(t)
	full := fullState(t, id)
	spoke(t, s, newState(t, id), full, full)
	dir := filepath.Join(home, "sessions", id)
	for _, f := range []string{primaryName, backupName} {
		b := read(t, filepath.Join(dir, f))
		write(t, home, id, f, b[:len(b)/2])
	}
	before := tree(t, home)
	got, report, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if after := tree(t, home); after != before {
		t.Errorf("Load wrote:\n%s\n%s", before, after)
	}
	if !report.Rebuilt || report.FromBackup || len(report.Notes) != 1 {
		t.Fatalf("report %+v", report)
	}
	mustContain(t, errors.New(report.Notes[0]),
		"session.yaml and its backup could not be read (session.yaml: the file is incomplete",
		"; session.yaml.bak: the file is incomplete",
		"rebuilt from transcript.md: 13 sentences through breathing. Budgets and timing are estimated.")
	t.Log(report.Notes[0])
	if err := got.Validate(); err != nil {
		t.Fatal(err)
	}
	if got.Status != engine.Paused || got.Phase != engine.Breathing || got.Position != full.Position ||
		got.Length != full.Length || got.Seed != full.Seed || got.Intention != full.Intention || !got.CreatedAt.Equal(full.CreatedAt) ||
		got.Voice != full.Voice || got.Soundscape != full.Soundscape {
		t.Errorf("rebuilt %+v", got)
	}
	for i, r := range got.Phases {
		if r.Spoken != full.Phases[i].Spoken || r.Status != full.Phases[i].Status {
			t.Errorf("phase %s: %d spoken, %s; want %d, %s", r.Phase, r.Spoken, r.Status, full.Phases[i].Spoken, full.Phases[i].Status)
		}
	}
	if !slices.Equal(got.Said(), saidOneLine(full)) || got.History[0].Role != engine.RoleUser || got.History[0].Text != "sleep" {
		t.Errorf("history %+v", got.History)
	}
	if got.Elapsed <= 0 || got.Phases[1].Budget.Sentences < got.Phases[1].Spoken {
		t.Errorf("estimates: elapsed %v, budget %+v", got.Elapsed, got.Phases[1].Budget)
	}

	// Resume carries the report; the first save writes a good primary.
	sess, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	if !sess.Report().Rebuilt {
		t.Error("Resume does not say it rebuilt the session")
	}
	if err := sess.Save(sess.State()); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	again, report, err := s.Load(id)
	if err != nil || report.Rebuilt || report.FromBackup || len(report.Notes) != 0 {
		t.Fatalf("after a save: %v %+v", err, report)
	}
	sameState(t, again, got)
}

func saidOneLine(st engine.State) []string {
	var out []string
	for _, s := range st.Said() {
		out = append(out, oneLine(s))
	}
	return out
}

// When nothing yields a session, the error lists what is there.
func TestNothingReadable(t *testing.T) {
	s, home := openStore(t)
	spoke(t, s, newState(t, id), fullState(t, id), fullState(t, id))
	dir := filepath.Join(home, "sessions", id)
	for _, f := range []string{primaryName, backupName} {
		b := read(t, filepath.Join(dir, f))
		write(t, home, id, f, b[:len(b)/2])
	}
	tr := read(t, filepath.Join(dir, transcriptName))
	tr[bytes.Index(tr, []byte("length="))+7] = '9' // the opening's check fails
	write(t, home, id, transcriptName, tr)
	before := tree(t, home)
	_, _, err := s.Load(id)
	var ue *UnreadableError
	if !errors.As(err, &ue) {
		t.Fatalf("%v", err)
	}
	mustContain(t, err, "session.yaml: the file is incomplete", "session.yaml.bak: the file is incomplete",
		"transcript.md: the session cannot be rebuilt from it: its opening record is damaged or missing", filepath.Join(dir, transcriptName))
	explained := ue.Explain()
	for _, want := range []string{
		"Session " + id + " cannot be read, and lull could not rebuild it.\nIn " + dir + ":\n",
		"  session.yaml      ", "the file is incomplete or damaged",
		"  transcript.md     ", "15 good records, 1 damaged, its opening is damaged or missing",
		"  lock              ", "fine\n",
		"The transcript shows 9 sentences of atmosphere, 4 of breathing.\n",
		"  read what was spoken: " + filepath.Join(dir, transcriptName),
		"  remove the session: lull sessions delete " + id,
	} {
		if !strings.Contains(explained, want) {
			t.Errorf("Explain lacks %q:\n%s", want, explained)
		}
	}
	t.Log("\n" + explained)
	_, err = s.Resume(id)
	if !errors.As(err, &ue) {
		t.Fatalf("Resume: %v", err)
	}
	if after := tree(t, home); after != before {
		t.Errorf("Load or Resume wrote:\n%s\n%s", before, after)
	}
	// The failed Resume let go of the lock.
	if err := s.Delete(id); err != nil {
		t.Fatal(err)
	}
}

func TestMissing(t *testing.T) {
	s, home := openStore(t)
	for name, call := range map[string]func() error{
		"Load":   func() error { _, _, err := s.Load(id); return err },
		"Resume": func() error { _, err := s.Resume(id); return err },
		"Delete": func() error { return s.Delete(id) },
	} {
		err := call()
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", name, err)
		}
		mustContain(t, err, id, "lull sessions list")
	}
	if err := os.Mkdir(filepath.Join(home, "sessions", id), 0o700); err != nil {
		t.Fatal(err)
	}
	_, _, err := s.Load(id)
	mustContain(t, err, "has neither session.yaml nor session.yaml.bak")
}

// A primary that is gone is read from the backup, and the note says so.
func TestMissingPrimary(t *testing.T) {
	s, home := openStore(t)
	saved(t, s, newState(t, id), fullState(t, id), fullState(t, id))
	if err := os.Remove(filepath.Join(home, "sessions", id, primaryName)); err != nil {
		t.Fatal(err)
	}
	_, report, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if !report.FromBackup || !strings.Contains(report.Notes[0], "session.yaml could not be read (it is missing)") {
		t.Errorf("report %+v", report)
	}
}
