package app

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// recoverNow is the clock of these tests.
var recoverNow = time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC)

func recoverApp(t *testing.T) *App {
	t.Helper()
	a, err := New(Options{
		Paths:  Paths{Data: t.TempDir()},
		Config: Config{Length: 5, Voice: "none", Soundscape: "brown", Breathing: defaultConfig.Breathing},
		Now:    func() time.Time { return recoverNow },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// storeAs saves a session as a lull would have left it: in its breathing
// phase with six sentences spoken, in the given status, last active at
// when; a created one has not begun, a completed one ran to its end and
// completed at when.
func storeAs(t *testing.T, a *App, id string, status engine.Status, when time.Time) engine.State {
	t.Helper()
	st, err := engine.NewState(id, engine.Options{Length: 10 * time.Minute, Intention: "rest " + id, Seed: 3}, when.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := a.Store().Create(st)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	say := func(p engine.Phase, n int) {
		for i := range n {
			e := engine.Entry{At: when.Add(-time.Minute), Phase: p, Role: engine.RoleGuide, Text: fmt.Sprintf("%s line %d.", p.Title(), i+1)}
			st.History = append(st.History, e)
			if err := sess.Transcribe(e); err != nil {
				t.Fatal(err)
			}
		}
		st.Phases[p].Spoken = n
	}
	switch status {
	case engine.Created:
	case engine.Completed:
		for _, p := range engine.Phases {
			st.Phases[p].Status = engine.PhaseCompleted
			say(p, 3)
		}
		st.Phase, st.Position = engine.Resolution, engine.Position{Phase: engine.Resolution, Sentence: 3}
		st.Elapsed = 10 * time.Minute
		st.Summary = &engine.Summary{Duration: st.Elapsed, Sentences: 15, CompletedAt: when}
	default:
		st.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
		say(engine.Atmosphere, 4)
		st.Phases[engine.Breathing].Status = engine.PhaseActive
		say(engine.Breathing, 2)
		st.Phase, st.Position = engine.Breathing, engine.Position{Phase: engine.Breathing, Sentence: 2}
		st.Elapsed = 95 * time.Second
	}
	st.Status, st.UpdatedAt = status, when
	if err := sess.Save(st); err != nil {
		t.Fatal(err)
	}
	return st
}

// A session saved running whose lock is free was left by a lull that died;
// one this process has open is running here, and says whose it is.
func TestListTellsLeftRunningFromOpen(t *testing.T) {
	t.Parallel()
	a := recoverApp(t)
	storeAs(t, a, "left", engine.Running, recoverNow.Add(-time.Hour))
	storeAs(t, a, "open", engine.Running, recoverNow.Add(-time.Minute))
	storeAs(t, a, "paused", engine.Paused, recoverNow.Add(-30*time.Hour))
	held, err := a.Store().Resume("open")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()

	list, problems := a.List()
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	byID := map[string]Listed{}
	for _, l := range list {
		byID[l.ID] = l
	}
	if l := byID["left"]; !l.LeftRunning() || l.Open {
		t.Errorf("left: %+v", l)
	}
	if l := byID["open"]; l.LeftRunning() || !l.Open || l.Holder != os.Getpid() {
		t.Errorf("open: open=%v holder %d, want this process %d", l.Open, l.Holder, os.Getpid())
	}
	if l := byID["paused"]; l.LeftRunning() || l.Idle(recoverNow) != engine.Inactive {
		t.Errorf("paused a day and more: %v", l.Idle(recoverNow))
	}
	if pid, held, err := a.Held("left"); err != nil || held || pid != 0 {
		t.Errorf("Held(left) = %d, %v, %v", pid, held, err)
	}
}

func TestSummarizeAndDiscardSaveAndRefuseAnOpenSession(t *testing.T) {
	t.Parallel()
	a := recoverApp(t)
	left := storeAs(t, a, "left", engine.Running, recoverNow.Add(-time.Hour))
	storeAs(t, a, "gone", engine.Interrupted, recoverNow.Add(-time.Hour))
	storeAs(t, a, "open", engine.Paused, recoverNow.Add(-time.Hour))

	st, notes, err := a.Summarize("left")
	if err != nil {
		t.Fatal(err, notes)
	}
	saved, _, err := a.Store().Load("left")
	if err != nil {
		t.Fatal(err)
	}
	if saved.Status != engine.Completed || saved.Summary == nil || !saved.Summary.Partial ||
		saved.Summary.Sentences != 6 || saved.Summary.Duration != left.Elapsed || !saved.Summary.CompletedAt.Equal(recoverNow) {
		t.Errorf("saved %s, summary %+v", saved.Status, saved.Summary)
	}
	if !slices.Equal(saved.Said(), left.Said()) || st.Status != engine.Completed {
		t.Error("what was spoken was not kept")
	}
	if _, _, err := a.Summarize("left"); !errors.As(err, new(*engine.TransitionError)) {
		t.Errorf("summarizing twice: %v", err)
	}

	if _, _, err := a.Discard("gone"); err != nil {
		t.Fatal(err)
	}
	if saved, _, _ := a.Store().Load("gone"); saved.Status != engine.Abandoned || len(saved.Said()) != 6 {
		t.Errorf("discarded: %s with %d sentences", saved.Status, len(saved.Said()))
	}

	held, err := a.Store().Resume("open")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	for name, end := range map[string]func(string) (engine.State, []string, error){"summarize": a.Summarize, "discard": a.Discard} {
		var lerr *sessions.LockedError
		if _, _, err := end("open"); !errors.As(err, &lerr) || lerr.PID != os.Getpid() {
			t.Errorf("%s of a session open elsewhere: %v", name, err)
		}
	}
	if saved, _, _ := a.Store().Load("open"); saved.Status != engine.Paused {
		t.Errorf("the open session became %s", saved.Status)
	}
}

func TestCleanUpOnlyStaleSessions(t *testing.T) {
	t.Parallel()
	a := recoverApp(t)
	storeAs(t, a, "stale", engine.Paused, recoverNow.Add(-9*24*time.Hour))
	storeAs(t, a, "recent", engine.Paused, recoverNow.Add(-3*24*time.Hour))
	if _, _, err := a.CleanUp("stale"); err != nil {
		t.Fatal(err)
	}
	st, _, _ := a.Store().Load("stale")
	if last := st.History[len(st.History)-1]; st.Status != engine.Abandoned || !strings.Contains(last.Text, "Cleaned up") {
		t.Errorf("stale: %s, last note %q", st.Status, last.Text)
	}
	if _, _, err := a.CleanUp("recent"); err == nil || !strings.Contains(err.Error(), "not stale") {
		t.Errorf("cleaning up a recent session: %v", err)
	}
	if st, _, _ := a.Store().Load("recent"); st.Status != engine.Paused {
		t.Errorf("recent became %s", st.Status)
	}
}

// Unfinished sessions age from their last activity, completed ones from
// when they completed, abandoned ones from their last save; an open one is
// never pruned.
func TestPrunableAges(t *testing.T) {
	t.Parallel()
	a := recoverApp(t)
	day := 24 * time.Hour
	storeAs(t, a, "paused-old", engine.Paused, recoverNow.Add(-40*day))
	storeAs(t, a, "paused-new", engine.Paused, recoverNow.Add(-10*day))
	storeAs(t, a, "created-old", engine.Created, recoverNow.Add(-60*day))
	storeAs(t, a, "abandoned-old", engine.Abandoned, recoverNow.Add(-31*day))
	storeAs(t, a, "completed-new", engine.Completed, recoverNow.Add(-5*day))
	// Completed long ago, saved again since: its completion counts.
	late := storeAs(t, a, "completed-old", engine.Completed, recoverNow.Add(-45*day))
	sess, err := a.Store().Resume("completed-old")
	if err != nil {
		t.Fatal(err)
	}
	late.UpdatedAt = recoverNow.Add(-2 * day)
	late.Note = "slept well"
	if err := sess.Save(late); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	storeAs(t, a, "open-old", engine.Paused, recoverNow.Add(-50*day))
	held, err := a.Store().Resume("open-old")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	storeAs(t, a, "running-open", engine.Running, recoverNow.Add(-50*day))
	running, err := a.Store().Resume("running-open")
	if err != nil {
		t.Fatal(err)
	}
	defer running.Close()

	list, problems := a.Prunable(30 * day)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	var ids []string
	for _, p := range list {
		ids = append(ids, p.ID)
	}
	want := []string{"created-old", "completed-old", "paused-old", "abandoned-old"} // oldest first
	if !slices.Equal(ids, want) {
		t.Errorf("prunable %v\n want %v", ids, want)
	}
}
