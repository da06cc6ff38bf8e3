package audio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/lull-dev/lull/internal/redact"
)

// failure says what went wrong with a request: the HTTP status and the
// server's own message, a timeout, or an unreachable server.
func (s *speech) failure(err error, raw *http.Response) error {
	var api *openai.Error
	switch {
	case errors.As(err, &api) && api.Message != "":
		return s.fail("HTTP %s: %s", status(api.StatusCode), oneLine(api.Message))
	case raw != nil && raw.StatusCode >= 400:
		// Not OpenAI's error shape: another server's, read from the body
		// openai-go kept.
		body, _ := io.ReadAll(io.LimitReader(raw.Body, 4<<10))
		return s.fail("HTTP %s: %s", status(raw.StatusCode), or(serverMessage(body), "no message"))
	case errors.Is(err, context.DeadlineExceeded):
		return s.fail("timed out: no answer from %s within %v", s.where, s.timeout)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err // its URL is said once, below
	}
	return s.fail("could not reach %s: %v", s.where, err)
}

// fail names the voice and keeps the key out of the message, whatever a
// server echoed back.
func (s *speech) fail(format string, args ...any) error {
	msg := redact.Text(fmt.Sprintf(format, args...))
	return &voiceError{voice: s.Name(), err: errors.New(msg)}
}

// serverMessage finds the human part of an error body: OpenAI's
// {"error":{"message"}}, the {"error":"…"}, {"detail":"…"} or
// {"message":"…"} of other servers, or the text itself.
func serverMessage(body []byte) string {
	var m struct {
		Error   json.RawMessage `json:"error"`
		Detail  any             `json:"detail"`
		Message string          `json:"message"`
	}
	text := strings.TrimSpace(string(body))
	if json.Unmarshal(body, &m) == nil {
		var nested struct{ Message string }
		var flat string
		switch {
		case json.Unmarshal(m.Error, &nested) == nil && nested.Message != "":
			text = nested.Message
		case json.Unmarshal(m.Error, &flat) == nil && flat != "":
			text = flat
		case m.Message != "":
			text = m.Message
		case m.Detail != nil:
			text = fmt.Sprint(m.Detail)
		}
	}
	return oneLine(text)
}

// oneLine fits a server's message into a notice.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}

func status(code int) string {
	return strings.TrimSpace(strconv.Itoa(code) + " " + http.StatusText(code))
}

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
