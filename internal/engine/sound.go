package engine

import "fmt"

// The volume scale: levels 0–MaxVolume in steps of VolumeStepDB, level
// DefaultVolume being lull's own and 0 silence. The audio plays these
// levels; the listener's choice is kept in State.Volume as steps from
// DefaultVolume, so a session that never changed it holds 0.
const (
	DefaultVolume = 10
	MaxVolume     = 12 // +6 dB
	VolumeStepDB  = 3
)

// VolumeLevel is the level a session's saved Volume plays at.
func VolumeLevel(steps int) int { return DefaultVolume + steps }

// VolumeSteps is the saved form of a level.
func VolumeSteps(level int) int { return level - DefaultVolume }

// CheckVolume refuses a saved volume off the scale.
func CheckVolume(steps int) error {
	if l := VolumeLevel(steps); l < 0 || l > MaxVolume {
		return fmt.Errorf("volume %d steps from lull's own level is off the scale (%d to +%d)", steps, -DefaultVolume, MaxVolume-DefaultVolume)
	}
	return nil
}

// VolumeWords says a level as the listener hears it: a level on the scale
// and what it is in decibels from lull's own, not a percentage the gain
// is not.
func VolumeWords(level int) string {
	switch {
	case level <= 0:
		return fmt.Sprintf("Volume 0 of %d: silent.", MaxVolume)
	case level == DefaultVolume:
		return fmt.Sprintf("Volume %d of %d: lull's own level.", level, MaxVolume)
	default:
		return fmt.Sprintf("Volume %d of %d: %+d dB.", level, MaxVolume, VolumeStepDB*VolumeSteps(level))
	}
}

// SetVolume records the volume level the listener chose, so the session
// resumes at it.
func (e *Engine) SetVolume(level int) {
	e.mu.Lock()
	e.st.Volume = VolumeSteps(min(max(level, 0), MaxVolume))
	e.mu.Unlock()
	e.checkpoint()
}

// SetVoiceOff records whether the listener turned the voice off, so a
// resumed session keeps it off.
func (e *Engine) SetVoiceOff(off bool) {
	e.mu.Lock()
	e.st.VoiceOff = off
	e.mu.Unlock()
	e.checkpoint()
}
