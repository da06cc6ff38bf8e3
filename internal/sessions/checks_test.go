package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Every load is checked against the folder; what does not agree is
// reported, and the session still loads, unchanged.
func TestLoadChecks(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(t *testing.T, home string, st *engine.State)
		notes []string
	}{
		{"sound", func(*testing.T, string, *engine.State) {}, nil},
		{"transcript missing", func(t *testing.T, home string, _ *engine.State) {
			os.Remove(filepath.Join(home, "sessions", id, transcriptName))
		}, []string{"transcript.md is missing: the 13 sentences spoken so far are kept in session.yaml, but not for reading; resuming begins a new transcript."}},
		{"transcript empty", func(t *testing.T, home string, _ *engine.State) {
			write(t, home, id, transcriptName, nil)
		}, []string{"transcript.md is empty, though 13 sentences were spoken; resuming begins it again."}},
		{"transcript short", func(t *testing.T, home string, _ *engine.State) {
			b := read(t, filepath.Join(home, "sessions", id, transcriptName))
			sc := scanTranscript(b, 0, int64(len(b)))
			write(t, home, id, transcriptName, b[:sc.records[5].end])
		}, []string{"transcript.md holds 4 of the 13 sentences session.yaml says were spoken."}},
		{"transcript of another session", func(t *testing.T, home string, _ *engine.State) {
			write(t, home, id, transcriptName, []byte(opening(newState(t, "someone-else"))))
		}, []string{"transcript.md begins with the opening of session someone-else, not of this one."}},
		{"history short", func(t *testing.T, home string, st *engine.State) {
			st.History = st.History[:len(st.History)-3]
		}, []string{"session.yaml's history and its phases disagree on the sentences spoken: breathing 2 in the history, 4 in the phase."}},
		{"transcript torn", func(t *testing.T, home string, _ *engine.State) {
			b := read(t, filepath.Join(home, "sessions", id, transcriptName))
			write(t, home, id, transcriptName, b[:len(b)-10])
		}, []string{"transcript.md ends in a torn record (89 bytes); it is cut off when the session is resumed."}},
		{"transcript writable by others", func(t *testing.T, home string, _ *engine.State) {
			os.Chmod(filepath.Join(home, "sessions", id, transcriptName), 0o666)
		}, []string{"transcript.md cannot be read (it is writable by its group and everyone (mode 0666): lull will not trust it; fix with: chmod 600 " +
			filepath.Join("{home}", "sessions", id, transcriptName) + ")."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, h := openStore(t)
			st := fullState(t, id)
			spoke(t, s, newState(t, id), st)
			c.edit(t, h, &st)
			if len(st.History) != len(fullState(t, id).History) {
				b, err := encode(st)
				if err != nil {
					t.Fatal(err)
				}
				write(t, h, id, primaryName, b)
			}
			before := tree(t, h)
			got, report, err := s.Load(id)
			if err != nil {
				t.Fatal(err)
			}
			sameState(t, got, st)
			if len(report.Notes) != len(c.notes) {
				t.Fatalf("notes %q, want %q", report.Notes, c.notes)
			}
			for i, n := range report.Notes {
				if want := strings.ReplaceAll(c.notes[i], "{home}", h); n != want {
					t.Errorf("note %q, want %q", n, want)
				}
			}
			if after := tree(t, h); after != before {
				t.Errorf("Load wrote:\n%s\n%s", before, after)
			}
		})
	}
}

// A primary someone else could have written is refused like a damaged
// one: the backup loads, and the note says why and what to do.
func TestUntrustedPrimaryLoadsBackup(t *testing.T) {
	s, h := openStore(t)
	spoke(t, s, newState(t, id), fullState(t, id), fullState(t, id))
	path := filepath.Join(h, "sessions", id, primaryName)
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	_, report, err := s.Load(id)
	if err != nil || !report.FromBackup {
		t.Fatalf("%v %+v", err, report)
	}
	mustContain(t, errors.New(report.Notes[0]), "session.yaml could not be read (it is writable by its group and everyone (mode 0666): lull will not trust it; fix with: chmod 600 "+path+")")
}

// Level 3: Salvage says what is there, and Restore begins again where the
// listener chose, keeping what the transcript shows of the phases before.
func TestSalvageAndRestore(t *testing.T) {
	s, h := openStore(t)
	full := fullState(t, id)
	spoke(t, s, newState(t, id), full, full)
	dir := filepath.Join(h, "sessions", id)
	write(t, h, id, primaryName, []byte("garbage"))
	write(t, h, id, backupName, nil)
	tr := read(t, filepath.Join(dir, transcriptName))
	i := len("# lull · ") + 3
	tr[i] ^= 1 // the title: still read as one, not checked
	j := len(opening(full)) - 20
	tr[j] ^= 1 // the opening's check fails
	write(t, h, id, transcriptName, tr)
	sv, err := s.Salvage(id)
	if err != nil {
		t.Fatal(err)
	}
	found := sv.Transcript
	// The title is read as an old transcript's would be; the intention is
	// on the damaged opening's line.
	if !found.Present || found.Rebuildable || found.Records != 15 || found.Damaged != 1 || found.Length != 10*time.Minute ||
		found.Created.Year() != 2027 || found.Intention != "" || found.Shows() != "9 sentences of atmosphere, 4 of breathing" {
		t.Errorf("transcript %+v", found)
	}
	var names []string
	for _, f := range sv.Files {
		names = append(names, f.Name+": "+f.Problem)
	}
	want := []string{
		"lock: ",
		"session.yaml: the file is incomplete or damaged: it does not end with a checksum line",
		"session.yaml.bak: the file is empty",
		"transcript.md: 15 good records, 1 damaged, its opening is damaged or missing, so the session cannot be rebuilt from it",
	}
	if len(names) != len(want) {
		t.Fatalf("files %q", names)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("file %q, want %q", names[i], want[i])
		}
	}

	// The listener chooses to begin breathing again.
	sess, err := s.Restore(id, engine.Breathing, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := sess.State()
	if st.Status != engine.Paused || st.Phase != engine.Breathing || st.Position != (engine.Position{Phase: engine.Breathing}) ||
		st.Phases[0].Status != engine.PhaseCompleted || st.Phases[0].Spoken != 9 || st.Phases[1].Status != engine.PhaseActive ||
		st.Phases[1].Spoken != 0 || st.Phases[2].Status != engine.PhasePending || st.Length != 10*time.Minute {
		t.Errorf("restored %+v", st)
	}
	if !hasNote(sess.Report(), "Restored at the start of breathing") {
		t.Errorf("notes %q", sess.Report().Notes)
	}
	if _, err := s.Restore(id, engine.Breathing, 0); err == nil {
		t.Error("a session open here was restored again")
	}
	sess.Close()
	got, report, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, got, st)
	t.Log(report.Notes)
	_, err = s.Restore(id, engine.Sensory, 0)
	mustContain(t, err, "can be read: resume it instead")
}

// Without a length in the transcript, Restore needs one.
func TestRestoreNeedsALength(t *testing.T) {
	s, h := openStore(t)
	create(t, s, newState(t, id))
	for _, f := range []string{primaryName, transcriptName} {
		os.Remove(filepath.Join(h, "sessions", id, f))
	}
	_, err := s.Restore(id, engine.Atmosphere, 0)
	mustContain(t, err, "the transcript does not say how long it was, so give a length")
	sess, err := s.Restore(id, engine.Atmosphere, 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if st := sess.State(); st.Length != 15*time.Minute || st.Phase != engine.Atmosphere {
		t.Errorf("restored %+v", st)
	}
}
