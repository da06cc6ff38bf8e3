package cli

import (
	"errors"
	"time"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/sessions"
)

// The JSON of lull sessions list --json (sessionsFormat) and lull sessions
// show --json (sessionShowFormat). Field names stay as they are for
// scripts; times are RFC 3339, durations seconds, lengths minutes. Text a
// person wrote (an intention, a note) is as saved.
type (
	sessionsJSON struct {
		Format   string       `json:"format"`   // sessionsFormat
		Sessions []listedJSON `json:"sessions"` // resumable first, then the latest active
		Problems []string     `json:"problems"` // what could not be read, a sentence each
	}
	listedJSON struct {
		ID          string    `json:"id"`
		Status      string    `json:"status"`        // created, running, paused, interrupted, completed or abandoned
		Open        bool      `json:"open"`          // a lull plays it now
		PID         int       `json:"pid,omitempty"` // that lull's process
		LeftRunning bool      `json:"left_running"`  // saved running, but no lull has it: the one that did stopped
		Idle        string    `json:"idle,omitempty"`
		Partial     bool      `json:"partial"`                // completed before its end (summarized)
		Newer       int       `json:"newer_schema,omitempty"` // saved by a newer lull, in this schema version: listed, never opened
		Recovered   string    `json:"recovered,omitempty"`    // backup or transcript: read from there, its session.yaml being unsound
		Phase       string    `json:"phase"`
		Progress    float64   `json:"progress"` // 0 to 1
		Length      int       `json:"length_minutes"`
		Elapsed     float64   `json:"elapsed_seconds"`
		Rendered    float64   `json:"rendered_seconds,omitempty"` // of elapsed, written to a file by lull render: not practice
		Intention   string    `json:"intention"`
		ReplayOf    string    `json:"replay_of,omitempty"`
		Practice    string    `json:"practice,omitempty"` // breathe, for a breathing practice
		Pattern     string    `json:"pattern,omitempty"`  // its rhythm
		Sleep       bool      `json:"sleep"`
		Guide       string    `json:"guide"`
		Model       string    `json:"model,omitempty"`
		Voice       string    `json:"voice"`
		Soundscape  string    `json:"soundscape"`
		MoodBefore  int       `json:"mood_before,omitempty"` // 1 (low) to 5 (very good)
		MoodAfter   int       `json:"mood_after,omitempty"`
		Note        string    `json:"note,omitempty"`
		CreatedAt   time.Time `json:"created_at"`
		LastActive  time.Time `json:"last_active"`
	}
	sessionShowJSON struct {
		Format      string      `json:"format"`        // sessionShowFormat
		Open        bool        `json:"open"`          // a lull has it open now
		PID         int         `json:"pid,omitempty"` // that lull's process, when known
		LeftRunning bool        `json:"left_running"`
		Idle        string      `json:"idle,omitempty"` // inactive or stale, for an unfinished session
		Resumable   bool        `json:"resumable"`      // lull resume ID would take it up now
		Folder      string      `json:"folder"`
		Notes       []string    `json:"notes"`   // what reading it found: read from its backup, rebuilt, repaired
		Session     sessionJSON `json:"session"` // as lull sessions export --format json writes it (lull.session/1)
	}
)

// listSessionsJSON is lull sessions list --json.
func (c *cli) listSessionsJSON(env *environment) error {
	list, problems := env.app.List()
	out := sessionsJSON{Format: sessionsFormat, Sessions: []listedJSON{}, Problems: []string{}}
	now := time.Now()
	for _, s := range list {
		out.Sessions = append(out.Sessions, listed(s, now))
	}
	for _, p := range problems {
		out.Problems = append(out.Problems, human.Line(p.Error()))
	}
	return c.printJSON(out)
}

func listed(s app.Listed, now time.Time) listedJSON {
	l := listedJSON{ID: s.ID, Status: string(s.Status), Open: s.Open, PID: s.Holder, LeftRunning: s.LeftRunning(),
		Idle: s.Idle(now).String(), Partial: s.Partial, Newer: s.Newer,
		Phase: s.Phase.String(), Progress: s.Progress, Length: int(s.Length.Minutes()), Elapsed: s.Elapsed.Seconds(), Rendered: s.Rendered.Seconds(),
		Intention: s.Intention, ReplayOf: s.ReplayOf, Practice: s.Practice, Pattern: s.Pattern, Sleep: s.Sleep,
		Guide: s.Guide, Model: s.Model, Voice: s.Voice, Soundscape: s.Soundscape,
		MoodBefore: s.MoodBefore, MoodAfter: s.MoodAfter, Note: s.Note, CreatedAt: s.Created, LastActive: s.LastActive}
	switch {
	case s.Report.Rebuilt:
		l.Recovered = "transcript"
	case s.Report.FromBackup:
		l.Recovered = "backup"
	}
	return l
}

// showSessionJSON is lull sessions show --json.
func (c *cli) showSessionJSON(env *environment, id string) error {
	st, report, err := env.app.Store().Load(id)
	if unreadable := new(sessions.UnreadableError); errors.As(err, &unreadable) {
		return errors.New(unreadable.Explain())
	}
	if err != nil {
		return err
	}
	dir, _ := env.app.Store().Dir(id)
	pid, held, heldErr := env.app.Held(id)
	open := held || heldErr != nil // not knowing, say it is open
	out := sessionShowJSON{Format: sessionShowFormat, Open: open, PID: pid,
		LeftRunning: st.Status == engine.Running && !open, Resumable: st.Status.Resumable() && !open,
		Folder: dir, Notes: []string{}, Session: sessionDocument(st)}
	if !open {
		out.Idle = engine.Idleness(st.Status, st.UpdatedAt, time.Now()).String()
	}
	for _, n := range report.Notes {
		out.Notes = append(out.Notes, human.Line(n))
	}
	if heldErr != nil {
		out.Notes = append(out.Notes, human.Line(heldErr.Error()))
	}
	return c.printJSON(out)
}
