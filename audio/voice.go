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

// findVoice resolves a voice name to an installed engine. nil means text
// only; notice says why when the listener asked for more.
func findVoice(name string) (v Voice, notice string, err error) {
	if err := CheckVoice(name); err != nil && name != "" {
		return nil, "", err
	}
	switch name {
	case "none":
		return nil, "", nil
	case "", "auto", "espeak-ng":
		if path, err := exec.LookPath("espeak-ng"); err == nil {
			return &espeak{path: path}, "", nil
		}
		return nil, "No voice is installed (install espeak-ng: sudo apt-get install espeak-ng); the session is text only.", nil
	}
	return nil, "", nil
}
