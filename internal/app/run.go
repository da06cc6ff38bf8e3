package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// Run is a session under way in this process: its engine on its own
// goroutine, and the lock that keeps other lulls out.
type Run struct {
	*engine.Engine
	player  *audio.Player
	sess    *sessions.Session
	notices []string
	log     *slog.Logger
	finish  func() error // after the engine stops: a render finishes its file
	// builtin makes the built-in guide for this session, with its memory.
	builtin func() (engine.Guide, error)
	// atStart is the session as it stood before this run began: whether
	// it is a resume is known from it, not from a snapshot that races the
	// engine's first save.
	atStart engine.State
	// remote makes the LLM guide on another model or provider (RetryWith).
	remote func(provider, model string) (engine.Guide, error)

	mu     sync.Mutex // guards the current engine run below
	cancel context.CancelFunc
	done   chan struct{}
	err    error // what engine.Run returned; read after done

	closeOnce sync.Once
	closeErr  error

	letGo func() // stops keeping the machine awake; nil when it never did

	unsavedMu     sync.Mutex
	closedUnsaved *error // what Close found: the session's files are closed after it
}

// startRun runs the engine on its own goroutine; the sound is hushed once
// the engine has stopped, however it stopped.
func startRun(eng *engine.Engine, sess *sessions.Session, player *audio.Player, notices []string, log *slog.Logger, builtin func() (engine.Guide, error)) *Run {
	r := &Run{Engine: eng, player: player, sess: sess, notices: notices, log: log, builtin: builtin, atStart: eng.Snapshot()}
	r.launch()
	return r
}

// launch runs the engine once more on its own goroutine.
func (r *Run) launch() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	r.mu.Lock()
	r.cancel, r.done, r.err = cancel, done, nil
	r.mu.Unlock()
	go func() {
		defer close(done)
		defer r.player.Hush()
		var err error
		defer func() {
			if p := recover(); p != nil {
				r.log.Error("engine panic", "panic", p, "stack", string(debug.Stack()))
				err = errors.New("lull stopped unexpectedly; the session was saved up to the last sentence")
			}
			r.mu.Lock()
			r.err = err
			r.mu.Unlock()
		}()
		err = r.Engine.Run(ctx)
	}()
}

// Retry runs an interrupted session again on the guide that failed.
func (r *Run) Retry() error { return r.again(nil) }

// ContinueBuiltin runs an interrupted session on with the built-in guide,
// from the same sentence.
func (r *Run) ContinueBuiltin() error {
	g, err := r.builtin()
	if err != nil {
		return err
	}
	return r.again(g)
}

func (r *Run) again(g engine.Guide) error {
	<-r.Done()
	if st := r.Snapshot().Status; st != engine.Interrupted {
		return fmt.Errorf("the session is %s, not interrupted", st)
	}
	if g != nil {
		if err := r.SwitchGuide(g); err != nil {
			return err
		}
	}
	r.launch()
	return nil
}

// Louder raises the volume a step and returns the level, 0–MaxVolume.
func (r *Run) Louder() int { return r.keepVolume(r.player.SetVolume(r.player.Volume() + 1)) }

// Softer lowers the volume a step and returns the level.
func (r *Run) Softer() int { return r.keepVolume(r.player.SetVolume(r.player.Volume() - 1)) }

// keepVolume saves the level with the session, so it resumes at it.
func (r *Run) keepVolume(level int) int {
	r.SetVolume(level)
	return level
}

// Slower and Faster step the voice's pace (engine.VoiceRateStep, within
// its bounds) for the lines prepared from now on, and return it; the
// session keeps it.
func (r *Run) Slower() float64 { return r.keepRate(r.player.VoiceRate() - engine.VoiceRateStep) }
func (r *Run) Faster() float64 { return r.keepRate(r.player.VoiceRate() + engine.VoiceRateStep) }

func (r *Run) keepRate(rate float64) float64 {
	rate = r.player.SetVoiceRate(rate)
	r.SetVoiceRate(rate)
	return rate
}

// SoundscapeLouder and SoundscapeSofter step the soundscape's own level,
// apart from the voice's, and return it; the session keeps it.
func (r *Run) SoundscapeLouder() int {
	return r.keepSoundscape(r.player.SetSoundscapeVolume(r.player.SoundscapeVolume() + 1))
}
func (r *Run) SoundscapeSofter() int {
	return r.keepSoundscape(r.player.SetSoundscapeVolume(r.player.SoundscapeVolume() - 1))
}

func (r *Run) keepSoundscape(level int) int {
	r.SetSoundscapeVolume(level)
	return level
}

// Tuning is the voice's pace and the soundscape's level as they play.
func (r *Run) Tuning() (rate float64, soundscape int) {
	return r.player.VoiceRate(), r.player.SoundscapeVolume()
}

// ToggleVoice mutes or unmutes the voice and says whether it is heard.
func (r *Run) ToggleVoice() bool {
	on := !r.player.VoiceOn()
	r.player.SetVoiceOn(on)
	r.SetVoiceOff(!on) // kept with the session: it resumes as it was
	return on
}

// Sound is the sound as it plays, for the screen to show: the voice
// speaking now ("none": text only), whether it is heard, and the volume
// level (0–MaxVolume).
func (r *Run) Sound() (voice string, heard bool, level int) {
	return r.player.VoiceName(), r.player.VoiceOn(), r.player.Volume()
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

// Played is how much sound the output has taken since the run began:
// for a render, how much of the file is written.
func (r *Run) Played() time.Duration { return r.player.Position() }

// ID is the session's id.
func (r *Run) ID() string { return r.Snapshot().ID }

// AtStart is the session as it stood before this run began: Created for
// a new session.
func (r *Run) AtStart() engine.State { return r.atStart }

// Notices are things to tell the listener once.
func (r *Run) Notices() []string { return r.notices }

// Done is closed when the engine stops: completed, abandoned, interrupted
// or closed.
func (r *Run) Done() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

// Err is how the engine stopped; valid once Done is closed.
func (r *Run) Err() error {
	<-r.Done()
	r.mu.Lock()
	defer r.mu.Unlock()
	if errors.Is(r.err, context.Canceled) {
		return nil // stopped by Close
	}
	return r.err
}

// Close pauses a running session, stops the engine, saves, and releases
// the lock. When that last save did not reach the disk, its error is an
// *UnsavedError (see Unsaved). Safe to call more than once.
func (r *Run) Close() error {
	r.closeOnce.Do(func() {
		var errs []error
		if r.Snapshot().Status == engine.Running {
			// It may complete in between: then there is nothing to pause.
			if err := r.Pause(); err != nil && !errors.As(err, new(*engine.TransitionError)) {
				errs = append(errs, err)
			}
		}
		r.mu.Lock()
		cancel, done := r.cancel, r.done
		r.mu.Unlock()
		cancel()
		<-done
		if r.letGo != nil {
			r.letGo()
		}
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
		// The last word on saving: said before the files are let go of,
		// while they can still be read back.
		r.unsavedMu.Lock()
		unsaved := r.unsaved()
		r.closedUnsaved = &unsaved
		r.unsavedMu.Unlock()
		errs = append(errs, unsaved, r.sess.Close())
		r.closeErr = errors.Join(errs...)
	})
	return r.closeErr
}
