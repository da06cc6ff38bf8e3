package app

import (
	"time"

	"github.com/lull-dev/lull/internal/practice"
)

// Practice is the listener's practice as of now, as the config lets it
// be shown (stats.streak), and the sessions that could not be read.
func (a *App) Practice(now time.Time) (practice.Report, []error) {
	list, problems := a.store.List()
	r := practice.Of(list, now)
	if !a.opts.Config.Stats.StreakOn() {
		r.HideStreak()
	}
	return r, problems
}
