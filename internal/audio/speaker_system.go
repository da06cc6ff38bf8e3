//go:build !android && !darwin && !js && !windows

package audio

import "github.com/jfreymuth/pulse"

// soundSystem names what the speaker plays through: the sound library
// tries a PulseAudio server first (PipeWire answers as one too) and falls
// back to ALSA's default device when none answers.
func soundSystem() string {
	c, err := pulse.NewClient(pulse.ClientApplicationName("lull doctor"))
	if err != nil {
		return "ALSA's default device"
	}
	c.Close()
	return "PulseAudio"
}
