package llm

import (
	"net/http"
	"regexp"
)

// A model's context is exceeded when a call sends more than it can read:
// a long chain of stored responses, or a stateless history beyond a small
// local model. The call is then made again without the chain, from a
// recap of the history within a smaller budget, on the same model:
// a session is never handed to the built-in guide for its length.

// maxOverflows bounds the tries one call makes after overflows: dropping
// the chain, then shrinking the budget.
const maxOverflows = 3

// overflowWords are how servers say it: OpenAI's code and "Your input
// exceeds the context window of this model", Chat Completions' "This
// model's maximum context length is 4096 tokens", llama.cpp's "the
// request exceeds the available context size", vLLM's and others'.
var overflowWords = regexp.MustCompile(`(?i)context_length_exceeded|exceed_context_size|context (length|window|size)|maximum context|too many tokens|prompt is too long`)

// overflow reports whether a failure says the call was too long for the
// model. A rate limit on tokens per minute is not: waiting fixes that.
func (f *Failure) overflow() bool {
	if f.Code == "context_length_exceeded" {
		return true
	}
	return f.Status != http.StatusTooManyRequests && overflowWords.MatchString(f.Code+" "+f.Message)
}

// sentTokens is a request's size as the budget counts it.
func sentTokens(instructions string, turns []turn) int {
	n := estimateTokens(instructions)
	for _, t := range turns {
		n += estimateTokens(t.text)
	}
	return n
}
