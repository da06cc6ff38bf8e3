package engine

import "testing"

func TestMoodChangeSaysWhatWasGiven(t *testing.T) {
	for _, c := range []struct {
		before, after int
		want          string
	}{
		{2, 4, "2 (uneasy) → 4 (good)"},
		{1, 0, "before 1 (low)"},
		{0, 5, "after 5 (very good)"},
		{0, 0, ""},
		{9, 0, ""},
	} {
		if got := MoodChange(c.before, c.after); got != c.want {
			t.Errorf("MoodChange(%d, %d) = %q, want %q", c.before, c.after, got, c.want)
		}
	}
}

// The volume is said as a level and in decibels, never as a percentage
// the gain is not (a 3 dB step is ×1.41 in amplitude).
func TestVolumeWords(t *testing.T) {
	for level, want := range map[int]string{
		0: "Volume 0 of 12: silent.", 7: "Volume 7 of 12: -9 dB.", 10: "Volume 10 of 12: lull's own level.", 12: "Volume 12 of 12: +6 dB.",
	} {
		if got := VolumeWords(level); got != want {
			t.Errorf("VolumeWords(%d) = %q, want %q", level, got, want)
		}
	}
	if CheckVolume(2) != nil || CheckVolume(-10) != nil || CheckVolume(3) == nil || CheckVolume(-11) == nil {
		t.Error("CheckVolume's bounds are not the scale's")
	}
}
