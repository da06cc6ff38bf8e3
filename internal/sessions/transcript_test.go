package sessions

import (
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Each phase gets one heading, also across a Close and a Resume.
func TestTranscriptHeadings(t *testing.T) {
	s, home := openStore(t)
	st := newState(t, id)
	sess, err := s.Create(st)
	if err != nil {
		t.Fatal(err)
	}
	spoken := func(sess *Session, p engine.Phase, text string) {
		t.Helper()
		e := engine.Entry{At: t0, Phase: p, Role: engine.RoleGuide, Text: text}
		if err := sess.Transcribe(e); err != nil {
			t.Fatal(err)
		}
		st.History = append(st.History, e)
	}
	spoken(sess, engine.Atmosphere, "Settle in.")
	spoken(sess, engine.Atmosphere, "The room is quiet.")
	spoken(sess, engine.Breathing, "Breathe in,\nslowly.")
	// The checkpoint that goes with them, so Resume knows where it stopped.
	st.Status, st.Phase = engine.Paused, engine.Breathing
	st.Phases[0].Status, st.Phases[0].Spoken = engine.PhaseCompleted, 2
	st.Phases[1].Status, st.Phases[1].Spoken = engine.PhaseActive, 1
	st.Position = engine.Position{Phase: engine.Breathing, Sentence: 1}
	if err := sess.Save(st); err != nil {
		t.Fatal(err)
	}
	sess.Close()

	sess, err = s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	spoken(sess, engine.Breathing, "And out.")
	if err := sess.Transcribe(engine.Entry{At: t0, Phase: engine.Breathing, Role: engine.RoleSystem, Text: "resumed"}); err != nil {
		t.Fatal(err)
	}
	spoken(sess, engine.Sensory, "Notice the air.")
	sess.Close()

	got := string(read(t, filepath.Join(home, "sessions", id, transcriptName)))
	want := "# lull · " + t0.Local().Format("2006-01-02 15:04") + " · 10 minutes\n" +
		"Intention: sleep\n" +
		"\n## Atmosphere\n\nSettle in.\n\nThe room is quiet.\n" +
		"\n## Breathing\n\nBreathe in, slowly.\n\nAnd out.\n\n> resumed\n" +
		"\n## Sensory\n\nNotice the air.\n"
	if plain := unmark(got); plain != want {
		t.Errorf("transcript.md without its markers:\n%s\nwant:\n%s", plain, want)
	}
	// Each record is numbered in order and its check holds.
	sc := scanTranscript([]byte(got), 0, int64(len(got)))
	if len(sc.records) != 7 || sc.damaged != 0 || sc.disorder != 0 || sc.tail() != 0 || !sc.whole() {
		t.Fatalf("scan: %d records, %d damaged, %d out of order, %d torn\n%s", len(sc.records), sc.damaged, sc.disorder, sc.tail(), got)
	}
	for i, r := range sc.records {
		if r.seq != i {
			t.Errorf("record %d is numbered %d", i, r.seq)
		}
	}
	if e := sc.records[3].entry; e.Text != "Breathe in, slowly." || e.Phase != engine.Breathing || e.Role != engine.RoleGuide || !e.At.Equal(t0.Truncate(time.Millisecond)) {
		t.Errorf("record 3 is %+v", e)
	}
	if e := sc.records[5].entry; e.Text != "resumed" || e.Role != engine.RoleSystem {
		t.Errorf("record 5 is %+v", e)
	}
	t.Log("\n" + got)
}

// unmark is a transcript as people see it rendered: without the markers.
func unmark(s string) string {
	return regexp.MustCompile(` <!-- lull [^\n]* -->\n`).ReplaceAllString(s, "\n")
}

func TestTranscriptWithoutIntention(t *testing.T) {
	s, home := openStore(t)
	st, err := engine.NewState(id, engine.Options{Length: 5 * time.Minute}, t0)
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, st)
	got := string(read(t, filepath.Join(home, "sessions", id, transcriptName)))
	want := "# lull · " + t0.Local().Format("2006-01-02 15:04") + " · 5 minutes\n"
	if unmark(got) != want {
		t.Errorf("transcript.md: %q, want %q", got, want)
	}
	sc := scanTranscript([]byte(got), 0, int64(len(got)))
	open, ok := sc.opening()
	if !ok || open.ID != id || !open.Created.Equal(t0) || open.Length != 5*time.Minute || open.Intention != "" {
		t.Errorf("opening %+v %v in %q", open, ok, got)
	}
}
