package audio

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/gopxl/beep/v2"

	"lull/engine"
)

// Voice turns a sentence into speech in the phase's style: mono samples
// at the output rate, so the clip's duration is known before it plays.
type Voice interface {
	Name() string
	Speak(ctx context.Context, text string, p engine.Phase, rate beep.SampleRate) ([]float32, error)
}

// Voices are the names a listener can choose: auto picks the best one
// installed; none is text only.
var Voices = []string{"auto", "espeak-ng", "none"}

// CheckVoice refuses a voice name lull does not know.
func CheckVoice(name string) error {
	for _, v := range Voices {
		if v == name {
			return nil
		}
	}
	return fmt.Errorf("unknown voice %q (choose %s)", name, strings.Join(Voices, ", "))
}

// VoiceConfig is what the voices need beyond their names: where piper and
// its model are, and which OpenAI-compatible speech server to use.
type VoiceConfig struct {
	Piper  PiperConfig
	Speech SpeechConfig
}

// PiperConfig points at a piper binary and a voice model (.onnx).
type PiperConfig struct{ Binary, Model string }

// SpeechConfig is an OpenAI-compatible /v1/audio/speech endpoint. The key
// is never written anywhere.
type SpeechConfig struct{ BaseURL, APIKey, Model, Voice string }

// findVoice resolves a voice name to an installed engine. nil means text
// only; notices say why when the listener asked for more. notify is told
// later, mid-session, when a voice fails and another takes over.
func findVoice(name string, cfg VoiceConfig, notify func(string)) (v Voice, notices []string, err error) {
	if err := CheckVoice(name); err != nil && name != "" {
		return nil, nil, err
	}
	switch name {
	case "none":
		return nil, nil, nil
	case "", "auto", "espeak-ng":
		if path, err := exec.LookPath("espeak-ng"); err == nil {
			return &espeak{path: path}, nil, nil
		}
		return nil, []string{"No voice is installed (install espeak-ng: sudo apt-get install espeak-ng); the session is text only."}, nil
	}
	return nil, nil, nil
}
