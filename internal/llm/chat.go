package llm

import (
	"context"
	"errors"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"

	"github.com/lull-dev/lull/internal/engine"
)

// chat makes one streaming call to /v1/chat/completions, for servers with
// no /v1/responses. It is stateless by nature: the instructions go as the
// system message and the history as the messages. The stream must carry a
// finish_reason; one that stops before it is a failure.
func (a *attemptState) chat(ctx context.Context) error {
	g, req := a.s.g, a.s.req
	instructions := g.instructions(req)
	turns := g.historyTurns(req, instructions, g.budget())
	a.sent = sentTokens(instructions, turns)
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(instructions)}
	for _, t := range turns {
		if t.role == "assistant" {
			msgs = append(msgs, openai.AssistantMessage(t.text))
		} else {
			msgs = append(msgs, openai.UserMessage(t.text))
		}
	}
	params := openai.ChatCompletionNewParams{Model: g.cfg.Model, Messages: msgs}
	if g.sends(paramStreamOptions) {
		params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		a.optional = append(a.optional, paramStreamOptions)
	}
	if g.asksEffort(paramChatEffort) {
		params.ReasoningEffort = shared.ReasoningEffortLow
		a.optional = append(a.optional, paramChatEffort)
	}
	// A reasoning model takes max_completion_tokens only; most other
	// servers know max_tokens, and not all know the newer name.
	switch limit := g.outputLimit(req); {
	case g.reasons.Load() && g.sends(paramMaxCompletion):
		params.MaxCompletionTokens = openai.Int(limit)
		a.optional = append(a.optional, paramMaxCompletion)
	case !g.reasons.Load() && g.sends(paramMaxTokens):
		params.MaxTokens = openai.Int(limit)
		a.optional = append(a.optional, paramMaxTokens)
	}
	st := g.client.Chat.Completions.NewStreaming(ctx, params, a.watch.listen())
	defer st.Close()

	finish := ""
	for st.Next() {
		a.alive()
		chunk := st.Current()
		if u := chunk.Usage; chunk.JSON.Usage.Valid() && (u.PromptTokens > 0 || u.CompletionTokens > 0) {
			a.book(engine.Tokens{In: int(u.PromptTokens), Out: int(u.CompletionTokens), Cached: int(u.PromptTokensDetails.CachedTokens)})
		}
		for _, c := range chunk.Choices {
			if thinks(c.Delta) {
				a.reasoning("reasoning in the chat stream")
			}
			if c.Delta.Content != "" {
				a.watch.sawText()
				if err := a.text(ctx, c.Delta.Content); errors.Is(err, errEnough) {
					return a.cut(ctx)
				} else if err != nil {
					return err
				}
			}
			if c.FinishReason != "" {
				finish = c.FinishReason
			}
		}
	}
	if err := st.Err(); err != nil {
		return err
	}
	switch finish {
	case "":
		return &Failure{Kind: kindCut, Message: "the chat stream ended without a finish_reason"}
	case "content_filter":
		return &Failure{Kind: kindStreamRefused, Code: "content_filter", Message: "the server's content filter stopped the answer"}
	}
	a.receipt.Completed = true
	return a.end(ctx, finish == "length")
}

// thinks reports whether a chat delta carries a model's thinking, which
// servers stream beside the content: "reasoning_content" (DeepSeek, vLLM)
// or "reasoning" (Ollama, OpenRouter). It is never spoken.
func thinks(d openai.ChatCompletionChunkChoiceDelta) bool {
	for _, name := range []string{"reasoning_content", "reasoning"} {
		if f, ok := d.JSON.ExtraFields[name]; ok {
			if raw := f.Raw(); raw != "" && raw != "null" && raw != `""` {
				return true
			}
		}
	}
	return false
}
