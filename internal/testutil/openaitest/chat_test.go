package openaitest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
)

// chatRun is what a streamed chat call gave.
type chatRun struct {
	text   string
	finish string // the last finish_reason seen
	usage  *openai.CompletionUsage
	chunks int
	acc    openai.ChatCompletionAccumulator // openai-go's own view of the chunks
	bad    int                              // chunks the accumulator refused
}

// chatStream streams one chat call.
func chatStream(ctx context.Context, c openai.Client, includeUsage bool) (chatRun, error) {
	p := openai.ChatCompletionNewParams{
		Model: "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage("You guide.\nCURRENT PHASE: breathing"),
			openai.UserMessage("Go on."),
		},
	}
	if includeUsage {
		p.StreamOptions.IncludeUsage = openai.Bool(true)
	}
	st := c.Chat.Completions.NewStreaming(ctx, p)
	defer st.Close()
	var r chatRun
	for st.Next() {
		ch := st.Current()
		r.chunks++
		if !r.acc.AddChunk(ch) {
			r.bad++
		}
		if len(ch.Choices) == 0 {
			u := ch.Usage
			r.usage = &u
			continue
		}
		r.text += ch.Choices[0].Delta.Content
		if ch.Choices[0].FinishReason != "" {
			r.finish = ch.Choices[0].FinishReason
		}
	}
	return r, st.Err()
}

func chatText(ctx context.Context, c openai.Client, includeUsage bool) (string, error) {
	r, err := chatStream(ctx, c, includeUsage)
	return r.text, err
}

func TestChatStream(t *testing.T) {
	for _, includeUsage := range []bool{true, false} {
		t.Run(map[bool]string{true: "include_usage", false: "no usage"}[includeUsage], func(t *testing.T) {
			s, c := start(t)
			var log callLog
			s.SetText(log.text("Breathe in. Breathe out slowly now."))
			r, err := chatStream(context.Background(), c, includeUsage)
			if err != nil {
				t.Fatal(err)
			}
			if r.text != "Breathe in. Breathe out slowly now." || r.finish != "stop" {
				t.Errorf("text %q finish %q", r.text, r.finish)
			}
			if r.bad > 0 || len(r.acc.Choices) != 1 || r.acc.Choices[0].Message.Content != r.text ||
				r.acc.Choices[0].FinishReason != "stop" || r.acc.Model != "gpt-4o-mini" {
				t.Errorf("openai-go's accumulator refused %d chunks and made %+v", r.bad, r.acc.ChatCompletion)
			}
			n := len(deltas(r.text))
			if includeUsage {
				if r.usage == nil || r.usage.CompletionTokens != int64(n) || r.usage.PromptTokens < 1 ||
					r.usage.TotalTokens != r.usage.PromptTokens+r.usage.CompletionTokens {
					t.Errorf("usage %+v, want %d completion tokens", r.usage, n)
				}
			} else if r.usage != nil {
				t.Errorf("usage chunk sent without include_usage")
			}
			calls := log.all()
			want := Call{API: "chat", Model: "gpt-4o-mini", Instructions: "You guide.\nCURRENT PHASE: breathing",
				Input: []Message{{"user", "Go on."}}, N: 1}
			if len(calls) != 1 || !callEqual(calls[0], want) {
				t.Errorf("calls %+v, want %+v", calls, want)
			}
		})
	}
}

func TestChatDefaultTextNamesThePhase(t *testing.T) {
	_, c := start(t)
	text, err := chatText(context.Background(), c, false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(text, "breathing phase") != 6 {
		t.Errorf("text %q", text)
	}
}

func TestModeration(t *testing.T) {
	s, c := start(t)
	s.SetFlag(func(text string) bool { return strings.Contains(text, "hurt") })
	cases := []struct {
		name  string
		input openai.ModerationNewParamsInputUnion
		want  []bool
	}{
		{"string", openai.ModerationNewParamsInputUnion{OfString: openai.String("a calm beach")}, []bool{false}},
		{"flagged string", openai.ModerationNewParamsInputUnion{OfString: openai.String("I will hurt")}, []bool{true}},
		{"array", openai.ModerationNewParamsInputUnion{OfStringArray: []string{"hurt", "rest", "hurt again"}}, []bool{true, false, true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := c.Moderations.New(context.Background(), openai.ModerationNewParams{
				Input: tc.input, Model: openai.ModerationModelOmniModerationLatest,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Model != "omni-moderation-latest" || !strings.HasPrefix(res.ID, "modr-") {
				t.Errorf("id %q model %q", res.ID, res.Model)
			}
			var got []bool
			for _, r := range res.Results {
				got = append(got, r.Flagged)
				if r.Categories.Violence != r.Flagged || r.Categories.Harassment || r.Categories.SelfHarm {
					t.Errorf("categories %+v for flagged=%v", r.Categories, r.Flagged)
				}
				if r.Flagged && r.CategoryScores.Violence < 0.9 {
					t.Errorf("violence score %v", r.CategoryScores.Violence)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("flagged %v, want %v", got, tc.want)
			}
		})
	}
}
