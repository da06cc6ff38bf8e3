package sessions

import (
	"path/filepath"
	"testing"
	"time"

	"lull/engine"
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

	want := "# lull · " + t0.Local().Format("2006-01-02 15:04") + " · 10 minutes\n" +
		"Intention: sleep\n" +
		"\n## Atmosphere\n\nSettle in.\n\nThe room is quiet.\n" +
		"\n## Breathing\n\nBreathe in, slowly.\n\nAnd out.\n\n> resumed\n" +
		"\n## Sensory\n\nNotice the air.\n"
	if got := string(read(t, filepath.Join(home, "sessions", id, transcriptName))); got != want {
		t.Errorf("transcript.md:\n%s\nwant:\n%s", got, want)
	}
}

func TestTranscriptWithoutIntention(t *testing.T) {
	s, home := openStore(t)
	st, err := engine.NewState(id, engine.Options{Length: 5 * time.Minute}, t0)
	if err != nil {
		t.Fatal(err)
	}
	create(t, s, st)
	want := "# lull · " + t0.Local().Format("2006-01-02 15:04") + " · 5 minutes\n"
	if got := string(read(t, filepath.Join(home, "sessions", id, transcriptName))); got != want {
		t.Errorf("transcript.md: %q, want %q", got, want)
	}
}
