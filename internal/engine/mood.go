package engine

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Moods are 1 (low) to 5 (very good); 0 means not given.
const (
	MinMood = 1
	MaxMood = 5
)

// MaxNote bounds the note a listener keeps with a session, in characters:
// a line or two, not a journal.
const MaxNote = 280

// PracticeBreathe is a session of paced breathing alone (lull breathe).
const PracticeBreathe = "breathe"

// CheckMood refuses a mood outside 1–5; 0 (not given) passes.
func CheckMood(m int) error {
	if m != 0 && (m < MinMood || m > MaxMood) {
		return fmt.Errorf("a mood is %d to %d, not %d", MinMood, MaxMood, m)
	}
	return nil
}

// CleanNote makes a note fit to keep: control characters become spaces,
// runs of space one, and it is trimmed; longer than MaxNote is refused,
// not cut, so nothing the listener wrote is lost without their knowing.
func CleanNote(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("a note must be text (UTF-8)")
	}
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
	if n := utf8.RuneCountInString(s); n > MaxNote {
		return "", fmt.Errorf("a note holds up to %d characters, this one has %d", MaxNote, n)
	}
	return s, nil
}

// CheckNote refuses a saved note CleanNote would not have made.
func CheckNote(s string) error {
	c, err := CleanNote(s)
	if err != nil {
		return err
	}
	if c != s {
		return fmt.Errorf("the note holds control characters or untrimmed space")
	}
	return nil
}
