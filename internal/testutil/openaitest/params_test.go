package openaitest

import (
	"context"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// A server that does not take a parameter refuses it by name, in OpenAI's
// shape; a request without it goes through.
func TestRejectParams(t *testing.T) {
	s, c := start(t)
	s.SetRejectParams("reasoning.effort", "reasoning_effort")
	r := ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi"),
		Reasoning: shared.ReasoningParam{Effort: shared.ReasoningEffortLow}})
	e := apiErr(t, r.err)
	if e.StatusCode != 400 || e.Param != "reasoning.effort" || e.Code != "unsupported_parameter" ||
		e.Message != "Unsupported parameter: 'reasoning.effort' is not supported with this model." {
		t.Errorf("%d %q %q %q", e.StatusCode, e.Param, e.Code, e.Message)
	}
	completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi")}))

	msgs := []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}
	_, err := c.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{Model: "m", Messages: msgs, ReasoningEffort: shared.ReasoningEffortLow})
	if e := apiErr(t, err); e.StatusCode != 400 || e.Param != "reasoning_effort" {
		t.Errorf("chat: %d %q", e.StatusCode, e.Param)
	}
	if _, err := c.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{Model: "m", Messages: msgs}); err != nil {
		t.Errorf("chat without the parameter: %v", err)
	}
	if n := len(s.Created()); n != 1 {
		t.Errorf("%d responses begun; a refused request begins none", n)
	}
}

// A terse server answers any chained request with a bare 400 that names
// no parameter.
func TestTersePrevious(t *testing.T) {
	s, c := start(t)
	first := completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("a")}))
	s.SetTersePrevious(true)
	r := ask(context.Background(), c, responses.ResponseNewParams{Input: input("b"), PreviousResponseID: openai.String(first.ID)})
	e := apiErr(t, r.err)
	if e.StatusCode != 400 || e.Message != "Invalid request" || e.Param != "" || e.Code != "" || e.Type != "invalid_request_error" {
		t.Errorf("%d %q param %q code %q type %q", e.StatusCode, e.Message, e.Param, e.Code, e.Type)
	}
	completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("c")}))
}

// Cached input tokens are reported in both APIs' usage, never more than
// the input.
func TestCachedTokens(t *testing.T) {
	s, c := start(t)
	s.SetCachedTokens(4)
	resp := completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("hello there, this is long enough")}))
	if resp.Usage.InputTokensDetails.CachedTokens != 4 || resp.Usage.InputTokens <= 4 {
		t.Errorf("usage %+v", resp.Usage)
	}
	r, err := chatStream(context.Background(), c, true)
	if err != nil || r.usage == nil || r.usage.PromptTokensDetails.CachedTokens != 4 {
		t.Fatalf("chat usage %+v, err %v", r.usage, err)
	}
	s.SetCachedTokens(1 << 20)
	resp = completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi")}))
	if resp.Usage.InputTokensDetails.CachedTokens != resp.Usage.InputTokens {
		t.Errorf("cached %d of %d input tokens", resp.Usage.InputTokensDetails.CachedTokens, resp.Usage.InputTokens)
	}
}
