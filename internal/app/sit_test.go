package app

import (
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// A sit through the app: no voice, the config's soundscape, open-ended
// when it has no length; closed, it is saved paused; resumed in another
// run and ended, it is completed on disk and counts as practice.
func TestSitSavedResumedEndedCounted(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	r, err := a.Start(engine.Options{Practice: engine.PracticeSit, Pattern: "1m"})
	if err != nil {
		t.Fatal(err)
	}
	st := r.Snapshot()
	if st.Length != 0 || st.Voice != "none" || st.Soundscape != "brown" {
		t.Errorf("the sit began with length %v, voice %q, soundscape %q", st.Length, st.Voice, st.Soundscape)
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.Progress().Elapsed < 2*time.Minute && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	paused, _, err := a.Store().Load(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if paused.Status != engine.Paused || paused.Elapsed < 2*time.Minute || paused.Practice != engine.PracticeSit || paused.Pattern != "1m" {
		t.Fatalf("closed: saved %s at %v (%q %q)", paused.Status, paused.Elapsed, paused.Practice, paused.Pattern)
	}

	again, err := a.Resume(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for again.Progress().Elapsed <= paused.Elapsed && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	if err := again.End(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-again.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the sit did not end")
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	done, _, err := a.Store().Load(st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if done.Status != engine.Completed || done.Elapsed <= paused.Elapsed || done.Summary == nil || len(done.Runs) != 2 || done.Guide != engine.GuideBuiltin {
		t.Errorf("ended: %s at %v (paused at %v), summary %+v, %d runs", done.Status, done.Elapsed, paused.Elapsed, done.Summary, len(done.Runs))
	}
	report, problems := a.Practice(time.Now())
	if len(problems) > 0 || report.Total.Sessions != 1 || report.Total.Played != done.Elapsed {
		t.Errorf("practice: %+v, %v; want the sit's %v", report.Total, problems, done.Elapsed)
	}
}
