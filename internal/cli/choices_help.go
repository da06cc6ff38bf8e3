package cli

import (
	"strings"

	"github.com/lull-dev/lull/internal/audio"
)

// The help of every flag that takes a voice or a soundscape lists the
// names audio knows, so a new voice or soundscape is never missing from
// --help.

// voiceUsage is the help of a --voice flag.
func voiceUsage() string {
	return "voice: " + orList(audio.Voices) + " (auto: the best available; none: the words on screen only)"
}

// soundscapeUsage is the help of a --soundscape flag.
func soundscapeUsage() string {
	return "soundscape: " + orList(audio.Soundscapes)
}

// orList is "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
