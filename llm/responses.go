package llm

import (
	"context"
	"encoding/json"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// responses makes one streaming call to /v1/responses. The stream must end
// in response.completed (or response.incomplete); anything else — an error
// event, response.failed, or a body that simply stops — is a failure.
func (a *attemptState) responses(ctx context.Context, stateless bool) error {
	g, req := a.s.g, a.s.req
	// After the model's context overflowed, the chain is dropped and the
	// call starts a new one from a recap (stream.run).
	chained := !stateless && req.Chain != "" && !a.s.unchain
	instructions := g.instructions(req)
	var turns []turn
	if chained {
		turns = g.chainedTurns(req)
	} else {
		turns = g.historyTurns(req, instructions, g.budget())
	}
	a.chained, a.sent = chained, sentTokens(instructions, turns)
	items := make(responses.ResponseInputParam, len(turns))
	for i, t := range turns {
		role := responses.EasyInputMessageRoleUser
		if t.role == "assistant" {
			role = responses.EasyInputMessageRoleAssistant
		}
		items[i] = responses.ResponseInputItemParamOfMessage(t.text, role)
	}
	params := responses.ResponseNewParams{
		Model:        g.cfg.Model,
		Instructions: openai.String(instructions),
		Input:        responses.ResponseNewParamsInputUnion{OfInputItemList: items},
		Store:        openai.Bool(!stateless),
	}
	if chained {
		params.PreviousResponseID = openai.String(req.Chain)
	}
	st := g.client.Responses.NewStreaming(ctx, params)
	defer st.Close()

	for st.Next() {
		a.alive()
		ev := st.Current()
		switch ev.Type {
		case "response.created":
			id := ev.Response.ID
			a.receipt.ResponseID = id
			if !stateless && id != "" {
				a.receipt.Stored = append(a.receipt.Stored, id)
			}
			if chained && ev.Response.PreviousResponseID == "" {
				// The server took the field and ignored it: the model
				// would write without memory. Start again, telling it all.
				return &Failure{Kind: kindChainRefused, Message: "the server ignores previous_response_id"}
			}
		case "response.output_text.delta":
			if err := a.text(ctx, ev.Delta); err != nil {
				return err
			}
		case "response.completed", "response.incomplete":
			a.usage(ev.Response)
			a.receipt.Completed = true
			truncated := ev.Type == "response.incomplete"
			if truncated {
				g.log.Warn("LLM response incomplete", "reason", ev.Response.IncompleteDetails.Reason)
			}
			return a.end(ctx, truncated)
		case "response.failed":
			a.usage(ev.Response)
			e := ev.Response.Error
			return &Failure{Kind: kindStreamError, Code: string(e.Code), Message: orText(e.Message, "the response failed")}
		case "error":
			return streamError(ev)
		}
	}
	if err := st.Err(); err != nil {
		return err
	}
	return &Failure{Kind: kindCut, Message: "the response stream ended before response.completed"}
}

func (a *attemptState) usage(r responses.Response) {
	u := r.Usage
	a.receipt.Tokens.In += int(u.InputTokens)
	a.receipt.Tokens.Out += int(u.OutputTokens)
	a.receipt.Cost += cost(a.s.g.cfg, int(u.InputTokens), int(u.OutputTokens))
}

// streamError reads an error event, whose fields come either at its top
// level or nested in an "error" object (both are seen from OpenAI).
func streamError(ev responses.ResponseStreamEventUnion) *Failure {
	f := &Failure{Kind: kindStreamError, Code: ev.Code, Message: ev.Message}
	var nested struct {
		Error struct {
			Code    *string `json:"code"`
			Message string  `json:"message"`
			Type    string  `json:"type"`
		} `json:"error"`
	}
	if f.Message == "" && json.Unmarshal([]byte(ev.RawJSON()), &nested) == nil {
		f.Message = nested.Error.Message
		if nested.Error.Code != nil {
			f.Code = *nested.Error.Code
		} else {
			f.Code = nested.Error.Type
		}
	}
	f.Message = orText(f.Message, "the server reported an error mid-stream")
	switch f.Code {
	case "insufficient_quota", "invalid_prompt", "invalid_api_key", "model_not_found":
		f.Kind = kindStreamRefused // another try meets the same answer
	}
	return f
}

func orText(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
