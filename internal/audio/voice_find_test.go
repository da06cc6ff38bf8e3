package audio

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// onlyOnPath makes PATH a directory holding just the named engines (they
// are never run here).
func onlyOnPath(t *testing.T, engines ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, e := range engines {
		installScript(t, dir, e, "exit 1")
	}
	t.Setenv("PATH", dir)
	t.Setenv("OPENAI_BASE_URL", "") // the guide's server: what the speech voice says of it is tested apart
	return dir
}

// piperSetUp is a piper binary with a model and its config.
func piperSetUp(t *testing.T) PiperConfig {
	t.Helper()
	dir := t.TempDir()
	model := filepath.Join(dir, "en_US-calm.onnx")
	for _, f := range []string{model, model + ".json"} {
		if err := os.WriteFile(f, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return PiperConfig{Binary: installScript(t, dir, "piper", "exit 1"), Model: model}
}

// chainNames are the voices a chain will try, in order.
func chainNames(t *testing.T, v Voice) []string {
	t.Helper()
	c, ok := v.(*chain)
	if !ok {
		t.Fatalf("findVoice gave a %T, want a chain", v)
	}
	var names []string
	for _, v := range c.voices {
		names = append(names, v.Name())
	}
	return names
}

func TestAutoPicksTheBestVoiceAvailable(t *testing.T) {
	server := SpeechConfig{BaseURL: "http://127.0.0.1:8880/v1"}
	for _, c := range []struct {
		name  string
		path  []string
		cfg   VoiceConfig
		piper bool
		want  []string
	}{
		{"espeak only", []string{"espeak-ng"}, VoiceConfig{}, false, []string{"espeak-ng"}},
		{"flite over espeak", []string{"espeak-ng", "flite"}, VoiceConfig{}, false, []string{"flite", "espeak-ng"}},
		{"say over flite", []string{"espeak-ng", "flite", "say"}, VoiceConfig{}, false, []string{"say", "flite", "espeak-ng"}},
		{"piper over say", []string{"espeak-ng", "say"}, VoiceConfig{}, true, []string{"piper", "say", "espeak-ng"}},
		{"a speech server first", []string{"flite"}, VoiceConfig{Speech: server}, true, []string{"openai", "piper", "flite"}},
		{"a key is enough", nil, VoiceConfig{Speech: SpeechConfig{APIKey: "sk-x"}}, false, []string{"openai"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			onlyOnPath(t, c.path...)
			if c.piper {
				c.cfg.Piper = piperSetUp(t)
			}
			for _, name := range []string{"auto", ""} {
				v, notices, err := findVoice(name, c.cfg, nil)
				if err != nil || len(notices) > 0 {
					t.Fatalf("%q: %v, notices %q", name, err, notices)
				}
				if got := chainNames(t, v); !slices.Equal(got, c.want) {
					t.Errorf("%q: voices %q, want %q", name, got, c.want)
				}
				if v.Name() != c.want[0] {
					t.Errorf("%q: named %q", name, v.Name())
				}
			}
		})
	}
}

func TestAnUnavailableChoiceFallsToTheNextWithANotice(t *testing.T) {
	for _, c := range []struct {
		asked  string
		path   []string
		cfg    VoiceConfig
		want   []string
		notice string
	}{
		{"flite", []string{"espeak-ng"}, VoiceConfig{}, []string{"espeak-ng"}, "flite is not installed; using espeak-ng."},
		{"espeak-ng", []string{"flite"}, VoiceConfig{}, []string{"flite"}, "espeak-ng is not installed; using flite."},
		{"say", []string{"espeak-ng", "flite"}, VoiceConfig{}, []string{"flite", "espeak-ng"}, "say is not installed (it comes with macOS); using flite."},
		{"piper", []string{"flite"}, VoiceConfig{}, []string{"flite"}, "piper is not set up: it needs a piper binary and a .onnx voice model; using flite."},
		{"piper", []string{"flite"}, VoiceConfig{Piper: PiperConfig{Binary: "piper", Model: "/nowhere/calm.onnx"}}, []string{"flite"},
			"piper was not found at piper; using flite."},
		{"openai", []string{"espeak-ng"}, VoiceConfig{}, []string{"espeak-ng"},
			"openai is not set up: give a speech server of your own (Kokoro, say) as speech.base_url in the config, or set OPENAI_API_KEY for OpenAI's; using espeak-ng."},
		// A local choice never gives way to a server nobody asked for.
		{"flite", []string{"espeak-ng"}, VoiceConfig{Speech: SpeechConfig{APIKey: "sk-x"}}, []string{"espeak-ng"},
			"flite is not installed; using espeak-ng."},
	} {
		onlyOnPath(t, c.path...)
		v, notices, err := findVoice(c.asked, c.cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := chainNames(t, v); !slices.Equal(got, c.want) {
			t.Errorf("%s: voices %q, want %q", c.asked, got, c.want)
		}
		if len(notices) != 1 || notices[0] != c.notice {
			t.Errorf("%s: notices %q, want %q", c.asked, notices, c.notice)
		}
	}
}

func TestAnAvailableChoiceComesFirstAndKeepsTheRestAsFallbacks(t *testing.T) {
	onlyOnPath(t, "espeak-ng", "flite", "say")
	v, notices, err := findVoice("espeak-ng", VoiceConfig{Speech: SpeechConfig{APIKey: "sk-x"}}, nil)
	if err != nil || len(notices) > 0 {
		t.Fatal(err, notices)
	}
	if got, want := chainNames(t, v), []string{"espeak-ng", "say", "flite"}; !slices.Equal(got, want) {
		t.Errorf("voices %q, want %q (the server is never a fallback)", got, want)
	}
}

func TestNoVoiceMeansTextWithAnInstallHint(t *testing.T) {
	onlyOnPath(t)
	v, notices, err := findVoice("auto", VoiceConfig{}, nil)
	if err != nil || v != nil {
		t.Fatalf("got %v, %v", v, err)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "sudo apt-get install espeak-ng flite") || !strings.Contains(notices[0], "text only") {
		t.Errorf("notices %q", notices)
	}
	v, notices, _ = findVoice("flite", VoiceConfig{}, nil)
	if v != nil || len(notices) != 1 || !strings.HasPrefix(notices[0], "flite is not installed; no other voice") {
		t.Errorf("flite with nothing installed: %v, %q", v, notices)
	}
}

func TestNoneIsSilentAndUnknownIsRefused(t *testing.T) {
	onlyOnPath(t, "espeak-ng")
	if v, notices, err := findVoice("none", VoiceConfig{}, nil); v != nil || notices != nil || err != nil {
		t.Errorf("none: %v, %q, %v", v, notices, err)
	}
	if _, _, err := findVoice("festival", VoiceConfig{}, nil); err == nil || !strings.Contains(err.Error(), "auto, openai, piper, say, flite, espeak-ng, none") {
		t.Errorf("festival: %v", err)
	}
}

func TestPiperNeedsItsModelAndConfig(t *testing.T) {
	onlyOnPath(t)
	cfg := piperSetUp(t)
	os.Remove(cfg.Model + ".json")
	v, notices, _ := findVoice("piper", VoiceConfig{Piper: cfg}, nil)
	if v != nil || len(notices) != 1 || !strings.Contains(notices[0], cfg.Model+".json is missing") {
		t.Errorf("got %v, %q", v, notices)
	}
}

func TestDescribeVoicesForDoctor(t *testing.T) {
	dir := onlyOnPath(t, "flite", "espeak-ng")
	const key = "sk-secret-key"
	infos := DescribeVoices(VoiceConfig{Speech: SpeechConfig{BaseURL: "http://me:hunter2@gpu.local:8880/v1", APIKey: key}})
	var names []string
	defaults := 0
	for _, in := range infos {
		names = append(names, in.Name)
		if in.Default {
			defaults++
		}
		if strings.Contains(in.Where+in.Note, key) || strings.Contains(in.Where, "hunter2") {
			t.Errorf("%s: a secret in %q / %q", in.Name, in.Where, in.Note)
		}
	}
	if want := []string{"openai", "piper", "say", "flite", "espeak-ng"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if defaults != 1 || !infos[0].Default || !infos[0].Available || infos[0].Where != "http://gpu.local:8880/v1" {
		t.Errorf("openai: %+v", infos[0])
	}
	if infos[1].Available || infos[1].Note == "" || infos[2].Available {
		t.Errorf("piper and say should be unavailable with a reason: %+v, %+v", infos[1], infos[2])
	}
	if fl := infos[3]; !fl.Available || fl.Where != filepath.Join(dir, "flite") || fl.Default {
		t.Errorf("flite: %+v", fl)
	}

	onlyOnPath(t, "espeak-ng")
	infos = DescribeVoices(VoiceConfig{})
	// Not set up, the speech voice names no server: not OpenAI's, nor
	// OPENAI_BASE_URL's, which is the guide's.
	if !infos[4].Default || infos[0].Available || infos[0].Where != "" || !strings.Contains(infos[0].Note, "speech.base_url") {
		t.Errorf("with espeak-ng only: %+v", infos)
	}
	t.Setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
	infos = DescribeVoices(VoiceConfig{})
	if n := infos[0].Note; infos[0].Available || infos[0].Where != "" || !strings.Contains(n, "OPENAI_BASE_URL is the guide's server") ||
		!strings.Contains(n, "speech.base_url") || !strings.Contains(n, "LULL_SPEECH_API_KEY") {
		t.Errorf("with OPENAI_BASE_URL: %+v", infos[0])
	}
}
