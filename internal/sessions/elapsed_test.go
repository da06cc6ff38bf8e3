package sessions

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// A session rebuilt from its transcript estimates its time from what was
// said; the estimate never passes the session's length ("6:14 of 5:00"),
// and the phases' times add up to the session's.
func TestRebuiltTimeNeverPassesTheLength(t *testing.T) {
	s, home := openStore(t)
	created := t0
	st, err := engine.NewState(NewID(created), engine.Options{Length: 5 * time.Minute, Seed: 7}, created)
	if err != nil {
		t.Fatal(err)
	}
	id := st.ID
	full := st.Clone()
	full.Status, full.SealedAt = engine.Paused, created
	full.Phases[engine.Atmosphere].Status, full.Phases[engine.Atmosphere].StartedAt = engine.PhaseActive, created
	// Forty long sentences in each of three phases: each phase's estimate
	// alone is within the length, their sum is not.
	for p := engine.Atmosphere; p <= engine.Sensory; p++ {
		r := &full.Phases[p]
		if p > engine.Atmosphere {
			full.Phases[p-1].Status, full.Phases[p-1].CompletedAt = engine.PhaseCompleted, created
			r.Status, r.StartedAt = engine.PhaseActive, created
		}
		for i := range 40 {
			full.History = append(full.History, engine.Entry{At: created.Add(time.Duration(int(p)*40+i+1) * time.Second), Phase: p, Role: engine.RoleGuide,
				Text: fmt.Sprintf("Let your breath settle, slow and easy, as the evening light fades, line %d.", i)})
		}
		r.Spoken, r.Elapsed = 40, time.Minute
	}
	full.Phase = engine.Sensory
	full.Position = engine.Position{Phase: engine.Sensory, Sentence: 40}
	full.Elapsed = 3 * time.Minute
	spoke(t, s, st, full)
	for _, f := range []string{primaryName, backupName} {
		b := read(t, filepath.Join(home, "sessions", id, f))
		write(t, home, id, f, b[:len(b)/2])
	}
	got, report, err := s.Load(id)
	if err != nil || !report.Rebuilt {
		t.Fatalf("not rebuilt: %v %+v", err, report)
	}
	var sum time.Duration
	for _, r := range got.Phases {
		sum += r.Elapsed
	}
	if got.Elapsed > got.Length || sum != got.Elapsed || got.Elapsed <= 0 {
		t.Errorf("rebuilt %v of %v (phases %v)", got.Elapsed, got.Length, sum)
	}
}

// After failed saves (a full disk: the transcript went on, session.yaml
// stayed where it was) the lines kept as spoken add estimated time; with
// the session near its end, that estimate never passes the length either.
func TestTimeAfterFailedSavesNeverPassesTheLength(t *testing.T) {
	s, _ := openStore(t)
	stuck := fullState(t, id) // paused in breathing
	stuck.Elapsed = stuck.Length - 20*time.Second
	for p := range stuck.Phases {
		stuck.Phases[p].Elapsed = 0
	}
	// Most of it before breathing: each phase's estimate is within the
	// length alone, their sum is not.
	stuck.Phases[engine.Atmosphere].Elapsed = stuck.Elapsed - 10*time.Second
	stuck.Phases[engine.Breathing].Elapsed = 10 * time.Second
	spoke(t, s, newState(t, id), stuck)
	var texts []string
	for i := range 30 {
		texts = append(texts, fmt.Sprintf("Let every part of the body rest now, slowly and softly, breath by breath, line %d.", i))
	}
	_, more := spokenOn(stuck, engine.Breathing, texts...)
	sess := savesFailed(t, s, id, more)
	defer sess.Close()
	got := sess.State()
	var sum time.Duration
	for _, r := range got.Phases {
		sum += r.Elapsed
	}
	if got.Elapsed > got.Length || sum != got.Elapsed || got.Elapsed < stuck.Elapsed {
		t.Errorf("after failed saves: %v of %v (phases %v; saved %v)", got.Elapsed, got.Length, sum, stuck.Elapsed)
	}
}
