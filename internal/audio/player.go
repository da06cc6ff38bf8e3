// Package audio is lull's sound, and the only owner of beep's speaker: the
// voice, a soundscape synthesized in code and a singing-bowl chime, mixed
// into one stream and played on the sound card — or, with no device, on a
// silent output that keeps time. Player implements the engine's Speaker:
// lines are synthesized ahead, so each one's duration is known before it
// plays, and every silence is counted on the output's own clock.
//
// The sample kernels (a soundscape's or a chime's next samples, the
// resampler, the loudness passes, the PCM encoder) are marked
// //go:norace: each touches only its own state and the buffer it is
// given, on the one goroutine that owns them, and under the race detector
// their per-sample reads and writes took three quarters of the tests' CPU.
// What moves between goroutines (the mixer's queue, clips handed to it,
// the chimes struck, volume and pause) stays instrumented.
package audio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// Rate is the output's sample rate.
const Rate beep.SampleRate = 44100

// Options open the sound.
type Options struct {
	Voice      string // a name from Voices
	Soundscape string // a name from Soundscapes
	Voices     VoiceConfig
	// TimeScale runs the clock this many times faster (LULL_TIME_SCALE).
	// Anything but 1 plays to the silent output.
	TimeScale float64
	// Silent plays to the silent output even when a sound card is there.
	Silent bool
	// NoPacerTone silences the breathing pacer's tone; the spoken cues and
	// the animation keep the rhythm.
	NoPacerTone bool
	// Render, when set, writes the session to this WAV file as fast as it
	// can be made, instead of playing it. A file that can seek
	// (io.WriteSeeker) gets its header's sizes once it is whole; anything
	// else (a pipe, a device) is streamed.
	Render io.Writer
	Logger *slog.Logger
	// Quiet, when set, is called around opening the sound card: ALSA
	// writes its complaints straight to fd 2.
	Quiet func() (restore func())
}

// Player is the session's sound. Its methods are safe from any goroutine.
type Player struct {
	out    output
	m      *mix
	log    *slog.Logger
	seed   uint64
	voices VoiceConfig
	tone   bool // the pacer's tone sounds
	volume int  // guarded by the output's lock
	// scapeVolume is the soundscape's level, guarded by the output's lock.
	scapeVolume int

	mu      sync.Mutex // guards voice, voiceName, rate and notices
	voice   Voice      // nil: text only
	rate    float64    // the listener's voice rate (engine.VoiceRateOr1's), times every line's pace
	notices []string

	closed    chan struct{}
	closeOnce sync.Once
	closeErr  error

	// failed is closed when the output fails for good (a render's write
	// error); failErr says why. What waits for sound to play stops then.
	failed   chan struct{}
	failOnce sync.Once
	failErr  error
}

var (
	_ engine.Speaker    = (*Player)(nil)
	_ engine.BellRester = (*Player)(nil)
	_ engine.Pacer      = (*Player)(nil)
	_ engine.Finisher   = (*Player)(nil)
	_ engine.SoftChimer = (*Player)(nil)
)

// Renders reports whether the player writes a WAV file as fast as it can
// (Options.Render) rather than playing to a listener.
func (p *Player) Renders() bool {
	_, ok := p.out.(*render)
	return ok
}

// ErrClosed is returned by a Player that has been closed.
var ErrClosed = errors.New("the sound has been closed")

// Open starts the sound: the speaker when there is one, else the silent
// output, with a notice to tell the listener once.
func Open(o Options) (*Player, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.TimeScale <= 0 {
		o.TimeScale = 1
	}
	p := &Player{m: newMix(Rate), log: o.Logger, voices: o.Voices, tone: !o.NoPacerTone,
		volume: DefaultVolume, scapeVolume: DefaultVolume, rate: 1, closed: make(chan struct{}), failed: make(chan struct{})}
	if o.Render != nil {
		p.out = newRender(p.m, o.Render, p.fail)
	} else if o.TimeScale == 1 && !o.Silent {
		restore := func() {}
		if o.Quiet != nil {
			restore = o.Quiet()
		}
		out, err := openSpeaker(p.m)
		restore()
		if err == nil {
			p.out = out
		} else {
			p.log.Warn("no sound device; using the silent output", slog.Any("err", err))
			p.notices = append(p.notices, "No sound device could be opened; playing to a silent output that keeps time.")
		}
	}
	if p.out == nil {
		p.log.Info("silent output", slog.Float64("time_scale", o.TimeScale))
		p.m.unheard = true
		p.out = newSilent(p.m, o.TimeScale)
	}
	if err := p.Configure(o.Voice, o.Soundscape); err != nil {
		_ = p.Close()
		return nil, err
	}
	return p, nil
}

// Notices are things to tell the listener, each once: no sound device, no
// voice installed. Reading them clears them.
func (p *Player) Notices() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := p.notices
	p.notices = nil
	return n
}

// notify keeps a notice for the listener: the engine asks for them as the
// session goes (see engine.Notifier).
func (p *Player) notify(n string) {
	p.mu.Lock()
	p.notices = append(p.notices, n)
	p.mu.Unlock()
}

// Configure sets the voice and soundscape for the session about to run.
// A new soundscape fades in over the old one.
func (p *Player) Configure(voice, soundscape string) error {
	if err := CheckSoundscape(soundscape); err != nil && soundscape != "" {
		return err
	}
	// Found afresh for every session: a voice installed since, or one that
	// failed in the last session, gets its chance again.
	v, notices, err := findVoice(voice, p.voices, p.notify)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.voice = v
	p.notices = append(p.notices, notices...)
	p.log.Info("voice", slog.String("asked", voice), slog.String("using", p.voiceName()))
	p.mu.Unlock()

	s, err := p.newSoundscape(soundscape)
	if err != nil {
		return err
	}
	p.out.lock()
	defer p.out.unlock()
	if soundscape == "" {
		soundscape = "none"
	}
	if p.m.soundscape() != soundscape {
		p.m.setSoundscape(soundscape, s)
	}
	return nil
}

// VoiceName is the voice speaking now: the engine's name ("flite",
// "espeak-ng", "openai", …), after any switch to the next voice when one
// failed; "none" when the session is text only.
func (p *Player) VoiceName() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.voiceName()
}

func (p *Player) voiceName() string {
	if p.voice == nil {
		return "none"
	}
	return p.voice.Name()
}

// clip is a prepared line: speech, or for text only the silence its
// reading would take.
type clip struct {
	text    string
	phase   engine.Phase
	samples []float32
	d       time.Duration
}

func (c *clip) Duration() time.Duration { return c.d }

// Prepare synthesizes a line ahead of playback, at the one loudness every
// clip has (less its delivery's softening).
func (p *Player) Prepare(ctx context.Context, l engine.Line) (engine.Utterance, error) {
	p.mu.Lock()
	v, rate := p.voice, p.rate
	p.mu.Unlock()
	if v == nil {
		d := time.Duration(float64(engine.EstimateSpeech(l.Text, l.Phase)) / rate)
		return &clip{text: l.Text, phase: l.Phase, d: d}, nil
	}
	// The listener's rate shades every line's pace, so every voice, each
	// through its own setting (paceOf), speaks it; the engine plans by
	// the clips' lengths, which the rate is in.
	l.Delivery.Pace = l.Delivery.PaceOr1() * rate
	start := time.Now()
	samples, err := voiceLine(ctx, v, l, Rate)
	if err != nil {
		return nil, err
	}
	c := &clip{text: l.Text, phase: l.Phase, samples: samples, d: Rate.D(len(samples))}
	p.log.Debug("synthesized", slog.String("voice", v.Name()), slog.Duration("took", time.Since(start)),
		slog.Duration("clip", c.d))
	return c, nil
}

// Play voices an utterance and returns once its last sample has played.
func (p *Player) Play(ctx context.Context, u engine.Utterance) error {
	c, ok := u.(*clip)
	if !ok {
		return fmt.Errorf("audio: cannot play a %T", u)
	}
	if c.samples == nil {
		// Text only: the reading's time passes as silence, but it is a line.
		return p.hold(ctx, &segment{silence: Rate.N(c.d), text: c.text, phase: c.phase, done: make(chan struct{})})
	}
	return p.hold(ctx, &segment{clip: c.samples, text: c.text, phase: c.phase, done: make(chan struct{})})
}

// Rest holds d of silence on the voice track, in output time.
func (p *Player) Rest(ctx context.Context, d time.Duration) error {
	n := Rate.N(d)
	if n <= 0 {
		return ctx.Err()
	}
	return p.hold(ctx, &segment{silence: n, done: make(chan struct{})})
}

// RestStriking holds before+after of silence on the voice track and
// strikes the bowl between the two, on the track's own timeline: both
// parts are queued at once, so no moment passes between them in which a
// busy machine could let the output's clock run on (two Rests and a Chime
// would leave two such moments).
func (p *Player) RestStriking(ctx context.Context, before, after time.Duration) error {
	var segs []*segment
	if n := Rate.N(before); n > 0 {
		segs = append(segs, &segment{silence: n, done: make(chan struct{})})
	}
	// A silence of no samples still begins: it strikes and ends at once.
	segs = append(segs, &segment{silence: max(Rate.N(after), 1), strike: true, done: make(chan struct{})})
	return p.hold(ctx, segs...)
}

// fail ends every wait for sound with err: the output can play no more.
func (p *Player) fail(err error) {
	p.failOnce.Do(func() {
		p.failErr = err
		close(p.failed)
	})
}

// hold queues segments back to back and waits until the last has
// played. A cancelled wait takes them off the track: nothing of them plays
// later. An output that fails ends the wait with its error: nothing will
// play them.
func (p *Player) hold(ctx context.Context, segs ...*segment) error {
	select {
	case <-p.closed:
		return ErrClosed
	case <-p.failed:
		return p.failErr
	default:
	}
	p.out.lock()
	for _, s := range segs {
		p.m.queue(s)
	}
	p.out.unlock()
	select {
	case <-segs[len(segs)-1].done:
		return nil
	case <-ctx.Done():
		p.out.lock()
		for _, s := range segs {
			p.m.voice.drop(s)
		}
		p.out.unlock()
		return ctx.Err()
	case <-p.closed:
		return ErrClosed
	case <-p.failed:
		return p.failErr
	}
}

// Chime strikes the bowl; it rings under what follows.
func (p *Player) Chime() {
	p.out.lock()
	p.m.strike()
	p.out.unlock()
}

// SoftChimes makes the chimes struck from now on ring softly (on) or at
// their full level: a sleep session's bells mark its phases without
// waking anyone.
func (p *Player) SoftChimes(on bool) {
	p.out.lock()
	p.m.soft = on
	p.out.unlock()
}

// Pause silences everything: the device stops first, then the mix
// freezes, so Resume goes on at the very next sample.
func (p *Player) Pause() {
	p.out.suspend()
	p.out.lock()
	p.m.paused = true
	p.out.unlock()
}

// Resume continues where Pause stopped.
func (p *Player) Resume() {
	p.out.lock()
	p.m.paused = false
	p.out.unlock()
	p.out.resume()
}

// Position is the output time played since the sound opened; it stands
// still while paused.
func (p *Player) Position() time.Duration {
	p.out.lock()
	n := p.m.played
	p.out.unlock()
	return time.Duration(n) * time.Second / time.Duration(Rate)
}

// Pace starts the breathing pacer's tone at output position anchor, on
// the mix's own clock.
func (p *Player) Pace(anchor time.Duration, b engine.BreathPattern) {
	if !p.tone {
		return
	}
	p.out.lock()
	defer p.out.unlock()
	// The exact inverse of Position: the tone and the engine read one clock.
	p.m.pacer = newPacer(b, int64(math.Round(anchor.Seconds()*float64(Rate))))
}

// Breath is the breathing pacer's tone as it stands at the output's clock,
// and whether it sounds.
func (p *Player) Breath() (engine.Breath, bool) {
	p.out.lock()
	defer p.out.unlock()
	if p.m.pacer == nil || p.m.pacer.stopping {
		return engine.Breath{}, false
	}
	// The breath as heard: a device plays what the mix gave it a moment ago.
	heard := max(p.m.played-int64(p.m.rate.N(p.out.delay())), p.m.pacer.anchor)
	return p.m.pacer.breath(heard, float64(Rate)), true
}

// StopPacing lets the pacer's tone fade away.
func (p *Player) StopPacing() {
	p.out.lock()
	defer p.out.unlock()
	if p.m.pacer != nil {
		p.m.pacer.stopping = true
	}
}

// FadeOut lets the soundscape fade away over d: the session's last moments.
func (p *Player) FadeOut(d time.Duration) {
	p.out.lock()
	defer p.out.unlock()
	p.m.fadeOut(d)
}

// SetVolume sets the master volume level, 0–MaxVolume, and returns it.
// The change glides in: no click.
func (p *Player) SetVolume(level int) int { return p.setLevel(level, &p.volume, &p.m.masterTarget) }

// Volume is the master volume level.
func (p *Player) Volume() int { return p.level(&p.volume) }

// setLevel holds level to the scale and sets it, and the gain it glides
// to, under the output's lock.
func (p *Player) setLevel(level int, kept *int, target *float64) int {
	level = min(max(level, 0), MaxVolume)
	p.out.lock()
	defer p.out.unlock()
	*kept = level
	*target = volumeGain(level)
	return level
}

// level reads a level kept under the output's lock.
func (p *Player) level(kept *int) int {
	p.out.lock()
	defer p.out.unlock()
	return *kept
}

// SetSoundscapeVolume sets the soundscape's level, 0–MaxVolume, under the
// master volume and apart from the voice's, and returns it. The change
// glides in: no click.
func (p *Player) SetSoundscapeVolume(level int) int {
	return p.setLevel(level, &p.scapeVolume, &p.m.scapeTarget)
}

// SoundscapeVolume is the soundscape's level.
func (p *Player) SoundscapeVolume() int { return p.level(&p.scapeVolume) }

// SetVoiceRate sets the voice's rate, a factor of the normal pace held to
// engine's bounds, for the lines prepared from now on, and returns it.
func (p *Player) SetVoiceRate(r float64) float64 {
	r = engine.ClampVoiceRate(engine.VoiceRateOr1(r))
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rate = r
	return r
}

// VoiceRate is the voice's rate.
func (p *Player) VoiceRate() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rate
}

// SetVoiceOn lets the voice be heard or not; the session keeps its pace
// either way, and its words stay on screen.
func (p *Player) SetVoiceOn(on bool) {
	p.out.lock()
	defer p.out.unlock()
	p.m.voice.target = 0
	if on {
		p.m.voice.target = voiceGain
	}
}

// VoiceOn reports whether the voice is heard.
func (p *Player) VoiceOn() bool {
	p.out.lock()
	defer p.out.unlock()
	return p.m.voice.target > 0
}

// NextSoundscape crossfades to the soundscape after the one playing, in
// the order of Soundscapes, and returns its name.
func (p *Player) NextSoundscape() string {
	p.out.lock()
	cur := p.m.soundscape()
	p.out.unlock()
	next := Soundscapes[0]
	for i, s := range Soundscapes {
		if s == cur {
			next = Soundscapes[(i+1)%len(Soundscapes)]
		}
	}
	s, err := p.newSoundscape(next)
	if err != nil {
		return cur
	}
	p.out.lock()
	defer p.out.unlock()
	p.m.setSoundscape(next, s)
	return next
}

// newSoundscape makes a soundscape with a seed of its own: each one the
// listener hears is a new one, and a render's are reproducible.
func (p *Player) newSoundscape(name string) (beep.Streamer, error) {
	p.mu.Lock()
	p.seed++
	seed := p.seed
	p.mu.Unlock()
	return newSoundscape(name, Rate, seed)
}

// Soundscape is the soundscape playing, or "none".
func (p *Player) Soundscape() string {
	p.out.lock()
	defer p.out.unlock()
	return p.m.soundscape()
}

// Timeline is every line and silence the voice track has played, with
// where each fell on the output's clock.
func (p *Player) Timeline() []Span {
	p.out.lock()
	defer p.out.unlock()
	return append([]Span(nil), p.m.voice.spans...)
}

// Hush ends a session's sound: the voice track empties and the soundscape
// fades out. The next Configure brings one back.
func (p *Player) Hush() {
	p.out.lock()
	defer p.out.unlock()
	p.m.voice.clear()
	p.m.setSoundscape("none", nil)
	if p.m.pacer != nil {
		p.m.pacer.stopping = true
	}
}

// Close stops the sound for good. For a render it finishes the file, and
// its error says whether that worked.
func (p *Player) Close() error {
	p.closeOnce.Do(func() {
		close(p.closed)
		p.closeErr = p.out.close()
	})
	return p.closeErr
}
