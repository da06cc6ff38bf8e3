package guide

import (
	"regexp"
	"slices"
	"strings"

	"github.com/lull-dev/lull/internal/safety"
	"github.com/lull-dev/lull/internal/speech"

	"github.com/lull-dev/lull/internal/engine"
)

// maxQuoted is the longest intention, in words, the guide repeats in the
// listener's own words: longer ones are heard through their kind only.
const maxQuoted = 5

// firstPerson are the words that make an intention the listener's own
// voice: "my father" cannot be said back as "your" without rewriting it.
var firstPerson = []string{"i", "i'm", "im", "i've", "ive", "i'd", "i'll", "me", "my", "mine", "myself", "we", "we're", "us", "our", "ours"}

// negations turn an intention into a complaint, not a wish.
var negations = []string{"not", "no", "never", "cant", "cannot", "dont", "wont", "isnt", "nothing"}

// states open an intention that says how the listener is or wants to be
// ("anxious about tomorrow", "calm before a talk", "clear head before
// work"): the quote frames are written for a thing brought along
// ("sleep", "rest after a long week"), and "you came in with anxious
// about tomorrow" is not English. Such an intention is heard through its
// kind's own lines.
var states = []string{"anxious", "nervous", "stressed", "worried", "tired", "exhausted", "sad", "low", "angry",
	"upset", "overwhelmed", "restless", "tense", "scared", "afraid", "lonely", "frustrated", "wired", "burnt",
	"burned", "drained", "calm", "calmer", "clear", "relaxed", "focused", "happy", "better", "less", "more", "feeling",
	"to", "getting", "being", "feel"}

// quotable is the intention as it may be quoted inside a line, or "" when
// it may not: too long, in the first person, a question, a state rather
// than a thing (see states), or anything the safety check or the sentence
// splitter would trip on.
func (b *Builtin) quotable(intention string) string {
	s := cleanIntention(intention)
	words := intentionWords(s)
	// Commas and negations make a sentence of their own ("can't sleep,
	// mind racing"): it would not read as the thing the listener came for.
	if len(words) == 0 || len(words) > maxQuoted || strings.ContainsRune(intention, '?') || strings.ContainsAny(s, ",;") {
		return ""
	}
	for _, w := range words {
		if slices.Contains(firstPerson, w) || slices.Contains(negations, w) || strings.Contains(w, "'") {
			return ""
		}
	}
	if slices.Contains(states, words[0]) {
		return ""
	}
	if !speakable("You came here for "+s+".", b.safety) {
		return ""
	}
	return s
}

// cleanIntention makes the listener's words fit inside a sentence: one
// line, no punctuation of its own at the ends, nothing the splitter would
// cut at.
func cleanIntention(s string) string {
	s = stripEnds(s)
	if innerStop.MatchString(s) || dotted.MatchString(s) {
		return "" // two sentences, or an abbreviation: not for quoting
	}
	return s
}

// speakable reports whether a line will be spoken as written: it passes
// the safety check wherever it may be said (atmosphere is the strictest
// place), and the engine hears it as one sentence.
func speakable(line string, screen *safety.Screen) bool {
	if screen.Sentence(line, engine.Place{Phase: engine.Atmosphere}).Flagged() {
		return false
	}
	var sp speech.Splitter
	heard := append(sp.Feed(line+" Next."), sp.Flush()...)
	return len(heard) == 2 && heard[0] == line
}

var (
	// innerStop is punctuation that would end a sentence inside a line.
	innerStop = regexp.MustCompile(`[.!?…;:]`)
	// dotted is a full stop inside a word, as in "a.m".
	dotted = regexp.MustCompile(`(\pL)\.(\pL)`)
	quotes = `"'“”‘’«»`
)

// stripEnds joins the intention onto one line and trims what ends it.
func stripEnds(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.Trim(s, ".!?…;:, "+quotes)
}
