package engine

import "testing"

func TestSafetyRules(t *testing.T) {
	cases := []struct {
		text string
		want Category // empty: spoken
	}{
		// What a relaxation script says all the time must pass.
		{"Breathe in slowly through your nose, for a count of four.", ""},
		{"Hold the breath gently for two counts, then let it go.", ""},
		{"Hold for a count of seven, if that feels comfortable.", ""},
		{"Hold it for four seconds, softly.", ""},
		{"At the end of the out-breath, rest for a moment.", ""},
		{"Let your shoulders drop, and feel the tension leave your body.", ""},
		{"Notice the weight of your hands resting in your lap.", ""},
		{"You might imagine the warm sun on the hills of Sussex.", ""},
		{"Let the day's worries drift away like leaves on a stream.", ""},
		{"Your breath can slow down, and nothing needs to hurry.", ""},
		{"Dr. Lee's garden was quiet in the evening light.", ""},
		{"Let yourself rest, there is nowhere to be.", ""},

		// Self-harm.
		{"Some days you may want to end your life.", SelfHarm},
		{"If you want to die, that is fine.", SelfHarm},
		{"Think about hurting yourself.", SelfHarm},
		{"Suicidal thoughts can drift by.", SelfHarm},
		{"Drift into sleep and never wake up.", SelfHarm},
		{"An overdose of calm.", SelfHarm},

		// Explicit content.
		{"Feel your naked body on the sheets.", Explicit},
		{"Let a sexual warmth rise in you.", Explicit},
		{"Slowly begin touching yourself.", Explicit},
		{"Undress in your mind, one layer at a time.", Explicit},

		// Medical claims. The rules lean toward dropping: a benign "curing"
		// costs a few seconds of quiet.
		{"Nothing here needs curing, only noticing.", MedicalClaim},
		{"This breathing cures anxiety.", MedicalClaim},
		{"You can stop taking your medication now.", MedicalClaim},
		{"This practice heals your depression.", MedicalClaim},
		{"Meditation reverses high blood pressure.", MedicalClaim},
		{"It is clinically proven to work.", MedicalClaim},
		{"There is no need to see a doctor.", MedicalClaim},

		// Unsafe breathing.
		{"Hold your breath for thirty seconds.", UnsafeBreathing},
		{"Hold it for 20 seconds.", UnsafeBreathing},
		{"Now hold the breath for a full minute.", UnsafeBreathing},
		{"Hold your breath for two minutes.", UnsafeBreathing},
		{"Hold your breath as long as you can.", UnsafeBreathing},
		{"Hold, counting to twelve.", UnsafeBreathing},
		{"Breathe as fast as you can.", UnsafeBreathing},
		{"Take rapid breaths, in and out.", UnsafeBreathing},
		{"Stop breathing for a while.", UnsafeBreathing},
		{"Hyperventilate gently.", UnsafeBreathing},
	}
	s := DefaultSafety()
	for _, c := range cases {
		v := s.Check(c.text, Where{Phase: Sensory})
		if v.Category != c.want {
			t.Errorf("%q: got %q (rule %q), want %q", c.text, v.Category, v.Rule, c.want)
		}
		if v.Flagged() != (c.want != "") {
			t.Errorf("%q: Flagged() = %v", c.text, v.Flagged())
		}
	}
}

func TestIntentionScreening(t *testing.T) {
	s := DefaultSafety()
	for _, ok := range []string{"", "sleep", "calm before a talk", "letting go of a hard week", "feel less anxious"} {
		if err := s.ScreenIntention(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, crisis := range []string{"I want to die", "thinking about suicide", "I don't want to wake up"} {
		if _, ok := s.ScreenIntention(crisis).(*CrisisError); !ok {
			t.Errorf("%q was not met with help", crisis)
		}
	}
}
