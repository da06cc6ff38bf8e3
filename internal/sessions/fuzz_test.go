package sessions

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// FuzzLoad feeds the loader what a disk could hold: a session.yaml, taken
// as it is and sealed with a good checksum (so the decoder, the schema and
// Validate see it, not just the hash), and a transcript, scanned and
// rebuilt from. Nothing may panic; what loads must save and load again as
// itself; what is rebuilt must hold together and save.
//
// make test runs it for a few seconds; by hand, for longer:
//
//	go test -run '^$' -fuzz '^FuzzLoad$' -fuzztime 10m ./sessions
func FuzzLoad(f *testing.F) {
	full := fullState(f, id)
	completed := fullState(f, id)
	completed.Status, completed.Phase = engine.Completed, engine.Resolution
	completed.Position = engine.Position{Phase: engine.Resolution, Sentence: 3}
	for i := range completed.Phases {
		completed.Phases[i].Status, completed.Phases[i].Spoken = engine.PhaseCompleted, 3
	}
	transcript := transcriptOf(f, full)
	for _, st := range []engine.State{newState(f, id), full, longState(f, id, 30), completed} {
		b, err := encode(st)
		if err != nil {
			f.Fatal(err)
		}
		body, _ := unseal(b)
		f.Add(b, transcript)
		f.Add(body, transcript[:len(transcript)/2])
	}
	good, _ := encode(full)
	body, _ := unseal(good)
	for _, hostile := range []string{
		"lol0: &a [x, x, x, x]\nlol1: &b [*a, *a, *a, *a]\nlol2: [*b, *b, *b, *b]\n",
		"intention: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n",
		"seed: 7\nseed: 8\n", "---\nversion: 1\n", "\x00\xff\xfe", "version: 1\nid: *x\n",
	} {
		f.Add(append(bytes.Clone(body), hostile...), []byte(hostile))
	}
	f.Add([]byte{}, []byte("# lull · 2026-11-23 10:15 · 10 minutes\nIntention: sleep\n\n## Breathing\n\nIn.\n"))
	f.Add([]byte("version: 1\n"), []byte(opening(full)+"\n"+entryRecord(full.History[3], 1)+strings.Repeat("x", 100)))

	f.Fuzz(func(t *testing.T, file, transcript []byte) {
		for _, b := range [][]byte{file, seal(file)} {
			st, err := decode(b, id)
			if errors.Is(err, errPanic) {
				t.Fatalf("decode panicked: %v", err)
			}
			if err == nil {
				resaves(t, st)
			}
		}
		sc := scanTranscript(transcript, 0, int64(len(transcript)))
		if sc.goodEnd < 0 || sc.goodEnd > int64(len(transcript)) || sc.tail() < 0 {
			t.Fatalf("good records end at %d of %d", sc.goodEnd, len(transcript))
		}
		for i, r := range sc.records {
			if i > 0 && r.end <= sc.records[i-1].end {
				t.Fatalf("record %d ends at %d, before the one before it", i, r.end)
			}
		}
		st, err := rebuildSafely(sc, id)
		if errors.Is(err, errPanic) {
			t.Fatalf("rebuild panicked: %v", err)
		}
		if err == nil {
			resaves(t, st)
			checks(st, sc, nil, false)
		}
	})
}

// resaves checks that st, loaded, saves to a file that loads as the same
// file again.
func resaves(t *testing.T, st engine.State) {
	t.Helper()
	b, err := encode(st)
	if err != nil {
		t.Fatalf("a session that loaded does not encode: %v", err)
	}
	again, err := decode(b, id)
	if err != nil {
		t.Fatalf("a session that loaded does not load once saved: %v\n%s", err, b)
	}
	if b2, _ := encode(again); !bytes.Equal(b, b2) {
		t.Fatalf("a session that loaded changes when saved twice:\n%s\n---\n%s", b, b2)
	}
}
