package app

import (
	"slices"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// Remark saves what the listener says of a session: mood before, after, a
// note (see sessions.Store.Remark).
func (a *App) Remark(id string, r sessions.Remark) (engine.State, error) {
	return a.store.Remark(id, r)
}

// Latest is the guided session begun last, whose choices the form offers
// again; false when there is none yet.
func (a *App) Latest() (sessions.Info, bool) {
	infos, _ := a.store.List()
	infos = slices.DeleteFunc(infos, func(in sessions.Info) bool {
		return in.Practice != "" || in.ReplayOf != "" // not a choice made on the form
	})
	if len(infos) == 0 {
		return sessions.Info{}, false
	}
	return slices.MaxFunc(infos, func(x, y sessions.Info) int { return x.Created.Compare(y.Created) }), true
}
