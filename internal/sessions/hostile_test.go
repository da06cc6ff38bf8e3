package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hostile files in a session folder are refused quickly, with a clear
// message, without anything being written; the healthy session beside
// them still lists, loads and resumes.
func TestHostileFiles(t *testing.T) {
	const hostile, healthy = "hostile", "healthy"
	good, err := encode(fullState(t, hostile))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := unseal(good)
	sealed := func(edit func(string) string) []byte { return seal([]byte(edit(string(body)))) }
	bombs := decodeBombs(good)
	outside := t.TempDir()
	outsideFile := filepath.Join(outside, "session.yaml")
	if err := os.WriteFile(outsideFile, good, 0o600); err != nil {
		t.Fatal(err)
	}
	type plant func(t *testing.T, dir string)
	file := func(name string, b []byte) plant {
		return func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		name  string
		plant plant
		want  string // in the error
	}{
		{"billion laughs", file(primaryName, bombs["billion laughs"]), "unknown field lol0"},
		{"billion laughs in a field", file(primaryName, bombs["billion laughs in a field"]), "unknown field lol0"},
		{"deep nesting", file(primaryName, bombs["deep nesting"]), "exceeded max depth"},
		{"deep block nesting", file(primaryName, bombs["deep block nesting"]), "cannot unmarshal !!seq into string"},
		{"5 MiB", file(primaryName, sealed(func(s string) string { return s + "# " + strings.Repeat("z", 5<<20) + "\n" })), "larger than 4 MiB"},
		{"5 MiB of one line", file(primaryName, []byte(strings.Repeat("a", 5<<20))), "larger than 4 MiB"},
		{"wrong type", file(primaryName, sealed(func(s string) string { return strings.Replace(s, "seed: 7", "seed: {a: b}", 1) })), "cannot unmarshal !!map into int64"},
		{"unknown key", file(primaryName, sealed(func(s string) string { return strings.Replace(s, "seed: 7\n", "seed: 7\nowner: root\n", 1) })), "unknown field owner"},
		{"duplicate key", file(primaryName, sealed(func(s string) string { return strings.Replace(s, "seed: 7\n", "seed: 7\nseed: 8\n", 1) })), `mapping key "seed" already defined`},
		{"NUL bytes", file(primaryName, sealed(func(s string) string { return strings.Replace(s, "seed: 7", "seed: 7\x00\x00", 1) })), "control characters"},
		{"unsealed NUL bytes", file(primaryName, make([]byte, 4096)), "it does not end with a checksum line"},
		{"FIFO", func(t *testing.T, dir string) {
			mkfifo(t, filepath.Join(dir, primaryName))
		}, "session.yaml: it is not a regular file but a named pipe (FIFO)"},
		{"directory", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, primaryName), 0o700); err != nil {
				t.Fatal(err)
			}
		}, "session.yaml: it is not a regular file but a folder"},
		{"symlink outside", func(t *testing.T, dir string) {
			if err := os.Symlink(outsideFile, filepath.Join(dir, primaryName)); err != nil {
				t.Fatal(err)
			}
		}, `session.yaml: it is a symbolic link (to "` + outsideFile + `")`},
		{"symlink to a device", func(t *testing.T, dir string) {
			if err := os.Symlink("/dev/zero", filepath.Join(dir, primaryName)); err != nil {
				t.Fatal(err)
			}
		}, `session.yaml: it is a symbolic link (to "/dev/zero")`},
		{"symlink inside", func(t *testing.T, dir string) {
			if err := os.Symlink(backupName, filepath.Join(dir, primaryName)); err != nil {
				t.Fatal(err)
			}
		}, `session.yaml: it is a symbolic link (to "session.yaml.bak")`},
		{"writable by others", func(t *testing.T, dir string) {
			path := filepath.Join(dir, primaryName)
			if err := os.WriteFile(path, good, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o666); err != nil {
				t.Fatal(err)
			}
		}, "session.yaml: it is writable by its group and everyone (mode 0666): lull will not trust it; fix with: chmod 600 "},
		{"writable by its group", func(t *testing.T, dir string) {
			path := filepath.Join(dir, primaryName)
			if err := os.WriteFile(path, good, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, 0o620); err != nil {
				t.Fatal(err)
			}
		}, "writable by its group (mode 0620)"},
		{"owned by someone else", func(t *testing.T, dir string) {
			if os.Geteuid() != 0 {
				t.Skip("changing a file's owner needs root")
			}
			path := filepath.Join(dir, primaryName)
			if err := os.WriteFile(path, good, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(path, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}, "session.yaml: it belongs to uid 65534, not to you (uid 0): lull will not trust it"},
		{"folder writable by others", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, primaryName), good, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, 0o777); err != nil {
				t.Fatal(err)
			}
		}, "session hostile: its folder: it is writable by its group and everyone (mode 0777): lull will not trust it; fix with: chmod 700 "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, home := openStore(t)
			spoke(t, s, newState(t, healthy), fullState(t, healthy))
			create(t, s, newState(t, hostile))
			dir := filepath.Join(home, "sessions", hostile)
			for _, f := range []string{primaryName, transcriptName} { // nothing to rebuild from
				if err := os.Remove(filepath.Join(dir, f)); err != nil {
					t.Fatal(err)
				}
			}
			c.plant(t, dir)
			before := tree(t, home)
			// How fast a refusal is belongs to BenchmarkRefuseBombs: a
			// speed is no test's business on a busy machine, and a decode
			// that never ends meets go test's -timeout.
			_, _, err := s.Load(hostile)
			mustContain(t, err, c.want)
			t.Log(err)
			_, err = s.Resume(hostile)
			mustContain(t, err, c.want)
			list, problems := s.List()
			if len(list) != 1 || list[0].ID != healthy || len(problems) != 1 {
				t.Fatalf("list %+v, problems %v", list, problems)
			}
			mustContain(t, problems[0], c.want)
			if _, err := s.Salvage(hostile); err != nil {
				t.Fatal(err)
			}
			if after := tree(t, home); after != before {
				t.Errorf("touched:\nbefore\n%s\nafter\n%s", before, after)
			}
			if sess, err := s.Resume(healthy); err != nil {
				t.Errorf("the healthy session: %v", err)
			} else {
				sess.Close()
			}
		})
	}
}

// decodeBombs are session files built to make a decoder work hard: aliases
// that multiply, and nesting a million deep; each sealed, so that only the
// decoder can refuse it.
func decodeBombs(good []byte) map[string][]byte {
	body, _ := unseal(good)
	sealed := func(edit func(string) string) []byte { return seal([]byte(edit(string(body)))) }
	laughs := "lol0: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i, prev := range "abcdefgh" {
		next := string(rune('b' + i))
		laughs += "lol" + next + ": &" + next + " [" + strings.Repeat("*"+string(prev)+", ", 9) + "*" + string(prev) + "]\n"
	}
	return map[string][]byte{
		"billion laughs": sealed(func(s string) string { return s + laughs }),
		"billion laughs in a field": sealed(func(s string) string {
			return strings.Replace(s, "intention: sleep\n", laughs+"intention: *i\n", 1)
		}),
		"deep nesting": sealed(func(s string) string {
			return strings.Replace(s, "intention: sleep", "intention: "+strings.Repeat("[", 1e6)+strings.Repeat("]", 1e6), 1)
		}),
		"deep block nesting": sealed(func(s string) string {
			var b strings.Builder
			for i := range 1500 {
				b.WriteString(strings.Repeat(" ", i) + "- \n")
			}
			return strings.Replace(s, "intention: sleep\n", "intention:\n"+b.String(), 1)
		}),
	}
}

// A hostile transcript is refused as firmly: it is never opened for
// appending, nor rebuilt from.
func TestHostileTranscript(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(outside, []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		plant func(t *testing.T, path string)
		want  string
	}{
		{"FIFO", func(t *testing.T, path string) {
			mkfifo(t, path)
		}, "transcript.md: it is not a regular file but a named pipe (FIFO)"},
		{"symlink outside", func(t *testing.T, path string) {
			if err := os.Symlink(outside, path); err != nil {
				t.Fatal(err)
			}
		}, "transcript.md: it is a symbolic link"},
		{"symlink to the session", func(t *testing.T, path string) {
			if err := os.Symlink(primaryName, path); err != nil {
				t.Fatal(err)
			}
		}, `transcript.md: it is a symbolic link (to "session.yaml")`},
		{"writable by others", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("# lull\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, 0o646)
		}, "transcript.md: it is writable by everyone (mode 0646)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, home := openStore(t)
			spoke(t, s, newState(t, id), fullState(t, id))
			path := filepath.Join(home, "sessions", id, transcriptName)
			os.Remove(path)
			c.plant(t, path)
			before := tree(t, home)
			// session.yaml is sound: the session loads, and the note says
			// what is wrong with the transcript.
			_, report, err := s.Load(id)
			if err != nil || !hasNote(report, "transcript.md cannot be read (") || !hasNote(report, strings.TrimPrefix(c.want, "transcript.md: ")) {
				t.Fatalf("%v %#v", err, report.Notes)
			}
			// Resuming would append to it: refused.
			_, err = s.Resume(id)
			mustContain(t, err, "opening the transcript of session "+id+": "+c.want)
			// With session.yaml lost too, nothing is rebuilt from it.
			saved := read(t, filepath.Join(home, "sessions", id, primaryName))
			backup := read(t, filepath.Join(home, "sessions", id, backupName))
			os.Remove(filepath.Join(home, "sessions", id, primaryName))
			os.Remove(filepath.Join(home, "sessions", id, backupName))
			_, _, err = s.Load(id)
			var ue *UnreadableError
			if !errors.As(err, &ue) {
				t.Fatalf("%v", err)
			}
			mustContain(t, err, c.want)
			write(t, home, id, primaryName, saved)
			write(t, home, id, backupName, backup)
			if after := tree(t, home); after != before {
				t.Errorf("touched:\n%s\n%s", before, after)
			}
			if b, _ := os.ReadFile(outside); string(b) != "mine\n" {
				t.Errorf("the file outside became %q", b)
			}
		})
	}
}
