package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/llm"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConfigReadsEverySetting(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig(writeConfig(t, `
length: 20
voice: flite
soundscape: rain
piper: {binary: /opt/piper/piper, model: /opt/piper/amy.onnx}
speech: {base_url: "http://localhost:8880/v1", model: kokoro, voice: af_sky, format: pcm}
breathing: {inhale: 4, hold: 4, exhale: 4, rest: 4, tone: false}
voice_rate: 0.9
soundscape_volume: 7
`))
	if err != nil {
		t.Fatal(err)
	}
	if *cfg.VoiceRate != 0.9 || *cfg.SoundscapeVolume != 7 {
		t.Errorf("voice_rate %v, soundscape_volume %v", *cfg.VoiceRate, *cfg.SoundscapeVolume)
	}
	if cfg.Length != 20 || cfg.Voice != "flite" || cfg.Soundscape != "rain" || cfg.Piper.Model != "/opt/piper/amy.onnx" ||
		cfg.Speech.Voice != "af_sky" || cfg.Speech.Format != "pcm" {
		t.Errorf("read %+v", cfg)
	}
	if p := cfg.Breathing.Pattern(); p.Period() != 16*time.Second || cfg.Breathing.ToneOn() {
		t.Errorf("breathing %+v, tone %v", p, cfg.Breathing.ToneOn())
	}
	def, err := LoadConfig(filepath.Join(t.TempDir(), "none.yaml"))
	if err != nil || def.Breathing.Pattern().Period() != 12*time.Second || !def.Breathing.ToneOn() {
		t.Errorf("defaults: %+v, %v", def.Breathing, err)
	}
}

func TestConfigRefusesWhatItCannotUse(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"lenght: 10\n":            "line 1: unknown key lenght (keys: length, voice,",
		"length: 3\n":             "between 5 and 60",
		"voice: robot\n":          "unknown voice",
		"soundscape: waterfall\n": "unknown soundscape",
		"breathing: {inhale: 4, hold: 20, exhale: 6}\n": "hold",
		"breathing: {inhale: 0.5, exhale: 6}\n":         "inhale",
		"speech: {format: mp3}\n":                       "wav or pcm",
		"voice_rate: 1.5\n":                             "line 1: voice_rate 1.5: choose a factor of the normal pace from 0.8 to 1.2",
		"voice_rate: 0\n":                               "from 0.8 to 1.2",
		"soundscape_volume: 13\n":                       "line 1: soundscape_volume 13: choose a level from 0 (silent) to 12",
		"speech: {base_url: localhost:8880}\n":          "base_url",
	} {
		_, err := LoadConfig(writeConfig(t, text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error about %q", text, err, want)
		}
	}
}

// OpenAI's key goes to OpenAI and nowhere else.
func TestSpeechKeyGoesOnlyWhereItBelongs(t *testing.T) {
	t.Parallel()
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	const openaiKey, ownKey = "sk-openai", "own-key"
	cases := []struct {
		name    string
		base    string
		vars    map[string]string
		wantKey string
		wantURL string
	}{
		{"OpenAI by key", "", map[string]string{"OPENAI_API_KEY": openaiKey}, openaiKey, "https://api.openai.com/v1"},
		{"no key, no server", "", map[string]string{}, "", ""},
		{"own server", "http://localhost:8880/v1", map[string]string{"OPENAI_API_KEY": openaiKey, "LULL_SPEECH_API_KEY": ownKey}, ownKey, "http://localhost:8880/v1"},
		{"own server, no key", "http://localhost:8880/v1", map[string]string{"OPENAI_API_KEY": openaiKey}, "", "http://localhost:8880/v1"},
		{"OpenAI named", "https://api.openai.com/v1", map[string]string{"OPENAI_API_KEY": openaiKey}, openaiKey, "https://api.openai.com/v1"},
		{"a guide's Ollama", "", map[string]string{"OPENAI_API_KEY": openaiKey, "OPENAI_BASE_URL": "http://localhost:11434/v1"}, "", ""},
	}
	for _, c := range cases {
		v := Config{Speech: SpeechConfig{BaseURL: c.base}}.Voices(env(c.vars))
		if v.Speech.APIKey != c.wantKey || v.Speech.BaseURL != c.wantURL {
			t.Errorf("%s: key %q to %q, want %q to %q", c.name, v.Speech.APIKey, v.Speech.BaseURL, c.wantKey, c.wantURL)
		}
	}
}

func TestConfigGuideSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		yaml, want string
	}{
		{"guide: openai\nllm:\n  model: gpt-4.1\n  private: true\n  on_failure: interrupt\n", ""},
		{"guide: gemini\n", "choose auto, builtin or openai"},
		{"llm:\n  on_failure: panic\n", "on_failure"},
		{"llm:\n  base_url: localhost:11434\n", "base_url"},
		{"llm:\n  api_key: sk-123\n", "api_key"},
	} {
		path := filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(path)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q: %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

// safety.guard is auto, off, or a model under it; the choice reaches the
// LLM guide.
func TestConfigGuardSetting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		yaml string
		want GuardSetting
		err  string
	}{
		{"", GuardSetting{}, ""},
		{"safety:\n  guard: auto\n", GuardSetting{}, ""},
		{"safety:\n  guard: off\n", GuardSetting{Off: true}, ""},
		{"safety:\n  guard:\n    model: llama-guard3\n", GuardSetting{Model: "llama-guard3"}, ""},
		{"safety: {guard: {model: \"granite3-guardian:2b\"}}\n", GuardSetting{Model: "granite3-guardian:2b"}, ""},
		{"safety:\n  guard: on\n", GuardSetting{}, "line 2: key safety.guard: want auto, off, or a model"},
		{"safety:\n  guard: true\n", GuardSetting{}, "want auto, off"},
		{"safety:\n  guard:\n    name: llama-guard3\n", GuardSetting{}, "want auto, off, or a model under it"},
		{"safety:\n  guard:\n    model: [a, b]\n", GuardSetting{}, "line 3: key safety.guard.model: want a model's name"},
		{"safety:\n  guard:\n    model: llama-guard3\n    temperature: 0\n", GuardSetting{}, "want auto, off"},
		{"safety:\n  screen: off\n", GuardSetting{}, "unknown key safety.screen"},
	} {
		cfg, err := LoadConfig(writeConfig(t, tc.yaml))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.yaml, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, want an error about %q", tc.yaml, err, tc.err)
		case tc.err == "" && cfg.Safety.Guard != tc.want:
			t.Errorf("%q: read %+v, want %+v", tc.yaml, cfg.Safety.Guard, tc.want)
		}
	}
	cfg, _ := LoadConfig(writeConfig(t, "safety:\n  guard:\n    model: llama-guard3\n"))
	ch, err := ChooseGuide(cfg, GuideFlags{}, func(k string) string {
		return map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"}[k]
	})
	if err != nil || ch.LLM.Guard != (llm.Guard{Model: "llama-guard3"}) || ch.LLM.Moderate {
		t.Errorf("chose %+v (%v): want the guard model, and no moderation on a local server", ch.LLM, err)
	}
}
