package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"github.com/lull-dev/lull/internal/engine"
)

// The guard is a second opinion on every reply, wherever a model runs:
// one short request per reply that asks a model (the session's own, or one
// the user names, such as a Llama Guard model on Ollama) to judge each of
// the reply's lines, with a JSON schema for the answer. It runs while the
// lines before it are playing. A line is spoken only when every layer that
// ran passes it; a guard that fails — an error, no answer in time, an
// answer that is not the schema's — leaves the local screen to decide
// alone at its strict thresholds, never the other way round.

// Guard is the guard's setting.
type Guard struct {
	Off   bool   // no guard: the local screen (and moderation on OpenAI) alone
	Model string // the model to ask; "" is the guide's own
}

// guardSchema is the shape of the guard's answer: a verdict per line.
var guardSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"verdicts": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"line":     map[string]any{"type": "integer", "description": "the line's number"},
					"safe":     map[string]any{"type": "boolean"},
					"category": map[string]any{"type": "string", "description": "the category of harm, or none"},
				},
				"required":             []string{"line", "safe", "category"},
				"additionalProperties": false,
			},
		},
	},
	"required":             []string{"verdicts"},
	"additionalProperties": false,
}

// guardVerdicts is the answer, as the schema has it.
type guardVerdicts struct {
	Verdicts []struct {
		Line     *int   `json:"line"`
		Safe     *bool  `json:"safe"`
		Category string `json:"category"`
	} `json:"verdicts"`
}

// guardModel is the model the guard asks.
func (g *Guide) guardModel() string {
	if g.cfg.Guard.Model != "" {
		return g.cfg.Guard.Model
	}
	return g.cfg.Model
}

// nativeGuard reports whether the guard model is a classifier of its own
// (Llama Guard, ShieldGemma, Granite Guardian): it answers "safe" or
// "unsafe" in its own words, not JSON, for the text as a whole.
func nativeGuard(model string) bool {
	m := strings.ToLower(model)
	return strings.Contains(m, "guard") || strings.Contains(m, "shieldgemma")
}

// guard asks the guard model about lines spoken at place, in one request.
// It returns, per line, the category the guard found ("" for safe); an
// error when it could not tell, which the caller answers with the local
// screen's strict thresholds.
func (g *Guide) guard(ctx context.Context, at engine.Place, lines []string) ([]string, engine.Tokens, error) {
	ctx, cancel := context.WithTimeout(ctx, g.cfg.GuardWait)
	defer cancel()
	model := g.guardModel()
	var b strings.Builder
	kind := "a waking session"
	if at.Sleep {
		kind = "a sleep session (it must never wake the listener)"
	}
	fmt.Fprintf(&b, "Phase: %s, in %s.\nLines:\n", at.Phase, kind)
	for i, l := range lines {
		fmt.Fprintf(&b, "%d. %s\n", i+1, strings.ReplaceAll(l, "\n", " "))
	}
	params := openai.ChatCompletionNewParams{
		Model:    model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(g.prompts.Guard), openai.UserMessage(b.String())},
	}
	if nativeGuard(model) {
		// A guard model judges the text as a conversation turn.
		params.Messages = []openai.ChatCompletionMessageParamUnion{openai.UserMessage(strings.Join(lines, "\n"))}
	} else {
		params.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
				Name: "lull_guard", Schema: guardSchema, Strict: openai.Bool(true),
			}},
		}
	}
	res, err := g.client.Chat.Completions.New(ctx, params, option.WithMaxRetries(1))
	if err != nil {
		f := classify(err)
		return nil, engine.Tokens{}, fmt.Errorf("guard: %s", f.Error())
	}
	used := engine.Tokens{In: int(res.Usage.PromptTokens), Out: int(res.Usage.CompletionTokens)}
	if len(res.Choices) == 0 {
		return nil, used, errors.New("guard: an answer with no choice")
	}
	answer := res.Choices[0].Message.Content
	if nativeGuard(model) {
		found, err := readNativeGuard(answer)
		if err != nil {
			return nil, used, err
		}
		out := make([]string, len(lines))
		for i := range out {
			out[i] = found // it judged them together
		}
		return out, used, nil
	}
	out, err := readGuardVerdicts(answer, len(lines))
	return out, used, err
}

// readGuardVerdicts reads the schema's answer for n lines: every line
// judged exactly once, or an error.
func readGuardVerdicts(answer string, n int) ([]string, error) {
	var v guardVerdicts
	if err := json.Unmarshal([]byte(strings.TrimSpace(answer)), &v); err != nil {
		return nil, errors.New("guard: the answer is not the schema's JSON")
	}
	out := make([]string, n)
	seen := make([]bool, n)
	for _, x := range v.Verdicts {
		if x.Line == nil || x.Safe == nil || *x.Line < 1 || *x.Line > n || seen[*x.Line-1] {
			return nil, errors.New("guard: the answer numbers the lines wrongly")
		}
		i := *x.Line - 1
		seen[i] = true
		if !*x.Safe {
			out[i] = "guard"
			if c := strings.TrimSpace(x.Category); c != "" && c != "none" {
				out[i] = "guard: " + c
			}
		}
	}
	for _, s := range seen {
		if !s {
			return nil, errors.New("guard: the answer leaves a line unjudged")
		}
	}
	return out, nil
}

// readNativeGuard reads a guard model's own answer: "safe", or "unsafe"
// followed by its categories ("unsafe\nS1,S11").
func readNativeGuard(answer string) (string, error) {
	a := strings.ToLower(strings.TrimSpace(answer))
	switch {
	case strings.HasPrefix(a, "unsafe"):
		cats := strings.Join(strings.Fields(strings.TrimPrefix(a, "unsafe")), " ")
		if cats == "" {
			return "guard", nil
		}
		return "guard: " + cats, nil
	case strings.HasPrefix(a, "safe"):
		return "", nil
	}
	return "", errors.New("guard: the guard model answered neither safe nor unsafe")
}
