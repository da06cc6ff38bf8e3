package app

import (
	"context"

	"github.com/lull-dev/lull/internal/awake"
	"github.com/lull-dev/lull/internal/engine"
)

// KeepAwakeOn says whether lull asks the OS not to sleep while a session
// plays (keep_awake, on unless set false).
func (c Config) KeepAwakeOn() bool { return c.KeepAwake == nil || *c.KeepAwake }

// newKeeper is the process's keeper, as the config and options say.
func newKeeper(o Options) awake.Keeper {
	switch {
	case o.Awake != nil:
		return o.Awake
	case !o.Config.KeepAwakeOn():
		return awake.Off{}
	}
	return awake.New(awake.Options{Why: "a lull session is playing", Logger: o.Logger})
}

// watch follows the run's events: it holds the machine awake while the
// session runs and lets go when it pauses, is interrupted or ends, and
// when the run closes; and it logs each error in full, which the screen
// may say only in plain words.
func (r *Run) watch(k awake.Keeper) {
	id := r.ID()
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	sub := r.Subscribe()
	follow := func(s engine.Status) {
		if s == engine.Running {
			k.Hold()
		} else {
			k.Release()
		}
	}
	go func() {
		defer close(stopped)
		defer sub.Close()
		for {
			events, err := sub.Next(ctx)
			if err != nil {
				return
			}
			for _, ev := range events {
				switch ev.Kind {
				case engine.EventError:
					// The screen may say it only in plain words: the detail is here.
					r.log.Warn("session error", "session", id, "phase", ev.Phase.String(), "text", ev.Text)
				case engine.EventStatus:
					follow(ev.Status)
				case engine.EventResync:
					follow(r.Snapshot().Status)
				}
			}
		}
	}()
	r.letGo = func() {
		cancel()
		<-stopped
		k.Release()
	}
}
