package sessions

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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

// Saves keep the previous one as the backup, leave nothing half-written,
// and keep everything private whatever the umask.
func TestSavesArePrivateAndBackedUp(t *testing.T) {
	for _, mask := range []int{0, 0o022, 0o077} {
		old := syscall.Umask(mask)
		home := filepath.Join(t.TempDir(), "new", "lull")
		s, err := Open(home)
		if err != nil {
			t.Fatal(err)
		}
		first, second := fullState(t, id), fullState(t, id)
		second.Elapsed += time.Second
		second.UpdatedAt = second.UpdatedAt.Add(time.Second)
		saved(t, s, newState(t, id), first, second)
		syscall.Umask(old)

		dir := filepath.Join(home, "sessions", id)
		bak, err := decode(read(t, filepath.Join(dir, backupName)), id)
		if err != nil {
			t.Fatal(err)
		}
		sameState(t, bak, first)
		primary, err := decode(read(t, filepath.Join(dir, primaryName)), id)
		if err != nil {
			t.Fatal(err)
		}
		sameState(t, primary, second)
		if _, err := os.Stat(filepath.Join(dir, tempName)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("umask %#o: %s left behind", mask, tempName)
		}
		for _, f := range []string{primaryName, backupName, transcriptName, lockName} {
			if m := mode(t, filepath.Join(dir, f)); m != 0o600 {
				t.Errorf("umask %#o: %s has mode %v", mask, f, m)
			}
		}
		for _, d := range []string{home, filepath.Dir(dir), dir} {
			if m := mode(t, d); m != 0o700 {
				t.Errorf("umask %#o: %s has mode %v", mask, d, m)
			}
		}
		s.Close()
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
			saved(t, s, newState(t, id), first, second)
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

func TestBothDamaged(t *testing.T) {
	s, home := openStore(t)
	saved(t, s, newState(t, id), fullState(t, id), fullState(t, id))
	dir := filepath.Join(home, "sessions", id)
	for _, f := range []string{primaryName, backupName} {
		b := read(t, filepath.Join(dir, f))
		write(t, home, id, f, b[:len(b)/2])
	}
	_, _, err := s.Load(id)
	mustContain(t, err, "session.yaml: the file is incomplete", "session.yaml.bak: the file is incomplete", filepath.Join(dir, transcriptName))
	_, err = s.Resume(id)
	mustContain(t, err, "session.yaml.bak: the file is incomplete")
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
