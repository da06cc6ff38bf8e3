package cli

import (
	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/human"
)

// The help of every flag that takes a voice or a soundscape lists the
// names audio knows, so a new voice or soundscape is never missing from
// --help.

// voiceUsage is the help of a --voice flag.
func voiceUsage() string {
	return "voice: " + human.OrList(audio.Voices) + " (auto: the best available; none: the words on screen only)"
}

// soundscapeUsage is the help of a --soundscape flag.
func soundscapeUsage() string {
	return "soundscape: " + human.OrList(audio.Soundscapes)
}
