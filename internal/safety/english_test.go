package safety

import "testing"

func TestEnglish(t *testing.T) {
	for _, w := range []string{"a", "breathe", "shoulders", "colour", "color", "dont", "youre", "café", "fjord", "zygote"} {
		if !english(w) {
			t.Errorf("%q is not English", w)
		}
	}
	for _, w := range []string{"", "relaja", "schultern", "doucement", "entspann", "ghp", "respirez", "aaaaaa", "zzzzzzzzz"} {
		if english(w) {
			t.Errorf("%q is English", w)
		}
	}
}
