package cli

import (
	"os"
	"runtime"

	"github.com/lull-dev/lull/internal/human"
)

// soundAdvice says how to get sound where no device opened, for the
// machine lull runs on: over SSH the sound would play on the far machine,
// in a container there is no sound card unless the host's sound server is
// shared, and otherwise lull wants a sound server (PulseAudio, or PipeWire
// answering as PulseAudio) or ALSA. goos, getenv and exists stand for the
// system's (tests give others).
func soundAdvice(goos string, getenv func(string) string, exists func(string) bool) []string {
	render := human.Command("render --length 10 --out calm.wav")
	switch goos {
	case "darwin":
		return []string{"Check the output device in System Settings, Sound; or render a session and play it elsewhere: " + render + "."}
	case "windows":
		return []string{"Check the output device in Settings, System, Sound; or render a session and play it elsewhere: " + render + "."}
	}
	var advice []string
	if getenv("SSH_CONNECTION") != "" || getenv("SSH_CLIENT") != "" || getenv("SSH_TTY") != "" {
		advice = append(advice, "You are connected over SSH: sound would play on this machine, not the one in front of you. "+
			"Render the session here and play it where you are: "+render+", then copy calm.wav over (scp) and play it.")
	}
	if exists("/.dockerenv") || exists("/run/.containerenv") || getenv("container") != "" {
		advice = append(advice, "lull runs in a container, which has no sound card: share the host's PulseAudio or PipeWire socket "+
			"(docker run -v $XDG_RUNTIME_DIR/pulse/native:/tmp/pulse.sock -e PULSE_SERVER=unix:/tmp/pulse.sock …), "+
			"or render here and play the file on the host: "+render+".")
	}
	return append(advice, "lull plays through PulseAudio, or PipeWire answering as PulseAudio (pipewire-pulse), else ALSA's default device: "+
		"start one (systemctl --user start pipewire-pulse, or pulseaudio --start); pactl info says whether one answers.")
}

// onThisMachine is soundAdvice for the machine lull runs on.
func onThisMachine() []string {
	return soundAdvice(runtime.GOOS, os.Getenv, func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	})
}
