package app

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"lull/audio"
	"lull/engine"
	"lull/sessions"
)

// Run is a session under way in this process: its engine on its own
// goroutine, and the lock that keeps other lulls out.
type Run struct {
	*engine.Engine
	player  *audio.Player
	sess    *sessions.Session
	notices []string
	cancel  context.CancelFunc
	done    chan struct{}
	finish  func() error // after the engine stops: a render finishes its file
	err     error        // what engine.Run returned; read after done

	closeOnce sync.Once
	closeErr  error
}

// startRun runs the engine on its own goroutine; the sound is hushed once
// the engine has stopped, however it stopped.
func startRun(eng *engine.Engine, sess *sessions.Session, player *audio.Player, notices []string, log *slog.Logger) *Run {
	ctx, cancel := context.WithCancel(context.Background())
	r := &Run{Engine: eng, player: player, sess: sess, notices: notices, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		defer player.Hush()
		defer func() {
			if p := recover(); p != nil {
				log.Error("engine panic", "panic", p)
				r.err = errors.New("lull stopped unexpectedly; the session was saved up to the last sentence")
			}
		}()
		r.err = eng.Run(ctx)
	}()
	return r
}

// Louder raises the volume a step and returns the level, 0–MaxVolume.
func (r *Run) Louder() int { return r.player.SetVolume(r.player.Volume() + 1) }

// Softer lowers the volume a step and returns the level.
func (r *Run) Softer() int { return r.player.SetVolume(r.player.Volume() - 1) }

// ToggleVoice mutes or unmutes the voice and says whether it is heard.
func (r *Run) ToggleVoice() bool {
	on := !r.player.VoiceOn()
	r.player.SetVoiceOn(on)
	return on
}

// NextSoundscape crossfades to the next soundscape, which the session
// remembers, and returns its name.
func (r *Run) NextSoundscape() string {
	name := r.player.NextSoundscape()
	r.SetSoundscape(name)
	return name
}

// PacerBreath is the breathing pacer's tone as it stands, and whether it
// sounds.
func (r *Run) PacerBreath() (engine.Breath, bool) { return r.player.Breath() }

// Timeline is what the voice track has played, where on the output's clock.
func (r *Run) Timeline() []audio.Span { return r.player.Timeline() }

// ID is the session's id.
func (r *Run) ID() string { return r.Snapshot().ID }

// Notices are things to tell the listener once.
func (r *Run) Notices() []string { return r.notices }

// Done is closed when the engine stops: completed, abandoned, interrupted
// or closed.
func (r *Run) Done() <-chan struct{} { return r.done }

// Err is how the engine stopped; valid once Done is closed.
func (r *Run) Err() error {
	<-r.done
	if errors.Is(r.err, context.Canceled) {
		return nil // stopped by Close
	}
	return r.err
}

// Close pauses a running session, stops the engine, saves, and releases
// the lock. Safe to call more than once.
func (r *Run) Close() error {
	r.closeOnce.Do(func() {
		var errs []error
		if r.Snapshot().Status == engine.Running {
			// It may complete in between: then there is nothing to pause.
			if err := r.Pause(); err != nil && !errors.As(err, new(*engine.TransitionError)) {
				errs = append(errs, err)
			}
		}
		r.cancel()
		<-r.done
		if r.Snapshot().Status == engine.Running {
			// The engine was still starting when we looked: pause it now,
			// so the session is saved paused, not left running.
			if err := r.Pause(); err != nil {
				errs = append(errs, err)
			}
		}
		if r.finish != nil {
			errs = append(errs, r.finish())
		}
		errs = append(errs, r.sess.Close())
		r.closeErr = errors.Join(errs...)
	})
	return r.closeErr
}
