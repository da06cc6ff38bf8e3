package llm

import (
	"regexp"
	"strings"

	"github.com/lull-dev/lull/internal/engine"
)

// The breathing phase asks for one sentence per line, each beginning with
// the part of the breath it is spoken on in square brackets: "[in] Breathe
// in slowly." The tag is taken off before the line goes any further, and
// remembered, so the engine times the line by it (engine.Cuer) instead of
// guessing from its first words. Models write the tag in other ways too —
// "In:", "(in)", "IN -", "**Exhale:**" — and those are read as well; a
// line without one falls back to the guess.

// tagWords are the words a tag may hold, and the part of the breath each
// names.
var tagWords = map[string]engine.BreathStage{
	"in": engine.StageInhale, "inhale": engine.StageInhale, "in-breath": engine.StageInhale, "inbreath": engine.StageInhale,
	"breathe in": engine.StageInhale, "breathing in": engine.StageInhale, "breath in": engine.StageInhale,
	"out": engine.StageExhale, "exhale": engine.StageExhale, "out-breath": engine.StageExhale, "outbreath": engine.StageExhale,
	"breathe out": engine.StageExhale, "breathing out": engine.StageExhale, "breath out": engine.StageExhale,
	"hold": engine.StageHold, "pause": engine.StageHold, "top": engine.StageHold,
	"rest": engine.StageHoldOut, "bottom": engine.StageHoldOut,
}

// tagOf is the tag lull asks for, for a part of the breath.
func tagOf(s engine.BreathStage) string {
	switch s {
	case engine.StageHold:
		return "[hold]"
	case engine.StageExhale:
		return "[out]"
	case engine.StageHoldOut:
		return "[rest]"
	}
	return "[in]"
}

const tagWord = `(in|inhale|in-?breath|breathe in|breathing in|breath in|out|exhale|out-?breath|breathe out|breathing out|breath out|hold|pause|top|rest|bottom)`

var (
	// headTag is a tag at the start of a line: bracketed, or a word and a
	// colon, or a short word and a dash; markdown emphasis and a list
	// marker around it are taken with it.
	headTag = regexp.MustCompile(`(?i)^\s*(?:[-*•]\s+)?(?:\*\*|__|\*|_)?\s*(?:` +
		`[\[({<]\s*` + tagWord + `\s*[\])}>]` +
		`|` + tagWord + `\s*(?:\*\*|__|\*|_)?\s*:` +
		`|((?i:in|out)|(?-i:HOLD|REST|INHALE|EXHALE))\s+[-–—]` +
		`)(?:\s*[:\-–—])?(?:\*\*|__|\*|_)?\s*`)
	// inlineTag is a bracketed tag in the middle of a line: a new line
	// that the model did not break.
	inlineTag = regexp.MustCompile(`(?i)^[\[({<]\s*` + tagWord + `\s*[\])}>]$`)
)

// maxHead is how much of a line is held back until its tag is known:
// enough for "**Breathe out:** ".
const maxHead = 24

// maxBracket is how much of a bracket is held back mid-line until it is
// known to be a tag or not.
const maxBracket = 16

// stageOf reads a tag's word.
func stageOf(word string) engine.BreathStage {
	w := strings.ToLower(strings.Join(strings.Fields(word), " "))
	w = strings.Replace(w, "inbreath", "in-breath", 1)
	w = strings.Replace(w, "outbreath", "out-breath", 1)
	return tagWords[w]
}
