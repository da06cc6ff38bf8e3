package llm

import "github.com/lull-dev/lull/internal/engine"

// Every call is bounded in what it may write: the sentences asked for at
// a generous tokensPerSentence each, and a margin; a model known to reason
// gets room for its thinking as well. A local model caught in a loop, one
// that streams sentences and never finishes, stops there: its answer is
// incomplete, and the sentence it broke off is not said. A server that
// refuses the parameter is asked again without it (optionalParams).
const (
	tokensPerSentence = 60
	tokenMargin       = 300
	thinkingTokens    = 8000
)

// outputLimit is the most one call for req may write, in tokens.
func (g *Guide) outputLimit(req engine.Request) int64 {
	n := int64(req.Asked()*tokensPerSentence + tokenMargin)
	if g.reasons.Load() {
		n += thinkingTokens
	}
	return n
}
