package safety

import (
	"strings"

	"github.com/lull-dev/lull/internal/engine"
)

// The breath's bounds, read from the numbers of a sentence: a hold longer
// than engine.MaxHold seconds, or a breath in or out longer than
// engine.MaxBreath, however it is counted — "hold for 15 seconds", "Hold
// 16.", "in four, hold twenty", "a slow count of fourteen", "half a
// minute", "Inhale… 2… 3… … 12". A number counts as a length when it is
// said as one (seconds, counts, beats, a minute) or stands right after what
// it measures ("hold twenty"); it does not when it counts breaths, times or
// rounds, or is where a count starts from ("count down from a hundred").
// Plain "breathe" over twenty minutes is no hold: only a hold, an
// in-breath or an out-breath has a bound.

// breathAct is what a length may measure.
type breathAct int

const (
	noAct breathAct = iota
	holdAct
	inAct
	outAct
)

// actWords name an act; a hold word that is also everyday ("rest", "stay",
// "pause", "keep") is a hold only in a clause about the breath.
var actWords = map[string]breathAct{
	"hold": holdAct, "holding": holdAct, "held": holdAct, "holds": holdAct, "retain": holdAct, "suspend": holdAct,
	"rest": holdAct, "stay": holdAct, "pause": holdAct, "keep": holdAct, "linger": holdAct, "wait": holdAct,
	"inhale": inAct, "inhaling": inAct, "inhales": inAct, "in": inAct, "fill": inAct, "draw": inAct, "sip": inAct,
	"exhale": outAct, "exhaling": outAct, "exhales": outAct, "out": outAct, "empty": outAct, "release": outAct,
}

// plainHold are the act words that mean a breath act on their own.
var plainHold = map[string]bool{"hold": true, "holding": true, "held": true, "holds": true, "retain": true, "suspend": true,
	"inhale": true, "inhaling": true, "inhales": true, "exhale": true, "exhaling": true, "exhales": true}

// breathWords make a clause one about the breath.
var breathWords = map[string]bool{"breath": true, "breaths": true, "breathe": true, "breathing": true, "air": true,
	"lungs": true, "lung": true, "inhale": true, "exhale": true, "inbreath": true, "outbreath": true, "hold": true}

// unitSeconds are what a number may be a length in, in seconds each.
var unitSeconds = map[string]int{"second": 1, "seconds": 1, "sec": 1, "secs": 1, "s": 1, "count": 1, "counts": 1,
	"beat": 1, "beats": 1, "heartbeat": 1, "heartbeats": 1, "minute": 60, "minutes": 60, "min": 60, "mins": 60}

// notLengths follow a number that counts something else.
var notLengths = map[string]bool{"breath": true, "breaths": true, "times": true, "time": true, "rounds": true, "round": true,
	"cycles": true, "cycle": true, "repetitions": true, "reps": true, "days": true, "hours": true, "nights": true}

// notHeld follow a hold word that holds something other than the breath:
// "hold your attention", "keep breathing", "the ground holding you".
var notHeld = map[string]bool{"attention": true, "focus": true, "gaze": true, "image": true, "picture": true, "thought": true,
	"thoughts": true, "intention": true, "hand": true, "hands": true, "posture": true, "pose": true, "stretch": true,
	"position": true, "tension": true, "awareness": true, "feeling": true, "smile": true,
	"breathing": true, "counting": true, "going": true, "still": true, "here": true, "with": true}

// negations before an act take it back: "there is no need to hold for ten".
var negations = map[string]bool{"no": true, "not": true, "never": true, "dont": true, "without": true, "nor": true}

// beyondBounds returns the rule a sentence breaks, or "".
func beyondBounds(text string) string {
	for _, clause := range clauses(text) {
		if rule := clauseBeyond(clause); rule != "" {
			return rule
		}
	}
	return ""
}

// clauses splits text into lower-case words, a clause at a time; a hyphen
// or slash splits words ("4-16-8"); an ellipsis is a pause within a clause
// ("Inhale… 2… 3…").
func clauses(text string) [][]string {
	text = strings.NewReplacer("...", " ", "…", " ", "..", " ").Replace(text)
	var out [][]string
	var cur []string
	scanWords(text, func(w string) { cur = append(cur, w) }, func(r rune) {
		if strings.ContainsRune(".!?;:", r) && len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	})
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// clauseBeyond looks in one clause for an act and a length that breaks its
// bound.
func clauseBeyond(words []string) string {
	about := false
	for _, w := range words {
		about = about || breathWords[w]
	}
	act, actAt, negated := noAct, -1, false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if negations[w] {
			negated = true
		}
		if a, ok := actWords[w]; ok && (plainHold[w] || about && (a != holdAct || nearBreath(words, i))) {
			act, actAt, negated = a, i, negated && i-lastNegation(words, i) <= 4
			if a == holdAct && heldElse(words, i) {
				act = noAct
			}
			continue
		}
		n, end, ok := lengthAt(words, i)
		if !ok {
			continue
		}
		start := i
		i = end - 1
		if end < len(words) && actWords[words[end]] != noAct {
			continue // "seven hold, eight out": a count said before its act
		}
		if act == noAct || negated || start-actAt > 8 {
			continue
		}
		switch {
		case act == holdAct && n > engine.MaxHold:
			return "a hold beyond the bound"
		case act != holdAct && n > engine.MaxBreath:
			return "a breath beyond the bound"
		}
	}
	return ""
}

// nearBreath reports whether an everyday hold word ("rest", "stay",
// "keep") is said of the breath: a breath word, or the top or bottom of
// the breath, within three words of it.
func nearBreath(words []string, i int) bool {
	for j := max(0, i-3); j < min(len(words), i+4); j++ {
		if j != i && (breathWords[words[j]] || words[j] == "empty" || words[j] == "top" || words[j] == "bottom") {
			return true
		}
	}
	return false
}

// heldElse reports whether the hold word at i holds something else.
func heldElse(words []string, i int) bool {
	if i+1 < len(words) && (words[i+1] == "you" || words[i+1] == "yourself") {
		return true // the ground holding you
	}
	for j := i + 1; j < min(len(words), i+4); j++ {
		if notHeld[words[j]] {
			return true
		}
		if breathWords[words[j]] || words[j] == "it" {
			return false
		}
	}
	return false
}

func lastNegation(words []string, i int) int {
	for j := i - 1; j >= 0; j-- {
		if negations[words[j]] {
			return j
		}
	}
	return -1 << 20
}

// lengthAt reads a length in seconds at words[i]: a number with its unit,
// "a minute", "half a minute", or a bare number where a length stands; a
// counted run ("2 3 4 … 12") is as long as its last number.
func lengthAt(words []string, i int) (seconds, end int, ok bool) {
	w := words[i]
	switch {
	case (w == "a" || w == "full" || w == "one") && i+1 < len(words) && (words[i+1] == "minute" || words[i+1] == "full"):
		j := i + 1
		if words[j] == "full" && j+1 < len(words) {
			j++
		}
		if unitSeconds[words[j]] == 60 && (j+1 >= len(words) || words[j+1] != "ago") {
			return 60, j + 1, true
		}
	case w == "half" && i+2 < len(words) && words[i+1] == "a" && unitSeconds[words[i+2]] == 60:
		return 30, i + 3, true
	}
	n, end, ok := numberAt(words, i)
	if !ok || i > 0 && (words[i-1] == "from" || words[i-1] == "of" && i > 1 && words[i-2] == "one") {
		return 0, i + 1, false
	}
	// A counted run: each next number one more.
	for end < len(words) {
		m, e, ok := numberAt(words, end)
		if !ok || m != n+1 {
			break
		}
		n, end = m, e
	}
	if end < len(words) {
		if notLengths[words[end]] {
			return 0, end, false
		}
		if u, ok := unitSeconds[words[end]]; ok {
			if end+1 < len(words) && words[end+1] == "ago" {
				return 0, end + 2, false
			}
			return n * u, end + 1, true
		}
	}
	return n, end, true
}

// numberAt reads a number in figures or words at words[i]: "16",
// "sixteen", "twenty five", "a hundred".
func numberAt(words []string, i int) (n, end int, ok bool) {
	if (words[i] == "a" || words[i] == "one") && i+1 < len(words) && words[i+1] == "hundred" {
		return 100, i + 2, true
	}
	n = numberValue(words[i])
	if n < 0 {
		return 0, i + 1, false
	}
	if n >= 20 && n < 100 && n%10 == 0 && i+1 < len(words) {
		if u := numberValue(words[i+1]); u >= 1 && u <= 9 {
			return n + u, i + 2, true
		}
	}
	return n, i + 1, true
}
