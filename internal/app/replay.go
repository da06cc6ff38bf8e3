package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/lull-dev/lull/internal/human"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/guide"
	"github.com/lull-dev/lull/internal/sessions"
)

// Read loads a saved session to reread or export it: read-only, without
// its lock, so a session open in another lull can be read too.
func (a *App) Read(id string) (engine.State, sessions.Report, error) { return a.store.Load(id) }

// ReplayChoices are what a replay may change of the session it replays:
// empty keeps the original's.
type ReplayChoices struct {
	Voice      string
	Soundscape string
}

// Replay begins a new session that speaks the saved words of session id
// again, paced afresh, without calling any model. It keeps the
// original's length, intention and sleep setting, and records what it
// replays (State.ReplayOf).
func (a *App) Replay(id string, c ReplayChoices) (*Run, error) {
	src, words, err := a.replayable(id)
	if err != nil {
		return nil, err
	}
	o := replayOptions(src, c)
	sess, st, err := a.createState(o, func(st *engine.State) { st.ReplayOf = words.ID })
	if err != nil {
		return nil, err
	}
	return a.launch(sess, st, a.opts.Guide, nil)
}

// RenderWords plays the saved words of session id again into w as a WAV
// file, paced afresh, with its voice and soundscape, as fast as it can be
// made. No session is made or saved: the engine has no store. begun, when
// given, is told as the writing begins how long the file will be and how
// to ask how much of it is written, for a progress bar.
func (a *App) RenderWords(ctx context.Context, id string, w io.Writer, begun func(total time.Duration, written func() time.Duration)) (engine.State, error) {
	src, words, err := a.replayable(id)
	if err != nil {
		return engine.State{}, err
	}
	g, err := a.replayGuide(words)
	if err != nil {
		return engine.State{}, err
	}
	o := replayOptions(src, ReplayChoices{})
	if err := checkSound(o.Voice, o.Soundscape); err != nil {
		return engine.State{}, err
	}
	st, err := engine.NewState(sessions.NewID(a.opts.Now()), o, a.opts.Now())
	if err != nil {
		return engine.State{}, err
	}
	st.ReplayOf = words.ID
	player, err := a.renderPlayer(st, w)
	if err != nil {
		return engine.State{}, err
	}
	eng, err := engine.New(st, engine.Config{
		Screen:  safety.Default(), // what was said then passes today's screen too
		Guide:   g,
		Speaker: player,
		Logger:  a.log.With("export", id),
		Breath:  a.opts.Config.Breathing.Pattern(),
	})
	if err != nil {
		_ = player.Close()
		return engine.State{}, err
	}
	if begun != nil {
		begun(st.WithTail(st.Length), player.Position)
	}
	runErr := eng.Run(ctx)
	player.Hush()
	closeErr := player.Close() // finishes the WAV file
	final := eng.Snapshot()
	if err := errors.Join(runErr, closeErr); err != nil {
		return final, err
	}
	if final.Status != engine.Completed {
		return final, fmt.Errorf("the replay of session %s stopped %s", id, final.Status)
	}
	return final, nil
}

// replayOptions are a replay's choices: the original's, but for what the
// listener changes.
func replayOptions(src engine.State, c ReplayChoices) engine.Options {
	o := engine.Options{
		Length:     src.Length,
		Intention:  src.Intention,
		Seed:       src.Seed,
		Voice:      src.Voice,
		Soundscape: src.Soundscape,
		Sleep:      src.Sleep,
		SleepTail:  src.SleepTail,
	}
	if c.Voice != "" {
		o.Voice = c.Voice
	}
	if c.Soundscape != "" {
		o.Soundscape = c.Soundscape
	}
	return o
}

// replayable loads session id to replay it, and the session whose words
// it speaks: id itself, or for a replay, the original it replayed while
// that is still saved — so a replay of a replay says the original's
// words, all of them.
func (a *App) replayable(id string) (src, words engine.State, err error) {
	src, _, err = a.store.Load(id)
	if err != nil {
		return src, words, err
	}
	switch {
	case src.Status.Resumable():
		return src, words, fmt.Errorf("session %s is %s, not finished: only a completed session can be replayed; resume it instead: %s", id, src.Status, human.Command("resume "+id))
	case src.Status != engine.Completed:
		return src, words, fmt.Errorf("session %s is %s: only a completed session can be replayed", id, src.Status)
	case src.Practice == engine.PracticeBreathe:
		// Its words are the cues of its first breaths: the practice itself
		// is begun again, not replayed.
		return src, words, fmt.Errorf("session %s is a breathing practice, which has no words to replay: begin another with %s", id, human.Command("breathe "+src.Pattern))
	case src.Practice == engine.PracticeSit:
		return src, words, fmt.Errorf("session %s is a sit, which has no words to replay: begin another with %s", id, human.Command(sitAgain(src)))
	}
	words = src
	if src.ReplayOf != "" {
		if orig, _, err := a.store.Load(src.ReplayOf); err == nil && len(orig.Said()) > 0 {
			words = orig
		}
	}
	if len(words.Said()) == 0 {
		return src, words, fmt.Errorf("session %s: %w", id, guide.ErrNoWords)
	}
	return src, words, nil
}

// replayGuide is the guide that says the saved words of words again.
func (a *App) replayGuide(words engine.State) (*guide.Replay, error) {
	g, err := guide.NewReplay(words.History, a.opts.Config.Breathing.Pattern())
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", words.ID, err)
	}
	return g, nil
}

// replayGuides are a replay's guides, when it begins or is resumed: the
// saved words of the session it replays, and nothing that could write new
// ones — no model, no filler, no fallback.
func (a *App) replayGuides(st engine.State) (runGuides, error) {
	words, _, err := a.store.Load(st.ReplayOf)
	if err != nil {
		return runGuides{}, fmt.Errorf("session %s replays session %s, which cannot be read: %w", st.ID, st.ReplayOf, err)
	}
	g, err := a.replayGuide(words)
	if err != nil {
		return runGuides{}, err
	}
	return runGuides{guide: g}, nil
}
