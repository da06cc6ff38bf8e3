package llm

import (
	"strings"

	"github.com/lull-dev/lull/internal/engine"
)

// Delimiters around the listener's intention in the input: the
// instructions say what stands between them is the listener's words.
const (
	intentionOpen  = "«"
	intentionClose = "»"
)

// intentionDatum is the listener's intention as the model receives it:
// one line (line breaks and control characters folded away, so it cannot
// open a section of its own), no longer than engine.MaxIntention, between
// « and », with those marks taken out of the words so the datum cannot
// be closed early. "" when there is none.
func intentionDatum(intention string) string {
	words := strings.NewReplacer(intentionOpen, " ", intentionClose, " ").Replace(intention)
	words = engine.KeptIntention(words)
	if words == "" {
		return ""
	}
	return intentionOpen + words + intentionClose
}
