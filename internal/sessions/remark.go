package sessions

import (
	"errors"
	"fmt"

	"github.com/lull-dev/lull/internal/human"

	"github.com/lull-dev/lull/internal/engine"
)

// Remark is what the listener says of a session: how they felt before and
// after, a note. Each is changed only when given.
type Remark struct {
	MoodBefore int     // 1–5; 0 leaves it as it is
	MoodAfter  int     // 1–5; 0 leaves it as it is
	Note       *string // nil leaves it as it is; "" clears it
	// Asked records that lull asked how a sleep session went, so a skip is
	// not asked again.
	Asked bool
}

// Remark saves what the listener says of session id, atomically like any
// save, and returns the session as saved. The mood after and the asking
// are for a finished session (completed or abandoned); the mood before
// and the note may be given to any session no lull has open. The note is
// cleaned by engine.CleanNote's rule and refused when too long.
func (s *Store) Remark(id string, r Remark) (engine.State, error) {
	if err := errors.Join(engine.CheckMood(r.MoodBefore), engine.CheckMood(r.MoodAfter)); err != nil {
		return engine.State{}, err
	}
	var note string
	if r.Note != nil {
		var err error
		if note, err = engine.CleanNote(*r.Note); err != nil {
			return engine.State{}, err
		}
	}
	sess, err := s.Resume(id) // locks it: a lull playing it is refused
	if err != nil {
		return engine.State{}, err
	}
	defer sess.Close()
	st := sess.State()
	if (r.MoodAfter != 0 || r.Asked) && !st.Status.Finished() {
		return st, fmt.Errorf("session %s is %s: the mood after is for a session that has ended (resume it with: %s)", id, st.Status, human.Command("resume "+id))
	}
	if r.MoodBefore != 0 {
		st.MoodBefore = r.MoodBefore
	}
	if r.MoodAfter != 0 {
		st.MoodAfter = r.MoodAfter
	}
	if r.Note != nil {
		st.Note = note
	}
	if r.Asked {
		st.MoodAsked = true
	}
	if err := sess.Save(st); err != nil {
		return st, err
	}
	return st, sess.Close()
}
