package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reseal edits a session's file as another program might, and seals it
// afresh, so that lull reads the edit as its own.
func reseal(t *testing.T, path string, edit func(body string) string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.LastIndex(s, "checksum: ")
	if i < 0 {
		t.Fatalf("%s has no checksum line", path)
	}
	body := edit(s[:i])
	if body == s[:i] {
		t.Fatalf("the edit changed nothing in %s", path)
	}
	sum := sha256.Sum256([]byte(body))
	if err := os.WriteFile(path, []byte(body+"checksum: sha256:"+hex.EncodeToString(sum[:])+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// asNewer rewrites a session's file as a newer lull might have written
// it: schema version 2, paused.
func asNewer(t *testing.T, path string) {
	t.Helper()
	reseal(t, path, func(body string) string {
		body = strings.Replace(body, "version: 1\n", "version: 2\n", 1)
		return strings.Replace(body, "status: completed", "status: paused", 1)
	})
}

// onlySession is the id and folder of the one session in home.
func onlySession(t *testing.T, home string) (id, dir string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(home, "sessions"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("sessions: %v %v", entries, err)
	}
	id = entries[0].Name()
	return id, filepath.Join(home, "sessions", id)
}

// A session a newer lull made is listed and shown as far as this lull can
// read it, and every command that would write it refuses with what to do,
// leaving its files byte for byte as they were; lull resume with no ID
// passes it by.
func TestNewerSessionIsNeverWritten(t *testing.T) {
	home := t.TempDir()
	if out, errOut, code := runIn(t, home, "new", "--length", "5", "--no-tui", "--voice", "none", "--soundscape", "none", "--intention", "calm before a talk"); code != 0 {
		t.Fatalf("lull new: %d\n%s%s", code, out, errOut)
	}
	id, dir := onlySession(t, home)
	asNewer(t, filepath.Join(dir, "session.yaml"))
	asNewer(t, filepath.Join(dir, "session.yaml.bak"))
	files := func() map[string]string {
		m := map[string]string{}
		for _, name := range []string{"session.yaml", "session.yaml.bak", "transcript.md"} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			m[name] = string(b)
		}
		return m
	}
	was := files()

	for _, args := range [][]string{
		{"resume", id},
		{"sessions", "summarize", id},
		{"sessions", "discard", id},
		{"sessions", "note", id, "--note", "a quiet evening"},
		{"sessions", "note", id, "--mood-after", "4"},
		{"replay", id},
	} {
		out, errOut, code := runIn(t, home, args...)
		if code == 0 || !strings.Contains(errOut, "made by a newer lull") || !strings.Contains(errOut, "update lull") {
			t.Errorf("lull %s: exit %d, said %q%q; want a refusal that says to update lull", strings.Join(args, " "), code, out, errOut)
		}
	}
	if _, errOut, code := runIn(t, home, "resume"); code == 0 || !strings.Contains(errOut, "no session to resume") {
		t.Errorf("lull resume with no ID: exit %d, %q; want it to pass the newer session by", code, errOut)
	}
	list, _, _ := runIn(t, home, "sessions", "list")
	if !strings.Contains(list, "made by a newer lull") || !strings.Contains(list, "calm before a talk") {
		t.Errorf("the list does not mark it:\n%s", list)
	}
	show, errOut, code := runIn(t, home, "sessions", "show", id)
	for _, want := range []string{"made by a newer lull (schema version 2)", "calm before a talk", " of 5:00 (100%) · resolution", dir} {
		if code != 0 || !strings.Contains(show, want) {
			t.Errorf("sessions show (exit %d) does not say %q:\n%s%s", code, want, show, errOut)
		}
	}
	if !strings.Contains(errOut, "update lull") {
		t.Errorf("sessions show does not say what to do: %q", errOut)
	}
	for name, b := range files() {
		if b != was[name] {
			t.Errorf("%s was written", name)
		}
	}
}
