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

// MoodChange says the moods given: "2 (uneasy) → 4 (good)", or "before
// 2 (uneasy)" or "after 4 (good)" when only one was; "" when neither.
func MoodChange(before, after int) string {
	say := func(m int) string { return fmt.Sprintf("%d (%s)", m, MoodWord(m)) }
	switch b, a := MoodWord(before) != "", MoodWord(after) != ""; {
	case b && a:
		return say(before) + " → " + say(after)
	case b:
		return "before " + say(before)
	case a:
		return "after " + say(after)
	}
	return ""
}
