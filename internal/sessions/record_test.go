package sessions

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Whatever an entry says, its record reads back as written (on one line),
// and a marker inside the text cannot pass for the real one.
func TestRecordsRoundTrip(t *testing.T) {
	texts := []string{
		"Settle in.", "", "two\nlines\tand  spaces", `He said: "breathe" — #1`,
		"--> <!-- not a comment", "fake <!-- lull 9 guide sensory 2026-11-23T10:15:00.000Z 00000000 -->",
		"ends with --> ", "café ☾ \x00 nul", "> not a quote", "*You:* not the listener",
	}
	var data strings.Builder
	st := newState(t, id)
	st.Intention = "sleep\n--> \"well\" <!-- lull 0 session -->"
	st.Voice, st.Soundscape, st.Seed = "en+f3 <x>", "rain & wind", -42
	data.WriteString(opening(st))
	var want []engine.Entry
	for i, text := range texts {
		for _, role := range []engine.Role{engine.RoleGuide, engine.RoleSystem, engine.RoleUser} {
			e := engine.Entry{At: t0.Add(time.Duration(i) * time.Second), Phase: engine.Phases[i%5], Role: role, Text: text}
			data.WriteString("\n" + entryRecord(e, len(want)+1))
			e.Text, e.At = oneLine(text), e.At.Truncate(time.Millisecond)
			want = append(want, e)
		}
	}
	b := []byte(data.String())
	sc := scanTranscript(b, 0, int64(len(b)))
	if !sc.whole() || len(sc.records) != len(want)+1 {
		t.Fatalf("%d records, %d damaged (%s), %d out of order, %d torn\n%s", len(sc.records), sc.damaged, sc.damage, sc.disorder, sc.tail(), b)
	}
	open, _ := sc.opening()
	if open.ID != id || !open.Created.Equal(t0) || open.Length != 10*time.Minute || open.Seed != -42 ||
		open.Intention != st.Intention || open.Voice != st.Voice || open.Soundscape != st.Soundscape {
		t.Errorf("opening %+v", open)
	}
	for i, e := range sc.entries() {
		if w := want[i]; e.Text != w.Text || e.Role != w.Role || e.Phase != w.Phase || !e.At.Equal(w.At) {
			t.Errorf("entry %d: %+v, want %+v", i, e, w)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i := strings.LastIndex(line, markerOpen); i >= 0 && strings.Count(line[i:], "-->") != 1 {
			t.Errorf("a field ends the comment early: %s", line)
		}
	}
}

// Any change to a record's line is caught; one record's damage leaves the
// others good.
func TestDamagedRecords(t *testing.T) {
	b := transcriptOf(t, fullState(t, id))
	sc := scanTranscript(b, 0, int64(len(b)))
	good := len(sc.records)
	line := sc.records[3]
	start := bytes.LastIndexByte(b[:line.end-1], '\n') + 1
	for i := start; i < int(line.end)-1; i++ {
		damaged := bytes.Clone(b)
		damaged[i] ^= 0x04
		sc := scanTranscript(damaged, 0, int64(len(damaged)))
		if sc.damaged+sc.unmarked() != 1 || len(sc.records) != good-1 {
			t.Fatalf("a flip at %d (%q): %d good, %d damaged", i, damaged[start:line.end], len(sc.records), sc.damaged)
		}
		if sc.whole() {
			t.Fatalf("a flip at %d leaves the transcript whole", i)
		}
	}
	damaged := bytes.Clone(b)
	damaged[line.end-5] = 'x' // in the check itself
	sc = scanTranscript(damaged, 0, int64(len(damaged)))
	if sc.damaged != 1 || !strings.Contains(sc.damage, "line ") {
		t.Errorf("damage %d %q", sc.damaged, sc.damage)
	}
	t.Log(sc.damage)
}

// unmarked counts the lines the scan took for text without a marker.
func (sc *scan) unmarked() int {
	n := 0
	for _, l := range sc.lines {
		if !l.checked {
			n++
		}
	}
	return n
}

// transcriptOf is the transcript a session that spoke st's history
// leaves: written by a real Session.
func transcriptOf(t testing.TB, st engine.State) []byte {
	t.Helper()
	s, home := openStore(t)
	spoke(t, s, newState(t, st.ID), st)
	return read(t, filepath.Join(home, "sessions", st.ID, transcriptName))
}

// spoke creates a session and goes through states as the engine would:
// each state's new history entries are transcribed, then it is saved.
func spoke(t testing.TB, s *Store, states ...engine.State) {
	t.Helper()
	sess, err := s.Create(states[0])
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	said := len(states[0].History)
	for _, st := range states[1:] {
		for _, e := range st.History[min(said, len(st.History)):] {
			if err := sess.Transcribe(e); err != nil {
				t.Fatal(err)
			}
		}
		said = len(st.History)
		if err := sess.Save(st); err != nil {
			t.Fatal(err)
		}
	}
}

// A write cut anywhere leaves the records before it, and the next run
// cuts the torn rest off, says so, and numbers on.
func TestTornTranscriptIsCut(t *testing.T) {
	full := transcriptOf(t, fullState(t, id))
	whole := scanTranscript(full, 0, int64(len(full)))
	for cut := len(full) - 1; cut > len(full)-200; cut-- {
		s, home := openStore(t)
		spoke(t, s, newState(t, id), fullState(t, id))
		path := filepath.Join(home, "sessions", id, transcriptName)
		if err := os.Truncate(path, int64(cut)); err != nil {
			t.Fatal(err)
		}
		var goodEnd int64
		good := 0
		for _, r := range whole.records {
			if r.end <= int64(cut) {
				goodEnd, good = r.end, good+1
			}
		}
		_, report, err := s.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if torn := int64(cut) - goodEnd; torn > 0 && !hasNote(report, "ends in a torn record ("+itoa(torn)+" bytes)") {
			t.Fatalf("cut at %d: Load's notes %q", cut, report.Notes)
		}
		sess, err := s.Resume(id)
		if err != nil {
			t.Fatal(err)
		}
		if torn := int64(cut) - goodEnd; torn > 0 && !hasNote(sess.Report(), "transcript.md ended in a torn record; "+itoa(torn)+" bytes cut.") {
			t.Fatalf("cut at %d: Resume's notes %q", cut, sess.Report().Notes)
		}
		if err := sess.Transcribe(engine.Entry{At: t0, Phase: engine.Breathing, Role: engine.RoleGuide, Text: "Again."}); err != nil {
			t.Fatal(err)
		}
		sess.Close()
		b := read(t, path)
		sc := scanTranscript(b, 0, int64(len(b)))
		// The guide's lines session.yaml holds that the cut took are
		// written again on resuming (see reconcile), then the next one.
		var said []string
		for _, e := range sc.entries() {
			if e.Role == engine.RoleGuide {
				said = append(said, e.Text)
			}
		}
		want := append(saidOneLine(fullState(t, id)), "Again.")
		n := len(sc.records)
		if !bytes.HasPrefix(b, full[:goodEnd]) || !sc.whole() || n <= good || sc.records[n-1].seq != n-1 || !slices.Equal(said, want) {
			t.Fatalf("cut at %d: after the next record, %d records, whole %v:\n%s", cut, len(sc.records), sc.whole(), b)
		}
	}
}

func hasNote(r Report, part string) bool {
	for _, n := range r.Notes {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A transcript cut inside its opening, as a crash while creating leaves
// it, is written again whole.
func TestTornOpeningIsWrittenAgain(t *testing.T) {
	st := newState(t, id)
	full := opening(st)
	for _, cut := range []int{1, 10, strings.Index(full, "\n") + 1, strings.Index(full, "<!--"), len(full) - 1} {
		s, home := openStore(t)
		create(t, s, st)
		path := filepath.Join(home, "sessions", id, transcriptName)
		if err := os.WriteFile(path, []byte(full[:cut]), 0o600); err != nil {
			t.Fatal(err)
		}
		sess, err := s.Resume(id)
		if err != nil {
			t.Fatal(err)
		}
		sess.Close()
		if got := string(read(t, path)); got != full {
			t.Errorf("cut at %d: %q", cut, got)
		}
		if !hasNote(sess.Report(), "torn record") {
			t.Errorf("cut at %d: notes %q", cut, sess.Report().Notes)
		}
	}
}

// A transcript from before the markers is read, never cut, and carries on
// with checked records; it cannot be rebuilt from.
func TestLegacyTranscript(t *testing.T) {
	s, home := openStore(t)
	st := fullState(t, id)
	spoke(t, s, newState(t, id), st)
	legacy := "# lull · " + t0.Local().Format("2006-01-02 15:04") + " · 10 minutes\nIntention: sleep\n" +
		"\n## Atmosphere\n\nSettle in.\n\nThe room is quiet.\n\n## Breathing\n\nBreathe in.\n\n> the voice failed\n\nAnd out"
	path := filepath.Join(home, "sessions", id, transcriptName)
	if err := os.WriteFile(path, []byte(legacy), 0o600); err != nil {
		t.Fatal(err)
	}
	_, report, err := s.Load(id)
	if err != nil || len(report.Notes) != 0 {
		t.Fatalf("%v %q", err, report.Notes)
	}
	sess, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Report().Notes) != 0 {
		t.Errorf("notes %q", sess.Report().Notes)
	}
	if err := sess.Transcribe(engine.Entry{At: t0, Phase: engine.Breathing, Role: engine.RoleGuide, Text: "Slowly."}); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	b := read(t, path)
	if !strings.HasPrefix(string(b), legacy+"\n\nSlowly. <!-- lull 1 guide breathing ") {
		t.Errorf("after a record:\n%s", b)
	}
	sv, err := s.Salvage(id)
	if err != nil {
		t.Fatal(err)
	}
	tr := sv.Transcript
	if tr.Rebuildable || tr.Legacy || tr.Records != 1 || tr.Length != 10*time.Minute || tr.Intention != "sleep" ||
		tr.Shows() != "2 sentences of atmosphere (2 unchecked), 3 of breathing (2 unchecked)" {
		t.Errorf("salvage %+v: %s", tr, tr.Shows())
	}
}

// A tail far longer than a record is not a torn write: it is left alone.
func TestLongTailIsLeft(t *testing.T) {
	s, home := openStore(t)
	spoke(t, s, newState(t, id), fullState(t, id))
	path := filepath.Join(home, "sessions", id, transcriptName)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	tail := strings.Repeat("not lull's\n", maxTorn/10)
	f.WriteString(tail)
	f.Close()
	sess, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	sess.Close()
	if !hasNote(sess.Report(), "too many to be one torn record; they are left as they are") {
		t.Errorf("notes %q", sess.Report().Notes)
	}
	if b := read(t, path); !strings.HasSuffix(string(b), tail) {
		t.Error("the tail was cut")
	}
}
