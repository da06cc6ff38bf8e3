package llm

import (
	"context"

	"github.com/openai/openai-go/v3"
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
	st := g.client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
		Model:         g.cfg.Model,
		Messages:      msgs,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	})
	defer st.Close()

	finish := ""
	for st.Next() {
		a.alive()
		chunk := st.Current()
		if chunk.JSON.Usage.Valid() && (chunk.Usage.PromptTokens > 0 || chunk.Usage.CompletionTokens > 0) {
			in, out := int(chunk.Usage.PromptTokens), int(chunk.Usage.CompletionTokens)
			a.receipt.Tokens.In += in
			a.receipt.Tokens.Out += out
			a.receipt.Cost += cost(g.cfg, in, out)
		}
		for _, c := range chunk.Choices {
			if c.Delta.Content != "" {
				if err := a.text(ctx, c.Delta.Content); err != nil {
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
