package safety

import "testing"

func TestBreathBounds(t *testing.T) {
	for _, c := range []struct {
		text string
		over bool
	}{
		{"Hold for 15 seconds.", true},
		{"Hold 16.", true},
		{"Fill up in four, hold in twenty, let go in eight.", true},
		{"Box breathing: in 8, hold 8, out 8, hold 8.", true},
		{"Gently fill your lungs over a slow count of fourteen.", true},
		{"Let the air rest inside you for a full thirty seconds, calm as a pond.", true},
		{"Inhale... 2... 3... 4... 5... 6... 7... 8... 9... 10... 11... 12...", true},
		{"Hold the breath for half a minute.", true},
		{"Breathe out for a count of twelve.", true},
		{"Hold your breath for a full minute.", true},
		{"Breathe in for four, hold for seven, and out for eight.", false},
		{"Four in, seven hold, eight out, if it feels okay.", false},
		{"Hold for two, softly.", false},
		{"There is no need to hold your breath for ten seconds.", false},
		{"Keep breathing like this for a minute or so, slow and steady.", false},
		{"Hold your attention on the breath for thirty seconds or so.", false},
		{"Rest for a minute with your natural breath.", false},
		{"Breathe naturally for the next twenty minutes.", false},
		{"Count ten slow breaths, then rest.", false},
		{"Count down from a hundred with each breath out.", false},
		{"Breathe in and out twenty times, slowly.", false},
		{"Feel the ground holding you a little more than a minute ago.", false},
		{"Let the exhale last for ten.", false},
	} {
		if got := beyondBounds(c.text) != ""; got != c.over {
			t.Errorf("%q: beyond the bounds %v, want %v", c.text, got, c.over)
		}
	}
}
