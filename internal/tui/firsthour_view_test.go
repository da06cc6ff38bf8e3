package tui

import "testing"

// Golden views of issue 26's screen fixes, light and dark, at 80×24 and
// 40×12: the voice named over the keys and the lasting mark of a sound
// that is off.
func TestFirstHourGoldenViews(t *testing.T) {
	for _, dark := range []bool{true, false} {
		suffix := "_dark"
		if !dark {
			suffix = "_light"
		}
		views := map[string]Model{
			"session_voice":           soundModel(80, 24, "auto", soundNow{true, "flite", true, 10}),
			"session_no_voice":        soundModel(80, 24, "auto", soundNow{true, "none", true, 10}),
			"session_voice_off_small": soundModel(40, 12, "auto", soundNow{true, "flite", false, 10}),
			"session_muted_small":     soundModel(40, 12, "auto", soundNow{true, "flite", true, 0}),
		}
		for name, m := range views {
			t.Run(name+suffix, func(t *testing.T) {
				golden(t, name+suffix, styled(m, dark).View().Content)
			})
		}
	}
}
