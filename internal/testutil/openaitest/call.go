package openaitest

import "strings"

// Call is what SetText's function sees about one generation request.
type Call struct {
	API          string    // "responses" or "chat"
	Model        string    // the request's model
	Instructions string    // responses: the instructions field; chat: the system (and developer) messages joined by blank lines
	Input        []Message // responses: the input items (a plain string input becomes one user message); chat: the non-system messages
	PreviousID   string    // previous_response_id as sent (responses only)
	Store        bool      // the store field; absent means true for responses (like the real API), false for chat
	N            int       // 1-based count of generation calls so far on this server
	// Schema is the name of the JSON schema the request asks its answer
	// to follow (chat's response_format json_schema), "" for plain text:
	// lull's guard asks for "lull_guard".
	Schema string

	// History is the conversation previous_response_id brings in: the
	// chained responses' inputs and answers, oldest first. It is empty
	// when the server ignores previous_response_id (SetIgnorePrevious),
	// which is how a test sees that the model lost the context.
	History []Message
}

// Message is one turn of a conversation, its text parts joined.
type Message struct{ Role, Text string }

// prompt is all the text a call sends, for the input token estimate.
func (c Call) prompt() []string {
	texts := []string{c.Instructions}
	for _, m := range c.History {
		texts = append(texts, m.Text)
	}
	for _, m := range c.Input {
		texts = append(texts, m.Text)
	}
	return texts
}

// responsesInput reads a Responses input field: a string, or a list of
// items of which the messages count (role + content as a string or as
// input_text/output_text parts). Other items (function calls and their
// outputs) carry no conversation text lull uses and are skipped.
func responsesInput(v any) []Message {
	switch t := v.(type) {
	case string:
		return []Message{{Role: "user", Text: t}}
	case []any:
		var out []Message
		for _, m := range messages(t) {
			if m.Role != "" {
				out = append(out, m)
			}
		}
		return out
	}
	return nil
}

// chatMessages splits a Chat Completions message list into the system
// text and the rest.
func chatMessages(v any) (system string, rest []Message) {
	list, _ := v.([]any)
	var sys []string
	for _, m := range messages(list) {
		if m.Role == "system" || m.Role == "developer" {
			sys = append(sys, m.Text)
			continue
		}
		rest = append(rest, m)
	}
	return strings.Join(sys, "\n\n"), rest
}

// messages reads each object of a message list as its role and its
// content's text, for Responses and Chat Completions alike.
func messages(list []any) []Message {
	var out []Message
	for _, item := range list {
		if o, ok := item.(*object); ok {
			role, _ := o.get("role").(string)
			out = append(out, Message{Role: role, Text: contentText(o.get("content"))})
		}
	}
	return out
}

// contentText joins a content field: a string, or parts with a "text".
func contentText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var parts []string
		for _, p := range t {
			if o, ok := p.(*object); ok {
				if s, ok := o.get("text").(string); ok {
					parts = append(parts, s)
				}
			}
		}
		return strings.Join(parts, "")
	}
	return ""
}

// instructionsText reads the instructions field, which may also be a list
// of input items (the API accepts both).
func instructionsText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var parts []string
	for _, m := range responsesInput(v) {
		parts = append(parts, m.Text)
	}
	return strings.Join(parts, "\n\n")
}
