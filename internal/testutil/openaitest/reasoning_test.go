package openaitest

import (
	"bufio"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// A reasoning model's stream: its reasoning item (summary deltas while it
// thinks) before the message, which is output 1; the effort echoed; the
// reasoning tokens in the usage; the first text only after the thinking.
func TestReasoningModelStream(t *testing.T) {
	s, c := start(t)
	s.SetText(func(Call) string { return sixWords })
	const think = 300 * time.Millisecond
	s.SetReasoning(&Reasoning{Think: think, Summary: 40 * time.Millisecond})
	began := time.Now()
	var firstText time.Duration
	st := c.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{
		Model: "o4-mini", Input: input("hi"),
		Reasoning: shared.ReasoningParam{Effort: shared.ReasoningEffortLow},
	})
	defer st.Close()
	var types []string
	var created, last responses.ResponseStreamEventUnion
	var text, summary string
	for st.Next() {
		ev := st.Current()
		types = append(types, ev.Type)
		switch ev.Type {
		case "response.created":
			created = ev
		case "response.reasoning_summary_text.delta":
			summary += ev.Delta
		case "response.output_text.delta":
			if text == "" {
				firstText = time.Since(began)
			}
			text += ev.Delta
			if ev.OutputIndex != 1 {
				t.Errorf("text delta at output %d, want 1 (after the reasoning item)", ev.OutputIndex)
			}
		}
		last = ev
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	if created.Response.Reasoning.Effort != "low" {
		t.Errorf("response.created echoes effort %q, want the request's low", created.Response.Reasoning.Effort)
	}
	want := []string{"response.created", "response.in_progress", "response.output_item.added", "response.reasoning_summary_part.added", "response.reasoning_summary_text.delta"}
	if !slices.Equal(types[:5], want) {
		t.Errorf("stream starts %v, want %v", types[:5], want)
	}
	for _, typ := range []string{"response.reasoning_summary_text.done", "response.reasoning_summary_part.done", "response.output_item.done"} {
		if !slices.Contains(types, typ) {
			t.Errorf("no %s in %v", typ, types)
		}
	}
	if firstText < think {
		t.Errorf("first text after %v, before the %v of thinking", firstText, think)
	}
	if text != sixWords || summary == "" || strings.Contains(text, summary) {
		t.Errorf("text %q, summary %q", text, summary)
	}
	resp := last.Response
	if last.Type != "response.completed" || len(resp.Output) != 2 || resp.Output[0].Type != "reasoning" ||
		resp.Output[1].Type != "message" || resp.OutputText() != sixWords {
		t.Fatalf("last %s, output %+v", last.Type, resp.Output)
	}
	if resp.Output[0].Summary[0].Text != summary {
		t.Errorf("reasoning item's summary %q, deltas gave %q", resp.Output[0].Summary[0].Text, summary)
	}
	u := resp.Usage
	if u.OutputTokensDetails.ReasoningTokens != reasoningTokens || u.OutputTokens != int64(len(deltas(sixWords))+reasoningTokens) {
		t.Errorf("usage %+v", u)
	}
}

// Without a summary asked for, the reasoning item is silent; the default
// effort is "medium"; an ordinary model echoes no effort.
func TestReasoningEffortEcho(t *testing.T) {
	s, c := start(t)
	r := ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi")})
	if resp := completed(t, r); resp.Reasoning.Effort != "" {
		t.Errorf("an ordinary model echoes effort %q", resp.Reasoning.Effort)
	}
	s.SetReasoning(&Reasoning{})
	r = ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi")})
	if resp := completed(t, r); resp.Reasoning.Effort != "medium" {
		t.Errorf("effort %q, want the default medium", resp.Reasoning.Effort)
	}
	if r.saw("response.reasoning_summary_text.delta") || !r.saw("response.output_item.added") {
		t.Errorf("events %v", r.types)
	}
}

// The fake's reasoning events carry every field of the recorded ones, in
// their order.
func TestReasoningEventsCarryEveryRecordedField(t *testing.T) {
	s, _ := start(t)
	s.SetReasoning(&Reasoning{Think: 50 * time.Millisecond, Summary: 10 * time.Millisecond})
	recorded, err := eventsByType("responses_stream_reasoning.derived.sse")
	if err != nil {
		t.Fatal(err)
	}
	text, err := eventsByType("responses_stream_text.sse")
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Post(s.URL+"/responses", "application/json", strings.NewReader(`{"model":"o3","input":"hi","stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	seen := map[string]bool{}
	for _, f := range sseFrames(t, res) {
		got, err := parseObject([]byte(f[1]))
		if err != nil {
			t.Fatal(err)
		}
		item, _ := got.get("item").(*object)
		want := text[f[0]]
		if item != nil && item.get("type") == "reasoning" || strings.HasPrefix(f[0], "response.reasoning_") {
			want = recorded[f[0]]
		}
		if want == nil {
			t.Fatalf("event %q is in no recording", f[0])
		}
		seen[f[0]] = true
		if resp, _ := got.get("response").(*object); resp != nil && len(resp.list("output")) == 2 {
			// The reasoning item, then the message of the text recording.
			out := resp.list("output")
			sameKeys(t, f[0]+" reasoning item", recorded["response.output_item.done"].obj("item"), out[0].(*object))
			resp.set("output", out[1:])
		}
		sameKeys(t, f[0], want, got)
	}
	for typ := range recorded {
		if !seen[typ] {
			t.Errorf("no %s sent", typ)
		}
	}
}

// While a model thinks, keep-alive comments come through the wire (a
// client's SSE parser skips them).
func TestKeepAliveComments(t *testing.T) {
	s, _ := start(t)
	s.SetReasoning(&Reasoning{Think: 200 * time.Millisecond, KeepAlive: 30 * time.Millisecond})
	for _, tc := range []struct{ path, body string }{
		{"/responses", `{"model":"o3","input":"hi","stream":true}`},
		{"/chat/completions", `{"model":"o3","stream":true,"messages":[{"role":"user","content":"hi"}]}`},
	} {
		res, err := http.Post(s.URL+tc.path, "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		comments, data := 0, 0
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			switch line := sc.Text(); {
			case line == ": OPENROUTER PROCESSING":
				if data == 0 {
					t.Errorf("%s: a comment before any event", tc.path)
				}
				comments++
			case strings.HasPrefix(line, "data: "):
				data++
			}
		}
		res.Body.Close()
		if comments < 2 {
			t.Errorf("%s: %d keep-alive comments in 200ms of thinking at one per 30ms", tc.path, comments)
		}
	}
}

// A reasoning model refuses temperature with the recorded 400.
func TestReasoningModelRefusesTemperature(t *testing.T) {
	s, c := start(t)
	s.SetReasoning(&Reasoning{})
	r := ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi"), Temperature: openai.Float(0.7)})
	e := apiErr(t, r.err)
	if e.StatusCode != 400 || e.Param != "temperature" || e.Code != "" ||
		e.Message != "Unsupported parameter: 'temperature' is not supported with this model." {
		t.Errorf("%d %q %q %q", e.StatusCode, e.Param, e.Code, e.Message)
	}
	_, err := c.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model: "o3", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}, Temperature: openai.Float(0.7),
	})
	if e := apiErr(t, err); e.StatusCode != 400 || e.Param != "temperature" {
		t.Errorf("chat: %d %q", e.StatusCode, e.Param)
	}
	completed(t, ask(context.Background(), c, responses.ResponseNewParams{Input: input("hi")}))
}

// A chat reasoning model streams reasoning_content before its content,
// and counts reasoning tokens.
func TestChatReasoningContent(t *testing.T) {
	s, c := start(t)
	s.SetText(func(Call) string { return sixWords })
	s.SetReasoning(&Reasoning{Think: 100 * time.Millisecond, Summary: 10 * time.Millisecond})
	st := c.Chat.Completions.NewStreaming(context.Background(), openai.ChatCompletionNewParams{
		Model: "deepseek-reasoner", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	})
	defer st.Close()
	var thought, text string
	var usage openai.CompletionUsage
	for st.Next() {
		ch := st.Current()
		if len(ch.Choices) == 0 {
			usage = ch.Usage
			continue
		}
		d := ch.Choices[0].Delta
		if r, ok := d.JSON.ExtraFields["reasoning_content"]; ok && r.Raw() != "null" {
			if text != "" {
				t.Errorf("reasoning after the text began")
			}
			thought += strings.Trim(r.Raw(), `"`)
		}
		text += d.Content
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	if thought == "" || text != sixWords {
		t.Errorf("thought %q text %q", thought, text)
	}
	if usage.CompletionTokensDetails.ReasoningTokens != reasoningTokens {
		t.Errorf("usage %+v", usage)
	}
}
