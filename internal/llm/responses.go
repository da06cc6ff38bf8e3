package llm

import (
	"context"
	"errors"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/lull-dev/lull/internal/engine"
)

// responses makes one streaming call to /v1/responses. The stream must end
// in response.completed (or response.incomplete); anything else — an error
// event, response.failed, or a body that simply stops — is a failure.
func (a *attemptState) responses(ctx context.Context, stateless bool) error {
	g, req := a.s.g, a.s.req
	// A call whose chained request got a 400 that did not say why stores
	// nothing and sends the history; one whose model's context overflowed
	// starts a new stored chain from a recap (stream.run).
	stateless = stateless || a.s.terse
	chained := !stateless && req.Chain != "" && !a.s.unchained
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
	if g.asksEffort(paramEffort) {
		params.Reasoning = shared.ReasoningParam{Effort: shared.ReasoningEffortLow}
		a.optional = append(a.optional, paramEffort)
	}
	if g.sends(paramMaxOutput) {
		params.MaxOutputTokens = openai.Int(g.outputLimit(req))
		a.optional = append(a.optional, paramMaxOutput)
	}
	st := g.client.Responses.NewStreaming(ctx, params, a.watch.listen())
	defer st.Close()

	for st.Next() {
		a.alive()
		ev := st.Current()
		switch ev.Type {
		case "response.created":
			id := ev.Response.ID
			a.receipt.ResponseID = id
			if !stateless && id != "" {
				a.s.stored(id)
			}
			if chained && ev.Response.PreviousResponseID == "" {
				// The server took the field and ignored it: the model
				// would write without memory. Start again, telling it all.
				return &Failure{Kind: kindChainRefused, Message: "the server ignores previous_response_id"}
			}
			if ev.Response.Reasoning.Effort != "" {
				a.reasoning("response.created says reasoning effort " + string(ev.Response.Reasoning.Effort))
			}
		case "response.output_item.added":
			if ev.Item.Type == "reasoning" {
				a.reasoning("a reasoning item")
			}
		case "response.output_text.delta":
			a.watch.sawText()
			if err := a.text(ctx, ev.Delta); errors.Is(err, errEnough) {
				return a.cut(ctx)
			} else if err != nil {
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
			return eventFailure([]byte(ev.RawJSON()))
		}
	}
	if err := st.Err(); err != nil {
		return err
	}
	return &Failure{Kind: kindCut, Message: "the response stream ended before response.completed"}
}

func (a *attemptState) usage(r responses.Response) {
	u := r.Usage
	a.book(engine.Tokens{In: int(u.InputTokens), Out: int(u.OutputTokens), Cached: int(u.InputTokensDetails.CachedTokens)})
}

// book adds a usage report to the attempt's receipt, with its cost.
func (a *attemptState) book(t engine.Tokens) {
	a.receipt.Tokens = a.receipt.Tokens.Add(t)
	a.receipt.Cost += cost(a.s.g.cfg, t)
}

// reasoning is called when the server shows that the model reasons: its
// thinking is never spoken, but it may take longer to begin.
func (a *attemptState) reasoning(seen string) {
	a.s.g.learnReasoning(seen)
	a.watch.reasoning()
}

func orText(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}
