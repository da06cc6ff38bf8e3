package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"gopkg.in/yaml.v3"
)

// Config is the user's settings file: defaults for new sessions.
type Config struct {
	Length     int    `yaml:"length"`     // minutes
	Voice      string `yaml:"voice"`      // auto, espeak-ng, none
	Soundscape string `yaml:"soundscape"` // brown, none
}

// Defaults when the file says nothing.
var defaultConfig = Config{Length: 10, Voice: "auto", Soundscape: "brown"}

// LoadConfig reads the config file; a missing file means the defaults.
func LoadConfig(path string) (Config, error) {
	cfg := defaultConfig
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("reading %s: %w", path, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return cfg, fmt.Errorf("%s: %w (keys: length, voice, soundscape)", path, err)
	}
	if cfg.Length != 0 && (cfg.Length < 5 || cfg.Length > 60) {
		return cfg, fmt.Errorf("%s: length %d is not between 5 and 60 minutes", path, cfg.Length)
	}
	if err := checkChoice("voice", cfg.Voice, Voices); err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	if err := checkChoice("soundscape", cfg.Soundscape, Soundscapes); err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}
