package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A config's parse errors say the line and the key, never a value: a
// config that leads to some other file must not have its lines printed.
func TestConfigErrorsNeverQuoteTheFile(t *testing.T) {
	t.Parallel()
	const secret = "$6$s3cr3tSalt$HashHashHash"
	for text, want := range map[string]string{
		// A shadow file, and the like.
		"root:" + secret + ":19000:0:99999:7\ndaemon:*:19000:0:99999:7\n": "line 1: this is not a config file: it holds settings as key: value lines",
		"root:" + secret + ":19000:0:99999:7:::\nalice:x:1:\n":            "line 1: unknown key (not shown)",
		"- " + secret + "\n":                     "line 1: this is not a config file",
		secret + "\n":                            "line 1: this is not a config file",
		"alice: " + secret + "\n":                "line 1: unknown key alice (keys: length, voice,",
		"length: " + secret + "\n":               "line 1: key length: want a whole number",
		"breathing:\n  inhale: " + secret + "\n": "line 2: key breathing.inhale: want a number",
		"breathing:\n  " + secret + ": 4\n":      "line 2: unknown key (not shown) (keys under breathing: inhale, hold, exhale, rest, tone)",
		"breathing: " + secret + "\n":            "line 1: key breathing: want settings under it (keys: inhale, hold, exhale, rest, tone)",
		"breathing: {tone: " + secret + "}\n":    "line 1: key breathing.tone: want true or false",
		"voice: [" + secret + "]\n":              "line 1: key voice: want a word or text",
		"length: 10\nlength: 20\n":               "line 2: key length is set twice (first on line 1)",
		"x: &a " + secret + "\nvoice: *a\n":      "line 1: unknown key x",
		"voice: &a flite\nsoundscape: *a\n":      "line 1: key voice: lull's config takes no anchors or aliases",
		"voice: \"" + secret + "\n":              "not valid YAML",
		"voice: flite\n  " + secret + ": x\n":    "line 2: not valid YAML: mapping values are not allowed in this context",
		"length: 10\n\t" + secret + "\n":         "not valid YAML",
		"llm: {model: *xyz}\n":                   "not valid YAML",
	} {
		_, err := LoadConfig(writeConfig(t, text))
		if err == nil {
			t.Errorf("%q was accepted", text)
			continue
		}
		msg := err.Error()
		for _, leak := range []string{"s3cr3t", "HashHash", "$6$", "xyz"} {
			if strings.Contains(msg, leak) {
				t.Errorf("%q: the error quotes the file: %s", text, msg)
			}
		}
		if !strings.Contains(msg, want) {
			t.Errorf("%q: got %q, want %q", text, msg, want)
		}
	}
}

// Empty files and comments are the defaults; known settings still read.
func TestConfigEmptyOrCommentedIsTheDefaults(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"", "# nothing yet\n", "~\n", "---\n"} {
		cfg, err := LoadConfig(writeConfig(t, text))
		if err != nil || cfg.Length != defaultConfig.Length {
			t.Errorf("%q: %+v, %v", text, cfg, err)
		}
	}
	cfg, err := LoadConfig(writeConfig(t, "length: 20\nbreathing:\nllm:\n  private: true\n"))
	if err != nil || cfg.Length != 20 || !cfg.LLM.Private {
		t.Errorf("%+v, %v", cfg, err)
	}
}

// A config is a link to a dotfiles folder: read. A config someone else
// could write: refused, and nothing in it used.
func TestConfigTrust(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dotfiles := filepath.Join(dir, "dotfiles")
	os.Mkdir(dotfiles, 0o755)
	file := filepath.Join(dotfiles, "lull.yaml")
	os.WriteFile(file, []byte("length: 20\npiper: {binary: /bin/false, model: /x.onnx}\n"), 0o600)
	link := filepath.Join(dir, "config.yaml")
	os.Symlink(file, link)
	cfg, err := LoadConfig(link)
	if err != nil || cfg.Length != 20 {
		t.Fatalf("a config linked to dotfiles: %+v, %v", cfg, err)
	}
	os.Chmod(file, 0o666)
	cfg, err = LoadConfig(link)
	if err == nil || !strings.Contains(err.Error(), "the config "+link+": it is writable by its group and everyone (mode 0666)") ||
		!strings.Contains(err.Error(), "nothing in it was used") {
		t.Errorf("an untrusted config: %v", err)
	}
	if cfg.Piper.Binary != "" || cfg.Length != defaultConfig.Length {
		t.Errorf("settings from an untrusted config were kept: %+v", cfg)
	}
}
