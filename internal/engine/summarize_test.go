package engine

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// leftAs runs a real session with fakes and returns the last state it
// saved, left in the given status: running (the process died mid-sentence),
// paused (quit), interrupted (the guide failed for good), or created,
// completed, abandoned.
func leftAs(t *testing.T, status Status) State {
	t.Helper()
	store := &memStore{}
	spk := newFakeSpeaker()
	g := &scriptGuide{}
	if status == Interrupted {
		g.failFrom = 5
	}
	st := newSession(t, 10, "sleep")
	if status == Created {
		return st
	}
	e := newEngine(t, st, g, spk, store)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	spk.onPlay = func(l Line, n int) {
		if l.Phase != Sensory || l.Index != 2 {
			return
		}
		switch status {
		case Running:
			cancel() // the process dies: no pause, no goodbye
		case Paused:
			if err := e.Pause(); err != nil {
				t.Error(err)
			}
			cancel()
		case Abandoned:
			if err := e.Abandon(); err != nil {
				t.Error(err)
			}
		}
	}
	_ = e.Run(ctx)
	got := store.last()
	if got.Status != status {
		t.Fatalf("the session was left %s, want %s", got.Status, status)
	}
	return got
}

func TestSummarizeKeepsWhatWasSpoken(t *testing.T) {
	now := epoch.Add(3 * time.Hour)
	for _, from := range []Status{Running, Paused, Interrupted} {
		t.Run(string(from), func(t *testing.T) {
			st := leftAs(t, from)
			st.Phases[st.Phase].Tokens = Tokens{In: 1200, Out: 90}
			st.Cost = 0.004
			st.MoodBefore = 2 // given before the session began
			before := st.Clone()

			if err := st.Summarize(now); err != nil {
				t.Fatalf("Summarize: %v", err)
			}
			if st.Status != Completed || !st.UpdatedAt.Equal(now) {
				t.Errorf("status %s updated %v", st.Status, st.UpdatedAt)
			}
			want := Summary{Duration: before.Elapsed, Sentences: before.Spoken(), Dropped: before.Dropped(), Partial: true,
				Tokens: Tokens{In: 1200, Out: 90}, Cost: 0.004, CompletedAt: now}
			if st.Summary == nil || *st.Summary != want {
				t.Errorf("summary %+v\n want %+v", st.Summary, want)
			}
			if st.MoodBefore != 2 {
				t.Errorf("the mood given before was lost: %d", st.MoodBefore)
			}
			if want.Sentences == 0 || want.Duration == 0 {
				t.Error("nothing had been spoken: the test proves little")
			}
			if st.Phases != before.Phases || st.Phase != before.Phase || st.Position != before.Position {
				t.Error("summarizing changed the phases: what was done is kept as it was")
			}
			if !reflect.DeepEqual(st.Said(), before.Said()) {
				t.Error("summarizing changed what was said")
			}
			note := st.History[len(st.History)-1]
			if note.Role != RoleSystem || !strings.Contains(note.Text, "partial") || !note.At.Equal(now) {
				t.Errorf("history ends with %+v", note)
			}
			if from == Running && !strings.Contains(note.Text, "left running when lull stopped") {
				t.Errorf("the note does not say it was left running: %q", note.Text)
			}
			if err := st.Validate(); err != nil {
				t.Errorf("a summarized session does not validate: %v", err)
			}
			// It loads, and it is over.
			e := newEngine(t, st, &scriptGuide{}, newFakeSpeaker(), nil)
			if err := e.Run(context.Background()); !errors.As(err, new(*TransitionError)) {
				t.Errorf("running a summarized session: %v", err)
			}
			if want := float64(st.Elapsed) / float64(st.Length); st.Progress() != want || want >= 1 {
				t.Errorf("progress %v, want %v: how far it came", st.Progress(), want)
			}
		})
	}
}

func TestSummarizeRefusesWhatCannotEnd(t *testing.T) {
	for _, from := range []Status{Created, Completed, Abandoned} {
		st := leftAs(t, from)
		before := st.Clone()
		var terr *TransitionError
		if err := st.Summarize(epoch.Add(time.Hour)); !errors.As(err, &terr) || terr.From != from || terr.To != Completed {
			t.Errorf("summarizing a %s session: %v", from, err)
		}
		if !reflect.DeepEqual(st, before) {
			t.Errorf("a refused summary changed the %s session", from)
		}
	}
}

func TestAbandonStoredSession(t *testing.T) {
	now := epoch.Add(8 * 24 * time.Hour)
	for _, from := range []Status{Created, Running, Paused, Interrupted} {
		st := leftAs(t, from)
		if err := st.Abandon(now, ""); err != nil {
			t.Fatalf("discarding a %s session: %v", from, err)
		}
		// An abandoned session gets a summary like any other ended one.
		if st.Status != Abandoned || !st.UpdatedAt.Equal(now) || st.Summary == nil || !st.Summary.Partial ||
			st.Summary.Sentences != st.Spoken() || st.Summary.Duration != st.Elapsed || !st.Summary.CompletedAt.Equal(now) {
			t.Errorf("from %s: %s, updated %v, summary %+v", from, st.Status, st.UpdatedAt, st.Summary)
		}
		if note := st.History[len(st.History)-1]; note.Role != RoleSystem || !strings.Contains(note.Text, "Discarded") {
			t.Errorf("from %s the history ends with %+v", from, note)
		}
		if err := st.Validate(); err != nil {
			t.Errorf("a session discarded from %s does not validate: %v", from, err)
		}
	}
	st := leftAs(t, Paused)
	if err := st.Abandon(now, "Cleaned up after 8 days without activity."); err != nil {
		t.Fatal(err)
	}
	if note := st.History[len(st.History)-1]; note.Text != "Cleaned up after 8 days without activity." {
		t.Errorf("the reason was not kept: %q", note.Text)
	}
	for _, from := range []Status{Completed, Abandoned} {
		st := leftAs(t, from)
		if err := st.Abandon(now, ""); !errors.As(err, new(*TransitionError)) {
			t.Errorf("discarding a %s session: %v", from, err)
		}
	}
}

// validMid is a session in its sensory phase, three sentences in.
func validMid(t *testing.T, status Status) State {
	st := newSession(t, 10, "")
	st.Status = status
	st.Phase = Sensory
	st.Position = Position{Phase: Sensory, Sentence: 3}
	st.Phases[Atmosphere].Status, st.Phases[Atmosphere].Spoken = PhaseCompleted, 4
	st.Phases[Breathing].Status, st.Phases[Breathing].Spoken = PhaseCompleted, 6
	st.Phases[Sensory].Status, st.Phases[Sensory].Spoken = PhaseActive, 3
	st.Elapsed = 4 * time.Minute
	return st
}

// validDone is a session that ran to its end.
func validDone(t *testing.T) State {
	st := newSession(t, 10, "")
	st.Status = Completed
	st.Phase = Resolution
	st.Position = Position{Phase: Resolution, Sentence: 4}
	for i := range st.Phases {
		st.Phases[i].Status, st.Phases[i].Spoken = PhaseCompleted, 4
	}
	st.Summary = &Summary{Sentences: 20}
	return st
}

func TestValidateStatusAgainstPhases(t *testing.T) {
	for _, c := range []struct {
		name  string
		state func(t *testing.T) State
		want  string // a part of the error; "" when it must validate
	}{
		{"created", func(t *testing.T) State { return newSession(t, 10, "") }, ""},
		{"created with its first phase begun", func(t *testing.T) State {
			st := newSession(t, 10, "")
			st.Phases[Atmosphere].Status = PhaseActive
			return st
		}, "created session has its first phase active"},
		{"created with a sentence withheld", func(t *testing.T) State {
			st := newSession(t, 10, "")
			st.Phases[Atmosphere].Dropped = 1
			return st
		}, "created session has spoken 0 sentences and withheld 1"},
		{"created with a sentence spoken", func(t *testing.T) State {
			st := newSession(t, 10, "")
			st.Phases[Atmosphere].Spoken, st.Position.Sentence = 1, 1
			return st
		}, "created session has spoken 1"},

		{"running mid-phase", func(t *testing.T) State { return validMid(t, Running) }, ""},
		{"paused mid-phase", func(t *testing.T) State { return validMid(t, Paused) }, ""},
		{"interrupted mid-phase", func(t *testing.T) State { return validMid(t, Interrupted) }, ""},
		{"abandoned mid-phase", func(t *testing.T) State { return validMid(t, Abandoned) }, ""},
		{"abandoned before it began", func(t *testing.T) State {
			st := newSession(t, 10, "")
			st.Status = Abandoned
			return st
		}, ""},
		{"paused before its first phase began", func(t *testing.T) State {
			st := newSession(t, 10, "")
			st.Status = Paused
			return st
		}, ""},
		{"running with its first phase begun, nothing yet said", func(t *testing.T) State {
			st := newSession(t, 10, "")
			st.Status = Running
			st.Phases[Atmosphere].Status = PhaseActive
			return st
		}, ""},
		{"paused with its current phase completed", func(t *testing.T) State {
			st := validMid(t, Paused)
			st.Phases[Sensory].Status = PhaseCompleted
			return st
		}, "paused session has already completed its current phase, sensory"},
		{"abandoned with its resolution completed", func(t *testing.T) State {
			st := validDone(t)
			st.Status, st.Summary = Abandoned, nil
			return st
		}, "abandoned session has already completed its current phase, resolution"},
		{"running in a phase that has not begun", func(t *testing.T) State {
			st := validMid(t, Running)
			st.Phases[Sensory].Status, st.Phases[Sensory].Spoken, st.Position.Sentence = PhasePending, 0, 0
			return st
		}, "running session with 10 sentences spoken has not begun its current phase, sensory"},
		{"interrupted with words but no phase begun", func(t *testing.T) State {
			st := newSession(t, 10, "")
			st.Status = Interrupted
			st.Phases[Atmosphere].Spoken, st.Position.Sentence = 2, 2
			return st
		}, "has not begun its current phase, atmosphere"},

		{"completed", validDone, ""},
		{"completed without a summary", func(t *testing.T) State {
			st := validDone(t)
			st.Summary = nil
			return st
		}, ""},
		{"completed mid-phase", func(t *testing.T) State {
			st := validMid(t, Completed)
			st.Summary = &Summary{Sentences: 13}
			return st
		}, "completed session must have completed its resolution"},
		{"completed with its resolution still active", func(t *testing.T) State {
			st := validDone(t)
			st.Phases[Resolution].Status = PhaseActive
			return st
		}, "completed session must have completed its resolution (it is in resolution, active)"},
		{"completed as partial mid-phase", func(t *testing.T) State {
			st := validMid(t, Completed)
			st.Summary = &Summary{Sentences: 13, Partial: true}
			return st
		}, ""},
		{"completed as partial after every phase", func(t *testing.T) State {
			st := validDone(t)
			st.Summary.Partial = true
			return st
		}, ""},
		{"completed as partial with a phase out of order", func(t *testing.T) State {
			st := validMid(t, Completed)
			st.Summary = &Summary{Partial: true}
			st.Phases[Relaxation].Status = PhaseCompleted
			return st
		}, "relaxation is completed but the session is only in sensory"},
		{"a phase completed after one not started", func(t *testing.T) State {
			st := newSession(t, 10, "")
			st.Phases[Sensory].Status = PhaseCompleted
			return st
		}, "sensory is completed after a phase that has not started"},
		{"unknown status", func(t *testing.T) State {
			st := validMid(t, "sleeping")
			return st
		}, `unknown status "sleeping"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := c.state(t)
			err := st.Validate()
			switch {
			case c.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case c.want != "" && err == nil:
				t.Errorf("accepted; want an error with %q", c.want)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Errorf("error %q, want %q", err, c.want)
			}
		})
	}
}

func TestIdleness(t *testing.T) {
	now := epoch
	for _, c := range []struct {
		status Status
		waited time.Duration
		want   Idle
	}{
		{Paused, time.Hour, NotIdle},
		{Paused, 24 * time.Hour, NotIdle},
		{Paused, 25 * time.Hour, Inactive},
		{Interrupted, 3 * 24 * time.Hour, Inactive},
		{Paused, 7 * 24 * time.Hour, Inactive},
		{Paused, 7*24*time.Hour + time.Minute, Stale},
		{Running, 8 * 24 * time.Hour, Stale},
		{Created, 30 * 24 * time.Hour, Stale},
		{Completed, 30 * 24 * time.Hour, NotIdle},
		{Abandoned, 30 * 24 * time.Hour, NotIdle},
		{Paused, -time.Hour, NotIdle}, // a clock set back
	} {
		if got := Idleness(c.status, now.Add(-c.waited), now); got != c.want {
			t.Errorf("%s for %v: %q, want %q", c.status, c.waited, got, c.want)
		}
	}
}
