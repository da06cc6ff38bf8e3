//go:build android || darwin || js || windows

package audio

import (
	"runtime"
	"time"
)

// soundSystem names what the speaker plays through.
func soundSystem() string {
	switch runtime.GOOS {
	case "darwin":
		return "CoreAudio"
	case "windows":
		return "WASAPI"
	}
	return "the system's sound device"
}

// deviceBuffer is the speaker's buffer: speakerBuffer, as no PulseAudio
// server is spoken to here.
func deviceBuffer() time.Duration { return speakerBuffer }
