package llm

import (
	"log/slog"
	"slices"
	"strings"
)

// A reasoning model thinks before it writes: at its default effort a call
// can be silent for longer than a listener should wait. lull asks such a
// model for low effort (guidance needs no deliberation), sends the
// parameter to no other model, and gives it more time before its first
// text (reasoningPatience).

// Names of the optional parameters lull sends, as a refusal names them.
const (
	paramEffort        = "reasoning.effort"      // Responses
	paramChatEffort    = "reasoning_effort"      // Chat Completions
	paramStreamOptions = "stream_options"        // Chat Completions' include_usage
	paramMaxOutput     = "max_output_tokens"     // Responses
	paramMaxTokens     = "max_tokens"            // Chat Completions, most servers
	paramMaxCompletion = "max_completion_tokens" // Chat Completions, a reasoning model
)

// optionalParams maps the names a server may give a refused parameter to
// the parameter lull then leaves out. Anything else it refuses is a real
// 400: lull cannot do without it.
var optionalParams = map[string]string{
	"reasoning":                    paramEffort,
	paramEffort:                    paramEffort,
	paramChatEffort:                paramChatEffort,
	paramStreamOptions:             paramStreamOptions,
	"stream_options.include_usage": paramStreamOptions,
	paramMaxOutput:                 paramMaxOutput,
	paramMaxTokens:                 paramMaxTokens,
	paramMaxCompletion:             paramMaxCompletion,
}

// reasoningModel reports whether a model is known by its name to reason:
// OpenAI's o1, o3 and o4 families and gpt-5 (but not gpt-5-chat, which
// does not take reasoning settings). A served name may carry a provider
// prefix ("openai/o3-mini").
func reasoningModel(name string) bool {
	n := strings.ToLower(name)
	if i := strings.LastIndex(n, "/"); i >= 0 {
		n = n[i+1:]
	}
	if strings.HasPrefix(n, "gpt-5") {
		return !strings.HasPrefix(n, "gpt-5-chat")
	}
	for _, family := range []string{"o1", "o3", "o4"} {
		if n == family || strings.HasPrefix(n, family+"-") {
			return true
		}
	}
	return false
}

// learnReasoning records that the model reasons, from what the server
// said (an effort in response.created, a reasoning item or delta): later
// calls ask for low effort and wait longer for the first text.
func (g *Guide) learnReasoning(why string) {
	if !g.reasons.Swap(true) {
		g.log.Info("the LLM model reasons before it writes: asking for low effort", slog.String("model", g.cfg.Model), slog.String("seen", why))
	}
}

// sends reports whether the guide still sends an optional parameter.
func (g *Guide) sends(param string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return !g.dropped[param]
}

// asksEffort reports whether a call asks for low reasoning effort, under
// the endpoint's name for it.
func (g *Guide) asksEffort(param string) bool {
	return g.reasons.Load() && g.sends(param)
}

// drop leaves out, for the rest of the session, a parameter the server
// refused by name. It reports whether there was one to leave out among
// the optional ones the request sent: a parameter lull needs, or one it
// did not send, is not.
func (g *Guide) drop(refused string, sent []string) bool {
	param, ok := optionalParams[strings.ToLower(refused)]
	if !ok || !slices.Contains(sent, param) {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.dropped[param] {
		return false
	}
	if g.dropped == nil {
		g.dropped = map[string]bool{}
	}
	g.dropped[param] = true
	g.log.Warn("the LLM server does not take a parameter: leaving it out for the rest of the session", slog.String("parameter", param))
	return true
}
