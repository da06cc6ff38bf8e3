package engine

import "fmt"

// moodWords name the moods 1–5, for people: the same words on the form,
// the end screen and lull sessions show.
var moodWords = [MaxMood + 1]string{"", "low", "uneasy", "okay", "good", "very good"}

// MoodWord is mood m in a word; "" when not given or off the scale.
func MoodWord(m int) string {
	if m < MinMood || m > MaxMood {
		return ""
	}
	return moodWords[m]
}

// MoodChange says mood before → after as far as each was given, as
// "2 (uneasy) → 4 (good)"; "" when neither was.
func MoodChange(before, after int) string {
	say := func(m int) string {
		if MoodWord(m) == "" {
			return "—"
		}
		return fmt.Sprintf("%d (%s)", m, MoodWord(m))
	}
	if MoodWord(before) == "" && MoodWord(after) == "" {
		return ""
	}
	return say(before) + " → " + say(after)
}
