package sessions

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// practiceState is a two-minute 4-7-8 practice paused after its first
// breath's cues.
func practiceState(t *testing.T) (created, paused engine.State) {
	t.Helper()
	created, err := engine.NewState(id, engine.Options{Length: 2 * time.Minute, Seed: 3, Voice: "none", Soundscape: "none",
		Practice: engine.PracticeBreathe, Pattern: "4-7-8"}, at(0))
	if err != nil {
		t.Fatal(err)
	}
	paused = created.Clone()
	paused.Status, paused.SealedAt = engine.Paused, at(time.Second)
	paused.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
	paused.Phase = engine.Breathing
	rec := &paused.Phases[engine.Breathing]
	rec.Status = engine.PhaseActive
	for i, cue := range []string{"Breathe in…", "Hold…", "And breathe out…"} {
		paused.History = append(paused.History, engine.Entry{At: at(time.Duration(i+3) * time.Second), Phase: engine.Breathing, Role: engine.RoleGuide, Text: cue})
		rec.Spoken++
	}
	paused.Position = engine.Position{Phase: engine.Breathing, Sentence: rec.Spoken}
	paused.Elapsed, rec.Elapsed = 22*time.Second, 22*time.Second
	if err := paused.Validate(); err != nil {
		t.Fatal(err)
	}
	return created, paused
}

// A practice keeps what it is through a save, the list's header and a
// rebuild from its transcript alone: a two-minute length a guided session
// could not have, and its pattern.
func TestPracticeSurvivesEveryWayBack(t *testing.T) {
	s, home := openStore(t)
	created, paused := practiceState(t)
	spoke(t, s, created, paused)

	got, _, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, got, paused)
	list, problems := s.List()
	if len(problems) > 0 || len(list) != 1 {
		t.Fatalf("list %+v, problems %v", list, problems)
	}
	if in := list[0]; in.Practice != engine.PracticeBreathe || in.Pattern != "4-7-8" || in.Stage() != "breathe 4-7-8" {
		t.Errorf("listed as %q %q, stage %q", in.Practice, in.Pattern, in.Stage())
	}

	dir := filepath.Join(home, "sessions", id)
	for _, f := range []string{primaryName, backupName} {
		b := read(t, filepath.Join(dir, f))
		write(t, home, id, f, b[:len(b)/2])
	}
	rebuilt, report, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if !report.Rebuilt {
		t.Fatalf("not rebuilt: %+v", report)
	}
	if err := rebuilt.Validate(); err != nil {
		t.Fatal(err)
	}
	if rebuilt.Practice != engine.PracticeBreathe || rebuilt.Pattern != "4-7-8" || rebuilt.Length != 2*time.Minute ||
		rebuilt.Phase != engine.Breathing || rebuilt.Position.Sentence != 3 || rebuilt.Status != engine.Paused {
		t.Errorf("rebuilt as %q %q, %v, in %s at %d, %s", rebuilt.Practice, rebuilt.Pattern, rebuilt.Length, rebuilt.Phase, rebuilt.Position.Sentence, rebuilt.Status)
	}
}

// A guided session's stage is its phase.
func TestGuidedStageIsItsPhase(t *testing.T) {
	if got := (Info{Phase: engine.Sensory}).Stage(); got != "sensory" {
		t.Errorf("stage %q", got)
	}
}
