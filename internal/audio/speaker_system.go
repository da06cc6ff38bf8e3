//go:build !android && !darwin && !js && !windows

package audio

import (
	"time"

	"github.com/jfreymuth/pulse"
)

// soundSystem names what the speaker plays through: the sound library
// tries a PulseAudio server first (PipeWire answers as one too) and falls
// back to ALSA's default device when none answers.
func soundSystem() string {
	if pulseAnswers("lull doctor") {
		return "PulseAudio"
	}
	return "ALSA's default device"
}

// deviceBuffer is the speaker's buffer for the sound system that will
// play it: pulseBuffer where a PulseAudio server answers, as the sound
// library will then play through it, else speakerBuffer.
func deviceBuffer() time.Duration {
	if pulseAnswers("lull") {
		return pulseBuffer
	}
	return speakerBuffer
}

// pulseAnswers says whether a PulseAudio server takes a connection.
func pulseAnswers(name string) bool {
	c, err := pulse.NewClient(pulse.ClientApplicationName(name))
	if err != nil {
		return false
	}
	c.Close()
	return true
}
