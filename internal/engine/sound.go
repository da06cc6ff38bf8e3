package engine

import (
	"fmt"
	"math"
)

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
func VolumeWords(level int) string { return levelWords("Volume", level) }

// levelWords says what is at level, on the volume's scale.
func levelWords(what string, level int) string {
	switch {
	case level <= 0:
		return fmt.Sprintf("%s 0 of %d: silent.", what, MaxVolume)
	case level == DefaultVolume:
		return fmt.Sprintf("%s %d of %d: lull's own level.", what, level, MaxVolume)
	default:
		return fmt.Sprintf("%s %d of %d: %+d dB.", what, level, MaxVolume, VolumeStepDB*VolumeSteps(level))
	}
}

// SetVolume records the volume level the listener chose, so the session
// resumes at it.
func (e *Engine) SetVolume(level int) {
	e.keepSound(func(st *State) { st.Volume = VolumeSteps(min(max(level, 0), MaxVolume)) })
}

// keepSound records a change the listener made to the sound, and saves
// it: a resumed session plays as it was left.
func (e *Engine) keepSound(set func(*State)) {
	e.mu.Lock()
	set(&e.st)
	e.mu.Unlock()
	e.checkpoint()
}

// SetVoiceOff records whether the listener turned the voice off, so a
// resumed session keeps it off.
func (e *Engine) SetVoiceOff(off bool) {
	e.keepSound(func(st *State) { st.VoiceOff = off })
}

// The voice's rate: a factor of the normal pace the listener chose, on
// top of each phase's own (Phase.Rate) and each line's delivery. These
// are its bounds and its step, the one source of them: the config, the
// session file and the keys all hold to them.
const (
	MinVoiceRate  = 0.8
	MaxVoiceRate  = 1.2
	VoiceRateStep = 0.05
)

// VoiceRateOr1 is a saved rate as it plays: 0 (never set) is the normal
// pace.
func VoiceRateOr1(r float64) float64 {
	if r == 0 {
		return 1
	}
	return r
}

// ClampVoiceRate holds a rate to its bounds, on the step (so repeated
// steps never drift to 0.8999…).
func ClampVoiceRate(r float64) float64 {
	r = math.Round(r/VoiceRateStep) * VoiceRateStep
	return math.Round(min(max(r, MinVoiceRate), MaxVoiceRate)*100) / 100
}

// CheckVoiceRate refuses a rate outside its bounds; 0 is unset, the
// normal pace.
func CheckVoiceRate(r float64) error {
	if r == 0 {
		return nil
	}
	if math.IsNaN(r) || r < MinVoiceRate || r > MaxVoiceRate {
		return fmt.Errorf("voice rate %g is outside %g–%g (1 is the normal pace; 0.9 a little slower)", r, MinVoiceRate, MaxVoiceRate)
	}
	return nil
}

// VoiceRateWords says a rate as the listener hears it.
func VoiceRateWords(r float64) string {
	r = VoiceRateOr1(r)
	switch {
	case r == 1:
		return "Voice pace 1.00: the normal pace."
	case r < 1:
		return fmt.Sprintf("Voice pace %.2f: slower.", r)
	default:
		return fmt.Sprintf("Voice pace %.2f: quicker.", r)
	}
}

// SoundscapeWords says the soundscape's level, on the volume's scale, as
// the listener hears it.
func SoundscapeWords(level int) string { return levelWords("Soundscape", level) }

// SetVoiceRate records the voice's rate the listener chose, so the
// session resumes at it.
func (e *Engine) SetVoiceRate(r float64) {
	r = ClampVoiceRate(VoiceRateOr1(r))
	if r == 1 {
		r = 0
	}
	e.keepSound(func(st *State) { st.VoiceRate = r })
}

// SetSoundscapeVolume records the soundscape's level the listener chose
// (apart from the volume, which is everything's), so the session resumes
// at it.
func (e *Engine) SetSoundscapeVolume(level int) {
	e.keepSound(func(st *State) { st.SoundscapeVolume = VolumeSteps(min(max(level, 0), MaxVolume)) })
}
