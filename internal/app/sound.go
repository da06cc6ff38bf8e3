package app

import (
	"strings"

	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
)

// restoreSound sets the shared sound as the session was left: its volume,
// whether its voice is heard, the voice's pace and the soundscape's level. A new session plays at lull's own level
// with its voice on, whatever the last one in this process did. It says
// what differs from lull's own, once, so the listener knows why.
func restoreSound(p *audio.Player, st engine.State) []string {
	level := p.SetVolume(engine.VolumeLevel(st.Volume))
	p.SetVoiceOn(!st.VoiceOff)
	rate := p.SetVoiceRate(st.VoiceRate)
	scape := p.SetSoundscapeVolume(engine.VolumeLevel(st.SoundscapeVolume))
	var notes []string
	if level != engine.DefaultVolume {
		notes = append(notes, strings.TrimSuffix(engine.VolumeWords(level), ".")+", as you left it.")
	}
	// A new session's pace and soundscape level come from the config, and
	// are said only when a session comes back to them.
	if st.Status != engine.Created {
		if rate != 1 {
			notes = append(notes, strings.TrimSuffix(engine.VoiceRateWords(rate), ".")+", as you left it.")
		}
		if scape != engine.DefaultVolume {
			notes = append(notes, strings.TrimSuffix(engine.SoundscapeWords(scape), ".")+", as you left it.")
		}
	}
	if st.VoiceOff {
		notes = append(notes, "The voice is off, as you left it: the words go on, on screen; v turns it on.")
	}
	return notes
}
