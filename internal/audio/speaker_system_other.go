//go:build android || darwin || js || windows

package audio

import "runtime"

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
