package openaitest

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"sync"
)

// testdata holds the recorded OpenAI traffic (provenance in
// testdata/README.md). Every event the fake sends is one of these
// recorded events with the request's values put in, so a field the real
// API sends is never missing from the fake's.
//
//go:embed testdata/*.sse testdata/*.json
var testdata embed.FS

// recorded is one server-sent event as stored.
type recorded struct {
	Type string // the event: line; "" when the stream has none (chat)
	Data []byte // the data: line
}

// readSSE splits a recorded stream into its events.
func readSSE(file string) ([]recorded, error) {
	body, err := testdata.ReadFile(path.Join("testdata", file))
	if err != nil {
		return nil, err
	}
	var events []recorded
	for block := range strings.SplitSeq(string(body), "\n\n") {
		var ev recorded
		for line := range strings.SplitSeq(block, "\n") {
			if t, ok := strings.CutPrefix(line, "event: "); ok {
				ev.Type = t
			} else if d, ok := strings.CutPrefix(line, "data: "); ok {
				ev.Data = []byte(d)
			}
		}
		if ev.Data != nil {
			events = append(events, ev)
		}
	}
	return events, nil
}

// templateSet is the recorded events the fake builds its answers from,
// parsed once.
type templateSet struct {
	// Responses events from responses_stream_text.sse, by event type.
	created, inProgress, itemAdded, partAdded, delta, textDone, partDone, itemDone, completed *object
	// The failure ending from responses_stream_error_event.derived.sse.
	errorEvent, failed *object
	// The server_error event of responses_stream_error_null_code.derived.sse.
	serverError *object
	// A reasoning item's events from responses_stream_reasoning.derived.sse:
	// the item added, its summary part and text, and the item done.
	reasoningAdded, summaryPartAdded, summaryDelta, summaryDone, summaryPartDone, reasoningDone *object

	// Chat chunks from chat_stream_text_include_usage.sse: the first
	// (role) chunk, a content chunk, the finish_reason chunk and the usage
	// chunk.
	chatRole, chatContent, chatFinish, chatUsage *object

	moderation *object // moderations_omni_example.json
	deletion   *object // delete_response_example.json
	notFound   *object // error_400_previous_response_not_found.json
	// A parameter the model does not take: error_400_unsupported_parameter.json
	// (any parameter), error_400_reasoning_model_temperature.json.
	unsupported, temperature *object
}

var templates = sync.OnceValue(func() *templateSet {
	t, err := loadTemplates()
	if err != nil {
		panic(err) // the files are embedded: a failure is a broken build
	}
	return t
})

func loadTemplates() (*templateSet, error) {
	var t templateSet
	byType, err := eventsByType("responses_stream_text.sse")
	if err != nil {
		return nil, err
	}
	for typ, dst := range map[string]**object{
		"response.created":            &t.created,
		"response.in_progress":        &t.inProgress,
		"response.output_item.added":  &t.itemAdded,
		"response.content_part.added": &t.partAdded,
		"response.output_text.delta":  &t.delta,
		"response.output_text.done":   &t.textDone,
		"response.content_part.done":  &t.partDone,
		"response.output_item.done":   &t.itemDone,
		"response.completed":          &t.completed,
	} {
		if *dst = byType[typ]; *dst == nil {
			return nil, fmt.Errorf("openaitest: no %s event recorded", typ)
		}
	}
	failure, err := eventsByType("responses_stream_error_event.derived.sse")
	if err != nil {
		return nil, err
	}
	if t.errorEvent, t.failed = failure["error"], failure["response.failed"]; t.errorEvent == nil || t.failed == nil {
		return nil, fmt.Errorf("openaitest: the error recording lacks error or response.failed")
	}

	if t.serverError, err = oneEvent("responses_stream_error_null_code.derived.sse", "error"); err != nil {
		return nil, err
	}
	reasoning, err := eventsByType("responses_stream_reasoning.derived.sse")
	if err != nil {
		return nil, err
	}
	t.reasoningAdded, t.reasoningDone = reasoning["response.output_item.added"], reasoning["response.output_item.done"]
	t.summaryPartAdded, t.summaryPartDone = reasoning["response.reasoning_summary_part.added"], reasoning["response.reasoning_summary_part.done"]
	t.summaryDelta, t.summaryDone = reasoning["response.reasoning_summary_text.delta"], reasoning["response.reasoning_summary_text.done"]
	for _, o := range []*object{t.reasoningAdded, t.reasoningDone, t.summaryPartAdded, t.summaryPartDone, t.summaryDelta, t.summaryDone} {
		if o == nil {
			return nil, fmt.Errorf("openaitest: the reasoning recording lacks an event")
		}
	}

	chunks, err := readSSE("chat_stream_text_include_usage.sse")
	if err != nil {
		return nil, err
	}
	var parsed []*object
	for _, c := range chunks {
		if string(c.Data) == "[DONE]" {
			continue
		}
		o, err := parseObject(c.Data)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, o)
	}
	if len(parsed) < 4 {
		return nil, fmt.Errorf("openaitest: the chat recording is too short")
	}
	t.chatRole, t.chatContent = parsed[0], parsed[1]
	t.chatFinish, t.chatUsage = parsed[len(parsed)-2], parsed[len(parsed)-1]

	for file, dst := range map[string]**object{
		"moderations_omni_example.json":              &t.moderation,
		"delete_response_example.json":               &t.deletion,
		"error_400_previous_response_not_found.json": &t.notFound,
		"error_400_unsupported_parameter.json":       &t.unsupported,
		"error_400_reasoning_model_temperature.json": &t.temperature,
	} {
		body, err := testdata.ReadFile(path.Join("testdata", file))
		if err != nil {
			return nil, err
		}
		if *dst, err = parseObject(body); err != nil {
			return nil, fmt.Errorf("openaitest: %s: %w", file, err)
		}
	}
	return &t, nil
}

// eventsByType parses a recorded Responses stream, keeping the first
// event of each type.
func eventsByType(file string) (map[string]*object, error) {
	events, err := readSSE(file)
	if err != nil {
		return nil, err
	}
	out := map[string]*object{}
	for _, ev := range events {
		if _, seen := out[ev.Type]; seen {
			continue
		}
		o, err := parseObject(ev.Data)
		if err != nil {
			return nil, fmt.Errorf("openaitest: %s %s: %w", file, ev.Type, err)
		}
		out[ev.Type] = o
	}
	return out, nil
}

// oneEvent is the first event of a type in a recorded Responses stream.
func oneEvent(file, typ string) (*object, error) {
	byType, err := eventsByType(file)
	if err != nil {
		return nil, err
	}
	if byType[typ] == nil {
		return nil, fmt.Errorf("openaitest: %s has no %s event", file, typ)
	}
	return byType[typ], nil
}

// replayContentType is the content type a recording was served with: the
// one its .meta.json names, else what its extension implies.
func replayContentType(file string) string {
	if meta, err := testdata.ReadFile(path.Join("testdata", file+".meta.json")); err == nil {
		var m struct {
			Headers map[string][]string `json:"response_headers"`
		}
		if json.Unmarshal(meta, &m) == nil && len(m.Headers["content-type"]) > 0 {
			return m.Headers["content-type"][0]
		}
	}
	if strings.HasSuffix(file, ".json") {
		return "application/json"
	}
	if strings.HasSuffix(file, ".sse") {
		return eventStream
	}
	return "text/plain; charset=utf-8"
}
