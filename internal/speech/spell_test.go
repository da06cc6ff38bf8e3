package speech

import "testing"

func TestSpellWritesOutWhatAVoiceMisreads(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Breathe in for 4 seconds.", "Breathe in for four seconds."},
		{"Breathe in for 4s, 3x.", "Breathe in for four seconds, three times."},
		{"Try the 4-7-8 rhythm.", "Try the four-seven-eight rhythm."},
		{"Rest for 3-4 breaths.", "Rest for three to four breaths."},
		{"Hold for 4.5 seconds.", "Hold for four and a half seconds."},
		{"Stay here for 10 min.", "Stay here for ten minutes."},
		{"Breathe in/out slowly.", "Breathe in or out slowly."},
		{"Repeat x2.", "Repeat twice."},
		{"Set it down by 10:30 pm.", "Set it down by ten thirty in the evening."},
		{"About 1/2 of the breath.", "About a half of the breath."},
		{"Let 100% of your weight sink.", "Let one hundred percent of your weight sink."},
		{"Count to 1,000 if you like.", "Count to one thousand if you like."},
		{"Notice the 1st breath, then the 2nd.", "Notice the first breath, then the second."},
		{"Soft sounds, e.g. rain.", "Soft sounds, for example, rain."},
		{"Count 3, 4, 5.", "Count three, four, five."},
		{"Breathe ~6 seconds & rest.", "Breathe about six seconds and rest."},
		{"Seventy-three breaths.", "Seventy-three breaths."},
		{"A breath of 25 counts.", "A breath of twenty-five counts."},
	} {
		if got := Spoken(c.in); got != c.want {
			t.Errorf("Spoken(%q) = %q, want %q", c.in, got, c.want)
		}
		if again := Spoken(Spoken(c.in)); again != Spoken(c.in) {
			t.Errorf("spoken twice, %q became %q", Spoken(c.in), again)
		}
	}
}
