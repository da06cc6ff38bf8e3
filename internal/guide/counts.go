package guide

import (
	"math"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

var numberWords = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve"}

// spellCount says a part of the breath as the guide counts it: whole
// seconds as a word ("four"), halves as "four and a half".
func spellCount(d time.Duration) string {
	halves := int(math.Round(d.Seconds() * 2))
	whole, half := halves/2, halves%2 == 1
	var s string
	if whole < len(numberWords) {
		s = numberWords[whole]
	} else {
		s = "many"
	}
	switch {
	case half && whole == 0:
		return "half a count"
	case half:
		return s + " and a half"
	}
	return s
}

// sayCounts fills a breathing line's counts from the configured rhythm.
func sayCounts(line string, b engine.BreathPattern) string {
	if !strings.Contains(line, "{") {
		return line
	}
	return strings.NewReplacer(
		"{in}", spellCount(b.Inhale),
		"{hold}", spellCount(b.Hold),
		"{out}", spellCount(b.Exhale),
		"{rest}", spellCount(b.HoldOut),
	).Replace(line)
}
