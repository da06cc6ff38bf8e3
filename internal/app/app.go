// Package app wires lull's parts for one process: the session store, the
// sound, the built-in guide and an engine per session. The TUI and the
// headless runner both start and resume sessions through it.
package app

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/awake"
	"github.com/lull-dev/lull/internal/crisis"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/guide"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/safety"
	"github.com/lull-dev/lull/internal/sessions"
)

// Choices lull offers.
var (
	Lengths     = []int{5, 10, 15, 20, 30, 45, 60}
	Voices      = audio.Voices
	Soundscapes = audio.Soundscapes
)

// checkSound refuses a voice or soundscape lull does not know; empty means
// the default.
func checkSound(voice, soundscape string) error {
	var errs []error
	if voice != "" {
		errs = append(errs, audio.CheckVoice(voice))
	}
	if soundscape != "" {
		errs = append(errs, audio.CheckSoundscape(soundscape))
	}
	return errors.Join(errs...)
}

// Options set up an App.
type Options struct {
	Paths     Paths
	Config    Config
	TimeScale float64 // LULL_TIME_SCALE: 1 is real time
	Silent    bool    // play to the silent output even when a sound card is there
	Logger    *slog.Logger
	Now       func() time.Time
	// Voices say where piper and a speech server are.
	Voices audio.VoiceConfig
	// Guide is who writes the words of this process's runs.
	Guide GuideChoice
	// Quiet is called around opening the sound card, whose C library
	// writes to fd 2; it returns how to undo itself.
	Quiet func() (restore func())
	// Awake keeps the machine awake while a session plays; nil: the
	// platform's own, unless the config's keep_awake is false.
	Awake awake.Keeper
}

// App is lull for one process.
type App struct {
	opts  Options
	store *sessions.Store
	log   *slog.Logger

	mu     sync.Mutex
	player *audio.Player // opened with the first session; owns the speaker

	awake awake.Keeper // asked while a session plays (see Run.watch)

	// newBuiltin makes the built-in guide from what the listener heard
	// before (defaultBuiltin; a test sees what it is given).
	newBuiltin func(guide.Memory) (engine.Guide, error)
}

// New opens the session store.
func New(o Options) (*App, error) {
	if o.TimeScale <= 0 {
		o.TimeScale = 1
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	store, err := sessions.Open(o.Paths.Data)
	if err != nil {
		return nil, err
	}
	return &App{opts: o, store: store, log: o.Logger, newBuiltin: defaultBuiltin, awake: newKeeper(o)}, nil
}

// Config is the settings in use.
func (a *App) Config() Config { return a.opts.Config }

// Logger is where lull's log goes.
func (a *App) Logger() *slog.Logger { return a.log }

// Guide is who writes the words of this process's runs.
func (a *App) Guide() GuideChoice { return a.opts.Guide }

// Voices is where the voices are, as sessions will look for them.
func (a *App) Voices() audio.VoiceConfig { return a.opts.Voices }

// Store is the session store, for listing and showing.
func (a *App) Store() *sessions.Store { return a.store }

// Start creates a session from the listener's choices and starts it.
func (a *App) Start(o engine.Options) (*Run, error) {
	choice, err := a.choice(o.Guide)
	if err != nil {
		return nil, err
	}
	if o.Model != "" && choice.Guide == engine.GuideOpenAI {
		choice.LLM.Model = o.Model // the form's model field
	}
	sess, st, err := a.create(o)
	if err != nil {
		return nil, err
	}
	return a.launch(sess, st, choice, nil)
}

// choice is the process's guide, or the one the listener picked for a new
// session.
func (a *App) choice(guide string) (GuideChoice, error) {
	ch := a.opts.Guide
	switch guide {
	case "", ch.Guide:
	case engine.GuideBuiltin, engine.GuideOpenAI:
		ch.Guide = guide
	default:
		return ch, unknownGuide(guide)
	}
	return ch, nil
}

// renderPlayer is the sound of session st played into w as a WAV file,
// as fast as it can be made: a render, or an export.
func (a *App) renderPlayer(st engine.State, w io.Writer) (*audio.Player, error) {
	p, err := audio.Open(audio.Options{
		Voice:       st.Voice,
		Soundscape:  st.Soundscape,
		Voices:      a.opts.Voices,
		NoPacerTone: !a.opts.Config.Breathing.ToneOn(),
		Render:      w,
		Logger:      a.log,
	})
	if err == nil {
		// The file speaks at the pace chosen, its soundscape at its level.
		p.SetVoiceRate(st.VoiceRate)
		p.SetSoundscapeVolume(engine.VolumeLevel(st.SoundscapeVolume))
	}
	return p, err
}

// Render creates a session and plays it into w as a WAV file, as fast as
// it can be made. The session is saved like any other; closing the Run
// finishes the file.
func (a *App) Render(o engine.Options, w io.Writer) (*Run, error) {
	choice, err := a.choice(o.Guide)
	if err != nil {
		return nil, err
	}
	sess, st, err := a.create(o)
	if err != nil {
		return nil, err
	}
	player, err := a.renderPlayer(st, w)
	if err != nil {
		sess.Close()
		return nil, err
	}
	r, err := a.run(sess, st, player, choice, player.Notices())
	if err != nil {
		_ = player.Close()
		return nil, err
	}
	r.finish = player.Close
	return r, nil
}

// create makes a new session from the listener's choices, filled in from
// the config, checked, and saved.
func (a *App) create(o engine.Options) (*sessions.Session, engine.State, error) {
	return a.createState(o, func(*engine.State) {})
}

// createState is create, with what else the new state records (a
// replay's original) set before it is first saved.
func (a *App) createState(o engine.Options, set func(*engine.State)) (*sessions.Session, engine.State, error) {
	cfg := a.opts.Config
	a.practiceDefaults(&o)
	if o.Length == 0 && o.Practice != engine.PracticeSit { // a sit of no length is open-ended
		o.Length = time.Duration(cfg.Length) * time.Minute
	}
	if o.Voice == "" {
		o.Voice = cfg.Voice
	}
	if o.Soundscape == "" {
		o.Soundscape = cfg.Soundscape
	}
	if o.Seed == 0 {
		o.Seed = randomSeed()
	}
	if err := errors.Join(engine.CheckLengthFor(o.Practice, o.Length), checkSound(o.Voice, o.Soundscape)); err != nil {
		return nil, engine.State{}, err
	}
	st, err := engine.NewState(sessions.NewID(a.opts.Now()), o, a.opts.Now()) // holds the intention rule
	if err != nil {
		return nil, engine.State{}, err
	}
	// The voice's pace and the soundscape's level begin as the config
	// says; the session keeps them from then on, changed or not.
	if r := cfg.VoiceRate; r != nil && *r != 1 {
		st.VoiceRate = engine.ClampVoiceRate(*r)
	}
	if v := cfg.SoundscapeVolume; v != nil {
		st.SoundscapeVolume = engine.VolumeSteps(*v)
	}
	set(&st)
	// The crisis screen reads the cleaned intention, before any folder is made.
	if err := crisis.Check(st.Intention); err != nil {
		return nil, engine.State{}, err
	}
	sess, err := a.store.Create(st)
	if err != nil {
		return nil, engine.State{}, err
	}
	return sess, st, nil
}

// Resume locks a saved session and runs it on from where it stopped.
func (a *App) Resume(id string) (*Run, error) {
	sess, err := a.store.Resume(id)
	if err != nil {
		return nil, err
	}
	st := sess.State()
	if st.Status.Finished() {
		sess.Close()
		return nil, fmt.Errorf("session %s is %s; it cannot be resumed", id, st.Status)
	}
	choice, notice := a.resumeChoice(st)
	notices := sess.Report().Notes
	if notice != "" {
		notices = append(notices, notice)
	}
	return a.launch(sess, st, choice, notices)
}

// launch runs a locked session on the process's shared sound.
func (a *App) launch(sess *sessions.Session, st engine.State, choice GuideChoice, notices []string) (*Run, error) {
	player, playerNotices, err := a.sound(st.Voice, st.Soundscape)
	if err != nil {
		sess.Close()
		return nil, err
	}
	playerNotices = append(playerNotices, restoreSound(player, st)...)
	r, err := a.run(sess, st, player, choice, append(notices, playerNotices...))
	if err == nil {
		r.watch(a.awake) // a render plays to a file: only a launched run keeps the machine awake
	}
	return r, err
}

// run builds the engine for a locked session and starts it running.
func (a *App) run(sess *sessions.Session, st engine.State, player *audio.Player, choice GuideChoice, notices []string) (*Run, error) {
	choice = wordsFor(st, choice)
	rg, err := a.guides(st, choice)
	if err != nil {
		sess.Close()
		return nil, err
	}
	eng, err := engine.New(st, engine.Config{
		Screen:    safety.Default(),
		Plain:     func(err error) string { return llm.Explain(err).What },
		Welcome:   welcomeLine,
		Guide:     rg.guide,
		Fallback:  rg.fallback,
		Filler:    rg.filler,
		Forgetter: rg.forget,
		Speaker:   player,
		Store:     sess,
		Logger:    a.log.With("session", st.ID),
		Breath:    a.opts.Config.Breathing.Pattern(),
		NoCues:    wordless(st),
		Unheard:   player.Renders(), // lull render: a file, not practice
	})
	if err != nil {
		sess.Close()
		return nil, err
	}
	builtin := func() (engine.Guide, error) { return rg.builtin, nil } // the one that filled, remembering the same
	r := startRun(eng, sess, player, notices, a.log, builtin)
	r.remote = a.remoteFor(st, choice)
	return r, nil
}

// sound opens the audio on first use; later sessions share it. Each
// notice (no sound card, no voice) is returned once.
func (a *App) sound(voice, soundscape string) (*audio.Player, []string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.player != nil {
		err := a.player.Configure(voice, soundscape)
		return a.player, a.player.Notices(), err
	}
	p, err := audio.Open(audio.Options{
		Voice:       voice,
		Soundscape:  soundscape,
		Voices:      a.opts.Voices,
		NoPacerTone: !a.opts.Config.Breathing.ToneOn(),
		TimeScale:   a.opts.TimeScale,
		Silent:      a.opts.Silent,
		Logger:      a.log,
		Quiet:       a.opts.Quiet,
	})
	if err != nil {
		return nil, nil, err
	}
	a.player = p
	return p, p.Notices(), nil
}

// Close stops the sound. Runs must be closed first.
func (a *App) Close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.player != nil {
		if err := a.player.Close(); err != nil {
			a.log.Error("closing the sound", "err", err)
		}
		a.player = nil
	}
}

func randomSeed() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return int64(binary.LittleEndian.Uint64(b[:]) >> 1)
}
