package app

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"time"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/sessions"
)

// Config is the user's settings file: defaults for new sessions, where the
// voices are, and the breathing rhythm.
type Config struct {
	Length     int    `yaml:"length"`     // minutes
	Voice      string `yaml:"voice"`      // a name from audio.Voices
	Soundscape string `yaml:"soundscape"` // a name from audio.Soundscapes
	// VoiceRate is a new session's voice pace, a factor of the normal one
	// (engine.MinVoiceRate–MaxVoiceRate); nil: 1.
	VoiceRate *float64 `yaml:"voice_rate"`
	// SoundscapeVolume is a new session's soundscape level, 0–12 on the
	// volume's scale (10 is lull's own); nil: 10.
	SoundscapeVolume *int            `yaml:"soundscape_volume"`
	Piper            PiperConfig     `yaml:"piper"`
	Speech           SpeechConfig    `yaml:"speech"`
	Espeak           EspeakConfig    `yaml:"espeak"`
	Breathing        BreathingConfig `yaml:"breathing"`
	Sleep            SleepConfig     `yaml:"sleep"`
	Guide            string          `yaml:"guide"` // auto, builtin or openai
	LLM              GuideConfig     `yaml:"llm"`
	KeepAwake        *bool           `yaml:"keep_awake"` // ask the OS not to sleep while a session plays; nil: yes
	Stats            StatsConfig     `yaml:"stats"`
	Safety           SafetyConfig    `yaml:"safety"`
}

// StatsConfig is what lull stats and the home screen show of the
// listener's practice.
type StatsConfig struct {
	// Streak shows the streak of days practised (it is shown unless
	// turned off: some people find streaks stressful).
	Streak *bool `yaml:"streak"`
}

// StreakOn reports whether the streak is shown.
func (s StatsConfig) StreakOn() bool { return s.Streak == nil || *s.Streak }

// PiperConfig points at a piper binary and a voice model.
type PiperConfig struct {
	Binary string `yaml:"binary"`
	Model  string `yaml:"model"`
}

// SpeechConfig is an OpenAI-compatible /v1/audio/speech server. The key
// never lives in this file: OPENAI_API_KEY goes to OpenAI only, and
// LULL_SPEECH_API_KEY to a server of your own.
type SpeechConfig struct {
	BaseURL string `yaml:"base_url"` // with the /v1
	Model   string `yaml:"model"`
	Voice   string `yaml:"voice"`
	Format  string `yaml:"format"` // wav or pcm
}

// EspeakConfig chooses espeak-ng's voice: auto (an installed mbrola
// English voice, else en-us+f2) or any voice espeak-ng lists, checked
// when a session sets up its voice.
type EspeakConfig struct {
	Voice string `yaml:"voice"`
}

// BreathingConfig is the breathing phase's rhythm, in seconds, and
// whether the pacer's tone sounds.
type BreathingConfig struct {
	Inhale  float64 `yaml:"inhale"`
	Hold    float64 `yaml:"hold"`
	Exhale  float64 `yaml:"exhale"`
	HoldOut float64 `yaml:"rest"`
	Tone    *bool   `yaml:"tone"`
}

// Pattern is the rhythm as the engine takes it.
func (b BreathingConfig) Pattern() engine.BreathPattern {
	s := func(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }
	return engine.BreathPattern{Inhale: s(b.Inhale), Hold: s(b.Hold), Exhale: s(b.Exhale), HoldOut: s(b.HoldOut)}
}

// breathingOf is pattern as the config writes it, in seconds.
func breathingOf(b engine.BreathPattern) BreathingConfig {
	return BreathingConfig{Inhale: b.Inhale.Seconds(), Hold: b.Hold.Seconds(), Exhale: b.Exhale.Seconds(), HoldOut: b.HoldOut.Seconds()}
}

// ToneOn reports whether the pacer's tone sounds (it does unless turned off).
func (b BreathingConfig) ToneOn() bool { return b.Tone == nil || *b.Tone }

// Defaults when the file says nothing.
var defaultConfig = Config{
	Length: 10, Voice: "auto", Soundscape: "brown",
	Breathing: breathingOf(engine.DefaultBreath),
}

// maxConfigSize is far more than any settings file needs.
const maxConfigSize = 64 << 10

// LoadConfig reads the config file; a missing file means the defaults.
// The file names programs lull runs (piper), so it is trusted only as
// session files are: the user's alone (a link, to a dotfiles folder say,
// is followed and what it leads to checked). An untrusted file is refused
// before anything in it is used.
func LoadConfig(path string) (Config, error) {
	cfg := defaultConfig
	data, err := sessions.ReadTrusted(path, maxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("the config %s: %w; nothing in it was used", path, err)
	}
	if err := decodeConfig(data, &cfg); err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	// A value lull cannot use is named with its line, as a key it does
	// not know is.
	lines := keyLines(data)
	at := func(key string) string {
		if l := lines[key]; l > 0 {
			return fmt.Sprintf("%s: line %d", path, l)
		}
		return path
	}
	if least, most := int(engine.MinLength.Minutes()), int(engine.MaxLength.Minutes()); cfg.Length != 0 && (cfg.Length < least || cfg.Length > most) {
		return cfg, fmt.Errorf("%s: length %d is not between %d and %d minutes", at("length"), cfg.Length, least, most)
	}
	if err := checkSound(cfg.Voice, ""); err != nil {
		return cfg, fmt.Errorf("%s: %w", at("voice"), err)
	}
	if err := checkSound("", cfg.Soundscape); err != nil {
		return cfg, fmt.Errorf("%s: %w", at("soundscape"), err)
	}
	if r := cfg.VoiceRate; r != nil && (*r == 0 || engine.CheckVoiceRate(*r) != nil) {
		return cfg, fmt.Errorf("%s: voice_rate %g: choose a factor of the normal pace from %g to %g (0.9 is a little slower, 1.1 a little quicker)",
			at("voice_rate"), *r, engine.MinVoiceRate, engine.MaxVoiceRate)
	}
	if v := cfg.SoundscapeVolume; v != nil && (*v < 0 || *v > engine.MaxVolume) {
		return cfg, fmt.Errorf("%s: soundscape_volume %d: choose a level from 0 (silent) to %d (%d is lull's own)",
			at("soundscape_volume"), *v, engine.MaxVolume, engine.DefaultVolume)
	}
	if err := cfg.Breathing.Pattern().Check(); err != nil {
		return cfg, fmt.Errorf("%s: breathing: %w", at("breathing"), err)
	}
	if a := cfg.Sleep.After; a != nil {
		if err := CheckSleepAfter(*a); err != nil {
			return cfg, fmt.Errorf("%s: sleep after: %w", at("sleep.after"), err)
		}
	}
	if f := cfg.Speech.Format; f != "" && f != "wav" && f != "pcm" {
		return cfg, fmt.Errorf("%s: speech format %q: choose wav or pcm", at("speech.format"), f)
	}
	if g := cfg.Guide; g != "" && g != "auto" && g != engine.GuideBuiltin && g != engine.GuideOpenAI {
		return cfg, fmt.Errorf("%s: guide %q: choose auto, builtin or openai", at("guide"), g)
	}
	if f := cfg.LLM.OnFailure; f != "" && f != "builtin" && f != "interrupt" {
		return cfg, fmt.Errorf("%s: llm on_failure %q: choose builtin (carry on with the built-in guide) or interrupt", at("llm.on_failure"), f)
	}
	if u := cfg.LLM.BaseURL; u != "" {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return cfg, fmt.Errorf("%s: llm base_url %q: give a URL like http://localhost:11434/v1", at("llm.base_url"), u)
		}
	}
	if u := cfg.Speech.BaseURL; u != "" {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return cfg, fmt.Errorf("%s: speech base_url %q: give a URL like http://localhost:8880/v1", at("speech.base_url"), u)
		}
	}
	return cfg, nil
}

// Voices is where the voices are, with the key taken from the
// environment: OpenAI's key only ever goes to OpenAI.
func (c Config) Voices(getenv func(string) string) audio.VoiceConfig {
	v := audio.VoiceConfig{
		Piper: audio.PiperConfig{Binary: c.Piper.Binary, Model: c.Piper.Model},
		Speech: audio.SpeechConfig{BaseURL: c.Speech.BaseURL, Model: c.Speech.Model,
			Voice: c.Speech.Voice, Format: c.Speech.Format},
		Espeak: audio.EspeakConfig{Voice: c.Espeak.Voice},
	}
	// Not endpoint's rule, which pairs OpenAI's key with OPENAI_BASE_URL for
	// the guide: see there why speech differs.
	switch base := c.Speech.BaseURL; {
	case !atOpenAI(base):
		v.Speech.APIKey = getenv("LULL_SPEECH_API_KEY")
	case base != "":
		v.Speech.APIKey = getenv("OPENAI_API_KEY")
	case atOpenAI(getenv("OPENAI_BASE_URL")):
		// An OPENAI_BASE_URL of another server (Ollama, say) is for the
		// guide; speech there needs its own base_url.
		v.Speech.APIKey = getenv("OPENAI_API_KEY")
		if v.Speech.APIKey != "" {
			v.Speech.BaseURL = llm.OpenAIBaseURL
		}
	}
	return v
}
