package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

func TestNewID(t *testing.T) {
	shape := regexp.MustCompile(`^20261123-101500-[a-z2-7]{4}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := NewID(t0) // 10:15 in UTC
		if !shape.MatchString(id) {
			t.Fatalf("NewID gave %q", id)
		}
		if err := CheckID(id); err != nil {
			t.Fatal(err)
		}
		seen[id] = true
	}
	if len(seen) < 950 {
		t.Errorf("only %d distinct ids in 1000", len(seen))
	}
	ids := []string{NewID(t0.Add(time.Hour)), NewID(t0), NewID(t0.Add(24 * time.Hour)), NewID(t0.Add(time.Second))}
	want := slices.Clone(ids)
	slices.SortFunc(want, func(a, b string) int { return strings.Compare(a[:15], b[:15]) })
	if slices.Sort(ids); !slices.Equal(ids, want) {
		t.Errorf("ids do not sort by time: %v", ids)
	}
}

func TestCheckIDAllows(t *testing.T) {
	for _, id := range []string{"a", "0", "20261123-101500-x7kq", "my_session-2", strings.Repeat("a", 64)} {
		if err := CheckID(id); err != nil {
			t.Errorf("%q: %v", id, err)
		}
	}
}

var hostileIDs = []string{
	"../x", "..", ".", "x/..", "x/../../etc", "..%2fx", "/etc", "/", "/tmp/x", "a/b", "a\\b", "A", "", "-x", "_x", "x.yaml",
	"x\x00", "\x00", "x\x00/../y", "x\n", "x\r", "x\t", "\x1b[2J", "x\x7f", "x y", " x", "é", "ｘ", "x\u202e",
	strings.Repeat("a", 65), strings.Repeat("a", 4096), strings.Repeat("a", 1<<20),
}

// Hostile ids are refused before anything is touched, by every method
// that takes one.
func TestHostileIDs(t *testing.T) {
	s, home := openStore(t)
	create(t, s, newState(t, id))
	// A real session just outside the sessions folder, for "../x" to reach.
	outside := filepath.Join(home, "x")
	if err := os.MkdirAll(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	b, _ := encode(newState(t, "x"))
	if err := os.WriteFile(filepath.Join(outside, primaryName), b, 0o600); err != nil {
		t.Fatal(err)
	}
	before := tree(t, home)
	for _, bad := range hostileIDs {
		var idErr *IDError
		err := CheckID(bad)
		if !errors.As(err, &idErr) || idErr.ID != bad {
			t.Errorf("CheckID(%q) = %v", bad, err)
			continue
		}
		if strings.ContainsAny(err.Error(), "\x00\n\r\t\x1b\x7f") {
			t.Errorf("the message shows raw control characters: %q", err)
		}
		if len(err.Error()) > 300 {
			t.Errorf("the message is %d bytes long", len(err.Error()))
		}
		if _, err := s.Salvage(bad); !errors.As(err, &idErr) {
			t.Errorf("Salvage(%q) = %v", bad, err)
		}
		if _, err := s.Restore(bad, engine.Atmosphere, 10*time.Minute); !errors.As(err, &idErr) {
			t.Errorf("Restore(%q) = %v", bad, err)
		}
		if _, _, err := s.Held(bad); !errors.As(err, &idErr) {
			t.Errorf("Held(%q) = %v", bad, err)
		}
		_, _, err = s.Load(bad)
		if !errors.As(err, &idErr) {
			t.Errorf("Load(%q) = %v", bad, err)
		}
		if _, err = s.Resume(bad); !errors.As(err, &idErr) {
			t.Errorf("Resume(%q) = %v", bad, err)
		}
		if err = s.Delete(bad); !errors.As(err, &idErr) {
			t.Errorf("Delete(%q) = %v", bad, err)
		}
		if _, err = s.Dir(bad); !errors.As(err, &idErr) {
			t.Errorf("Dir(%q) = %v", bad, err)
		}
		st := newState(t, "x")
		st.ID = bad
		if _, err := s.Create(st); !errors.As(err, &idErr) {
			t.Errorf("Create(%q) = %v", bad, err)
		}
	}
	t.Log(CheckID("x\x00"), "\n", CheckID("../x"), "\n", CheckID(strings.Repeat("a", 1<<20)))
	if after := tree(t, home); after != before {
		t.Errorf("hostile ids touched files:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// A symbolic link under a valid id cannot lead lull outside the sessions
// folder: not as the session folder, not as a file inside one.
func TestSymlinksCannotLeadOutside(t *testing.T) {
	s, home := openStore(t)
	outside := filepath.Join(t.TempDir(), "evil")
	if err := os.Mkdir(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	b, _ := encode(newState(t, "evil"))
	for _, f := range []string{primaryName, backupName} {
		if err := os.WriteFile(filepath.Join(outside, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(home, "sessions", "evil")); err != nil {
		t.Fatal(err)
	}
	before := tree(t, outside)
	_, _, err := s.Load("evil")
	mustContain(t, err, "not a session folder (a symbolic link)")
	_, err = s.Resume("evil")
	mustContain(t, err, "not a session folder")
	mustContain(t, s.Delete("evil"), "not a session folder")
	if list, problems := s.List(); len(list) != 0 || len(problems) != 0 {
		t.Errorf("List gave %v %v", list, problems)
	}
	if after := tree(t, outside); after != before {
		t.Errorf("a linked session folder was touched:\n%s\n%s", before, after)
	}

	// A real folder whose files link outside, absolutely and relatively.
	create(t, s, newState(t, "inside"))
	dir := filepath.Join(home, "sessions", "inside")
	if err := os.WriteFile(filepath.Join(outside, transcriptName), []byte(opening(newState(t, "inside"))), 0o600); err != nil {
		t.Fatal(err)
	}
	before = tree(t, outside)
	for f, target := range map[string]string{
		primaryName:    filepath.Join(outside, primaryName),
		backupName:     "../evil/" + backupName,
		transcriptName: filepath.Join(outside, transcriptName),
	} {
		os.Remove(filepath.Join(dir, f))
		if err := os.Symlink(target, filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err = s.Load("inside")
	mustContain(t, err, "cannot be read", "session.yaml: it is a symbolic link (to \""+filepath.Join(outside, primaryName),
		"session.yaml.bak: it is a symbolic link (to \"../evil/", "transcript.md: it is a symbolic link")
	t.Log(err)
	_, err = s.Resume("inside")
	mustContain(t, err, "session.yaml: it is a symbolic link")
	if list, problems := s.List(); len(list) != 0 || len(problems) != 1 {
		t.Errorf("List gave %v %v", list, problems)
	}
	if after := tree(t, outside); after != before {
		t.Errorf("files outside were touched:\n%s\n%s", before, after)
	}
}
