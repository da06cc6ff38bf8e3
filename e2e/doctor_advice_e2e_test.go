//go:build unix

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 26: lull doctor says how to get sound where there is none (a
// sound server; over SSH, render and play the file where you are), gives
// piper and Kokoro the lines to put in the config, and with
// OPENAI_BASE_URL set (the guide's server) says what speech needs instead
// of asking for a key in the config.
func TestDoctorAdvisesHowToGetSoundAndVoices(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	env := []string{"PULSE_SERVER=unix:/nonexistent/native", "SSH_CONNECTION=10.0.0.1 50000 10.0.0.2 22",
		"OPENAI_BASE_URL=http://localhost:11434/v1"}
	out, errOut, err := lullEnv(t, home, env, time.Minute, "doctor")
	if err != nil {
		t.Fatalf("doctor: %v\n%s%s", err, out, errOut)
	}
	if strings.Contains(out, "device  ok:") {
		t.Skip("this machine has a sound device: the advice for none is not shown")
	}
	text := flat(out)
	for _, want := range []string{
		"connected over SSH", "lull render --length 10 --out calm.wav", "copy calm.wav over",
		"PulseAudio, or PipeWire answering as PulseAudio", "pactl info",
		"OPENAI_BASE_URL is the guide's server; for speech give speech.base_url in the config", "LULL_SPEECH_API_KEY",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("doctor does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(text, "API key in the config") {
		t.Errorf("doctor asks for a key in the config:\n%s", out)
	}
	// The snippets, as lines to paste.
	for _, want := range []string{"    piper:\n      binary: ", "\n      model: ",
		"    speech:\n      base_url: http://localhost:8880/v1\n      model: kokoro\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor does not give the config %q:\n%s", want, out)
		}
	}

	js, _, err := lullEnv(t, home, env, time.Minute, "doctor", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Sound struct {
			Advice []string `json:"advice"`
		} `json:"sound"`
		Better []struct {
			Voice  string `json:"voice"`
			Config string `json:"config"`
		} `json:"better_voices"`
	}
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("%v:\n%s", err, js)
	}
	if len(r.Sound.Advice) < 2 || len(r.Better) < 2 || r.Better[1].Voice != "Kokoro" || !strings.HasPrefix(r.Better[1].Config, "speech:\n") {
		t.Errorf("doctor --json: %+v", r)
	}

	// With Kokoro set up as the speech server, auto speaks with it, and
	// Kokoro is no longer advised.
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte("speech:\n  base_url: http://localhost:8880/v1\n  model: kokoro\n  voice: af_sky\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err = lullEnv(t, home, env, time.Minute, "doctor")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "* openai") || !strings.Contains(out, "http://localhost:8880/v1") || !strings.Contains(out, "model kokoro, voice af_sky") ||
		strings.Contains(out, "Kokoro-FastAPI") {
		t.Errorf("with Kokoro set up:\n%s", out)
	}
}
