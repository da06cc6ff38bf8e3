package sessions

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	want := fullState(t, "20261123-101500-x7kq")
	b, err := encode(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decode(b, want.ID)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	sameState(t, got, want)
	again, _ := encode(got)
	if !bytes.Equal(b, again) {
		t.Errorf("encoding is not stable:\n%s\n---\n%s", b, again)
	}
}

func TestFileLayout(t *testing.T) {
	b, err := encode(fullState(t, "20261123-101500-x7kq"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{
		"version: 1\nid: 20261123-101500-x7kq\nstatus: paused\ncreated_at: 2026-11-23T10:15:00.123456789Z\n",
		"length_minutes: 10\nintention: sleep\n",
		"phase: breathing\nelapsed_seconds: 123.456\nposition: {phase: breathing, sentence: 4}\n",
		"mood_asked: true\nvolume: -3\nvoice_off: true\nvoice_rate: 0.85\nsoundscape_volume: -2\nphases:\n  - name: atmosphere\n    status: completed\n",
		"    budget: {sentences: 9, wind_down_at: 7, target_seconds: 72, rest_seconds: 2.5}\n",
		"    elapsed_seconds: 71.2\n",
		"summary:\n  duration_seconds: 123.456\n",
		"history:\n  - {at: \"2026-11-23T10:15:01.123456789Z\", phase: atmosphere, role: user, text: \"sleep\"}\n",
		`  - {at: "2026-11-23T10:15:06.123456789Z", phase: atmosphere, role: guide, text: "two\nlines"}` + "\n",
		"\nchecksum: sha256:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("session.yaml lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "sealed_at: 0001") || strings.Contains(text, "\n    completed_at: 0001") {
		t.Errorf("zero times are written:\n%s", text)
	}
}

// reseal gives a hostile body a valid checksum, so that what refuses it
// is the decoding, not the hash.
func reseal(t *testing.T, file []byte, edit func(string) string) []byte {
	t.Helper()
	body, err := unseal(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := edit(string(body))
	if edited == string(body) {
		t.Fatal("the edit changed nothing")
	}
	return seal([]byte(edited))
}

func TestStrictDecoding(t *testing.T) {
	const id = "20261123-101500-x7kq"
	good, err := encode(fullState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	replace := func(old, new string) func(string) string {
		return func(s string) string { return strings.Replace(s, old, new, 1) }
	}
	bomb := "lol0: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i, prev := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		next := string(rune('b' + i))
		bomb += "lol" + next + ": &" + next + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
	}
	cases := []struct {
		name string
		file []byte
		want string
	}{
		{"unknown key", reseal(t, good, replace("seed: 7\n", "seed: 7\ncolour: blue\n")), "unknown field colour"},
		{"second document", reseal(t, good, func(s string) string { return s + "---\nversion: 1\n" }), "more than one YAML document"},
		{"bad checksum", bytes.Replace(good, []byte("intention: sleep"), []byte("intention: sleeq"), 1), "checksum sha256:"},
		{"no checksum line", good[:bytes.LastIndex(good, []byte("checksum:"))], "not the checksum"},
		{"wrong version", reseal(t, good, replace("version: 1\n", "version: -3\n")), "schema version -3 is not one this lull knows"},
		{"no version", reseal(t, good, replace("version: 1\n", "")), "no schema version"},
		{"5 MiB", reseal(t, good, func(s string) string { return s + "# " + strings.Repeat("z", 5<<20) + "\n" }), "larger than 4 MiB"},
		{"NUL byte", reseal(t, good, replace("intention: sleep", "intention: sl\x00eep")), "control characters"},
		{"alias bomb", reseal(t, good, func(s string) string { return s + bomb }), "unknown field lol0"},
		{"alias bomb in a field", reseal(t, good, replace("intention: sleep\n", bomb+"intention: *i\n")), "unknown field lol0"},
		{"wrong type", reseal(t, good, replace("seed: 7\n", "seed: seven\n")), "cannot unmarshal !!str `seven` into int64"},
		{"invalid phase name", reseal(t, good, replace("phase: breathing\nelapsed", "phase: snoozing\nelapsed")), `unknown phase "snoozing"`},
		{"unknown role", reseal(t, good, replace("role: system", "role: narrator")), `unknown role "narrator"`},
		{"position out of range", reseal(t, good, replace("sentence: 4}", "sentence: 99}")), "position says sentence 99 of breathing"},
		{"phase status", reseal(t, good, replace("status: active", "status: sleeping")), `unknown status "sleeping"`},
		{"id not its folder", reseal(t, good, replace("id: "+id, "id: 20261123-101500-aaaa")), `its folder is "` + id + `"`},
		{"not a number", reseal(t, good, replace("elapsed_seconds: 123.456", "elapsed_seconds: .nan")), "elapsed_seconds is NaN"},
		{"negative seconds", reseal(t, good, replace("rest_seconds: 2.5", "rest_seconds: -1")), "rest_seconds is -1"},
		{"four phases", reseal(t, good, func(s string) string {
			i := strings.Index(s, "  - name: resolution")
			j := strings.Index(s, "history:")
			return s[:i] + s[j:]
		}), "phases lists 4 phases"},
		{"length that would overflow", reseal(t, good, replace("length_minutes: 10", "length_minutes: 2147483647")), "length_minutes 2147483647 is out of range"},
		{"length", reseal(t, good, replace("length_minutes: 10", "length_minutes: 7000000000000")), "length_minutes 7000000000000 is out of range"},
		{"not YAML", seal([]byte("version: 1\n\t: [\n")), "not valid YAML"},
		{"empty", nil, "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decode(c.file, id)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
			// Through the store too: a file on disk is refused the same way.
			// A first save leaves no backup to fall back on, so the session
			// is rebuilt from its transcript, and the note names the refusal.
			s, home := openStore(t)
			create(t, s, fullState(t, id))
			write(t, home, id, primaryName, c.file)
			_, report, err := s.Load(id)
			if err != nil || !report.Rebuilt {
				t.Fatalf("not rebuilt: %v %+v", err, report)
			}
			mustContain(t, errors.New(report.Notes[0]), "(session.yaml: ", c.want)
			// Without the transcript nothing is left, and the error says why.
			if err := os.Remove(filepath.Join(home, "sessions", id, transcriptName)); err != nil {
				t.Fatal(err)
			}
			_, _, err = s.Load(id)
			mustContain(t, err, "session.yaml: ", c.want, "there is no transcript to rebuild it from")
			t.Log(err)
		})
	}
}

// The checksum is what catches a cut at a line boundary: YAML alone would
// take the shorter history.
func TestLineCutStillParses(t *testing.T) {
	b, _ := encode(fullState(t, "20261123-101500-x7kq"))
	cut := b[:bytes.LastIndex(b, []byte("\n  - {at:"))+1]
	var d document
	if err := yaml.Unmarshal(cut, &d); err != nil {
		t.Fatalf("the cut file does not parse, so it shows nothing: %v", err)
	}
	if _, err := decode(cut, "20261123-101500-x7kq"); err == nil {
		t.Fatal("a file cut at a line boundary was accepted")
	}
}
