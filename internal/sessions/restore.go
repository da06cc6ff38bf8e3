package sessions

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Restore begins an unreadable session again at the start of phase at:
// the last recovery level, for when Load fails with an *UnreadableError
// and the listener, shown what Salvage found, has chosen where to go on.
//
// The phases before at are completed with the lines the transcript shows
// for them (checked or not), which become the history; at is begun again
// with nothing spoken, the phases after it are pending, and the session is
// paused there.
// The length, intention and creation time come from the transcript when
// it says them; length is used only when it does not (Salvage's
// Transcript.Length is zero then) and must then be a valid length.
//
// Restore locks the session like Resume and writes a new session.yaml in
// place of the unreadable one (the unreadable backup is replaced at the
// next save); the transcript is kept, its torn end cut, and a note of the
// restore appended. A session that loads is refused (resume it instead),
// and so is one refused for its permissions (fixing them is better).
func (s *Store) Restore(id string, at engine.Phase, length time.Duration) (*Session, error) {
	if !at.Valid() {
		return nil, fmt.Errorf("restoring session %s: phase %d is not a phase", id, int(at))
	}
	dir, err := s.openFolder(id)
	if err != nil {
		return nil, err
	}
	sess := &Session{id: id, folder: filepath.Join(s.path, id), dir: dir}
	if err := s.restore(sess, at, length, time.Now()); err != nil {
		sess.Close()
		return nil, err
	}
	return sess, nil
}

func (s *Store) restore(sess *Session, at engine.Phase, length time.Duration, now time.Time) error {
	var err error
	if sess.lock, err = lock(sess.dir, sess.id); err != nil {
		return err
	}
	_, err = loadAs(sess.dir, sess.id, sess.folder, true)
	var ue *UnreadableError
	switch {
	case err == nil:
		return fmt.Errorf("session %s can be read: resume it instead of restoring it", sess.id)
	case !errors.As(err, &ue):
		return err
	case ue.untrusted() != nil:
		return fmt.Errorf("session %s is refused for its permissions, not lost: fix them rather than restore it (%v)", sess.id, ue.untrusted())
	}
	found := ue.Found.Transcript
	if found.Length != 0 {
		length = found.Length
	} else if err := engine.CheckLength(length); err != nil {
		return fmt.Errorf("restoring session %s: the transcript does not say how long it was, so give a length: %w", sess.id, err)
	}
	created := found.Created
	if created.IsZero() {
		created = now
	}
	var lines []transcriptLine
	if tr, err := readScan(sess.dir, sess.folder); err == nil {
		lines = tr.lines
	}
	opts := engine.Options{Length: length, Intention: engine.KeptIntention(found.Intention), Sleep: found.Sleep, SleepTail: found.SleepTail}
	st, err := restartAt(sess.id, opts, created, now, lines, at)
	if err != nil {
		return fmt.Errorf("restoring session %s: %w", sess.id, err)
	}
	note := engine.Entry{At: now, Phase: at, Role: engine.RoleSystem,
		Text: fmt.Sprintf("Restored at the start of %s: %s and its backup could not be read, nor the session rebuilt from its transcript.", at, primaryName)}
	st.History = append(st.History, note)
	st.UpdatedAt = now
	if err := st.Validate(); err != nil {
		return fmt.Errorf("restoring session %s: %w", sess.id, err)
	}
	var notes []string
	if sess.transcript, notes, err = openTranscript(sess.dir, sess.folder, st); err != nil {
		return fmt.Errorf("opening the transcript of session %s: %w", sess.id, err)
	}
	if err := sess.transcript.add(note); err != nil {
		return fmt.Errorf("writing the transcript of session %s: %w", sess.id, err)
	}
	if err := sess.save(st); err != nil {
		return fmt.Errorf("saving session %s: %w", sess.id, err)
	}
	sess.state = st
	sess.report = Report{Notes: append([]string{note.Text}, notes...)}
	return nil
}

// restartAt is a paused session at the start of phase at, the lines of
// the phases before it its history.
func restartAt(id string, opts engine.Options, created, now time.Time, lines []transcriptLine, at engine.Phase) (engine.State, error) {
	st, err := engine.NewState(id, opts, created)
	if err != nil {
		return st, err
	}
	st.Status, st.SealedAt = engine.Paused, created
	if st.Intention != "" {
		st.History = append(st.History, engine.Entry{At: created, Phase: engine.Atmosphere, Role: engine.RoleUser, Text: st.Intention})
	}
	for _, l := range lines {
		e := l.entry
		if e.Phase >= at {
			continue
		}
		if e.At.IsZero() {
			e.At = created
		}
		st.History = append(st.History, e)
		if e.Role == engine.RoleGuide {
			r := &st.Phases[e.Phase]
			r.Spoken++
			r.Elapsed = min(r.Elapsed+engine.EstimateSpeech(e.Text, e.Phase)+e.Phase.Rest(st.Length), st.Length).Round(time.Millisecond)
		}
	}
	for p := engine.Atmosphere; p < at; p++ {
		st.Elapsed += st.Phases[p].Elapsed
	}
	st.FitElapsed()
	for p := engine.Atmosphere; p < at; p++ {
		r := &st.Phases[p]
		r.Status = engine.PhaseCompleted
		r.Budget = spokenBudget(p, st.Length, r.Spoken, r.Elapsed)
	}
	// at is begun afresh: active, nothing spoken in it yet.
	cur := &st.Phases[at]
	cur.Status, cur.StartedAt = engine.PhaseActive, now
	cur.Budget = estimateBudget(st.Length, st.Sleep, at, 0, 0)
	st.Phase = at
	st.Position = engine.Position{Phase: at}
	return st, nil
}
