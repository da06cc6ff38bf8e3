package app

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestConfigSleepAfter(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]time.Duration{
		"":                    30 * time.Minute,
		"sleep:\n":            30 * time.Minute,
		"sleep: {after: 45}":  45 * time.Minute,
		"sleep: {after: 0}":   0,
		"sleep: {after: 120}": 120 * time.Minute,
	} {
		cfg, err := LoadConfig(writeConfig(t, text))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := cfg.Sleep.Tail(); got != want {
			t.Errorf("%q: the sound plays on %v, want %v", text, got, want)
		}
	}
	if cfg, err := LoadConfig(filepath.Join(t.TempDir(), "none.yaml")); err != nil || cfg.Sleep.Tail() != 30*time.Minute {
		t.Errorf("no config file: %v, %v", cfg.Sleep.Tail(), err)
	}
	for text, want := range map[string]string{
		"sleep: {after: 121}\n":  "sleep after: 121 minutes: the sound plays on for 0 to 120 minutes after the last word (0 stops it with the words)",
		"sleep: {after: -5}\n":   "sleep after: -5 minutes",
		"sleep: {after: half}\n": "line 1: key sleep.after: want a whole number",
		"sleep: {after: 1.5}\n":  "key sleep.after: want a whole number",
		"sleep: 30\n":            "key sleep: want settings under it (keys: after)",
		"sleep: {afer: 30}\n":    "unknown key sleep.afer (keys under sleep: after)",
	} {
		_, err := LoadConfig(writeConfig(t, text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error saying %q", text, err, want)
		}
	}
}
