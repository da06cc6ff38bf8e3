package app

import (
	"fmt"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// Salvage is what is left of a session that can be neither read nor
// rebuilt: its folder's files and what its transcript shows, and the
// phases it can begin again at — each one the transcript reaches.
func (a *App) Salvage(id string) (sessions.Salvage, []engine.Phase, error) {
	sv, err := a.store.Salvage(id)
	if err != nil {
		return sv, nil, err
	}
	from := []engine.Phase{engine.Atmosphere}
	if n := len(sv.Transcript.Phases); n > 0 {
		last := sv.Transcript.Phases[n-1].Phase
		from = from[:0]
		for p := engine.Atmosphere; p <= last; p++ {
			from = append(from, p)
		}
	}
	return sv, from, nil
}

// Restore begins an unreadable session again at phase at, keeping what
// the transcript shows was spoken before it, and runs it. The length is
// the transcript's, or the config's when it does not say.
func (a *App) Restore(id string, at engine.Phase) (*Run, error) {
	length := time.Duration(a.opts.Config.Length) * time.Minute
	sess, err := a.store.Restore(id, at, length)
	if err != nil {
		return nil, err
	}
	notes := append([]string{fmt.Sprintf("Session %s begins again at %s; what was spoken before is kept.", id, at.Title())}, sess.Report().Notes...)
	return a.launch(sess, sess.State(), a.opts.Guide, notes)
}
