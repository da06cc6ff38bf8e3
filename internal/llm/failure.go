package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/lull-dev/lull/internal/redact"
)

// Failure is why a call to the model failed, in words for the listener and
// the session's history: the HTTP status and the provider's code when there
// are any, and its message.
type Failure struct {
	Kind       string
	Status     int    // HTTP status; 0 when the failure came mid-stream or from the network
	Code       string // the provider's error code
	Param      string // the request parameter the provider refused, when it named one
	Message    string
	RetryAfter time.Duration // what the server asked for; 0 when it did not
	// Server is the base URL a network failure could not reach, for
	// Explain: the listener's own setting, nothing secret (redact.URL).
	Server string
	cause  error // a network failure's own error, for Explain; never printed
}

// Kinds of failure; only some are worth another try.
const (
	kindStatus        = "status"        // an HTTP error answer
	kindStreamError   = "stream error"  // an error event mid-stream
	kindCut           = "cut"           // the stream ended without its end
	kindWatchdog      = "watchdog"      // no token for too long
	kindNetwork       = "network"       // the connection failed
	kindModeration    = "moderation"    // the moderation check failed
	kindChainRefused  = "chain refused" // the server cannot continue a stored response
	kindNoResponses   = "no responses"  // the server has no /v1/responses
	kindStreamRefused = "refused"       // an error event that another try will not fix
	kindQuota         = "quota"         // the account has no credit left
	kindUnsupported   = "unsupported"   // a 400 for a parameter the model does not take
)

// quotaWords say what an exhausted quota means and what to do, in place of
// the provider's message, which asks the reader to read its docs.
const quotaWords = "the API account has run out of credit (insufficient_quota): add credit, or check the plan and billing " +
	"(for OpenAI: https://platform.openai.com/settings/organization/billing); meanwhile the built-in guide can carry on (--guide builtin)"

// quota is the failure of an account with no credit left: never retried.
func quota(status int) *Failure {
	return &Failure{Kind: kindQuota, Status: status, Code: "insufficient_quota", Message: quotaWords}
}

// Error is the failure in words, redacted: a provider's message or a
// network error may quote the key, or a URL carrying one, and these words
// reach the log, the session's history and the screen.
func (f *Failure) Error() string {
	if f.Kind == kindQuota {
		return f.Message // already says the code, in words
	}
	var b strings.Builder
	if f.Status != 0 {
		fmt.Fprintf(&b, "%d ", f.Status)
	}
	if f.Code != "" {
		fmt.Fprintf(&b, "%s: ", f.Code)
	}
	b.WriteString(f.Message)
	return redact.Text(b.String())
}

// retryable reports whether another try may succeed. An address where
// nothing answers, or a name that does not exist, is known at once: the
// listener is not left in silence while it is asked again.
func (f *Failure) retryable() bool {
	if f.unreachable() != "" {
		return false
	}
	switch f.Kind {
	case kindCut, kindWatchdog, kindNetwork, kindStreamError, kindModeration:
		return true
	case kindStatus:
		return f.Status == http.StatusTooManyRequests && f.Code != "insufficient_quota" ||
			f.Status == http.StatusRequestTimeout || f.Status == http.StatusConflict || f.Status >= 500
	}
	return false
}

// wait is how long to wait before try attempt+1: the server's Retry-After
// when it gave one, else a doubling backoff with jitter. A failure not
// worth retrying, or a Retry-After longer than the listener should sit in
// silence, says no.
func (f *Failure) wait(attempt int, cfg Config) (time.Duration, bool) {
	if !f.retryable() {
		return 0, false
	}
	if f.RetryAfter > 0 {
		return f.RetryAfter, f.RetryAfter <= cfg.MaxWait
	}
	d := cfg.Backoff << (attempt - 1)
	d += time.Duration(rand.Int64N(int64(d)/4 + 1))
	return min(d, cfg.MaxWait), true
}

// classify turns what openai-go or the stream returned into a Failure.
func classify(err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	// openai-go ends a stream at an event with an "error" object — the
	// Responses error event in its nested shape, a chat chunk
	// {"error":{…}} — and hands over its raw text: read, never quoted.
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		return eventFailure(se.Event.Data)
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		if apiErr.Code == "insufficient_quota" || apiErr.StatusCode == http.StatusPaymentRequired {
			return quota(apiErr.StatusCode)
		}
		f := &Failure{Kind: kindStatus, Status: apiErr.StatusCode, Code: apiErr.Code, Message: apiErr.Message}
		if f.Message == "" {
			f.Message = http.StatusText(apiErr.StatusCode)
		}
		if apiErr.Response != nil {
			f.RetryAfter = retryAfter(apiErr.Response.Header, time.Now())
			// A 404 or 405 for the endpoint itself, not for a model the
			// server does not have, means it has no Responses API.
			missing := apiErr.StatusCode == http.StatusNotFound || apiErr.StatusCode == http.StatusMethodNotAllowed
			if missing && strings.HasSuffix(apiErr.Response.Request.URL.Path, "/responses") && !strings.Contains(strings.ToLower(apiErr.Message), "model") {
				f.Kind = kindNoResponses
			}
		}
		if apiErr.StatusCode == http.StatusBadRequest {
			if refusesChain(apiErr) {
				f.Kind = kindChainRefused
			} else if p := unsupportedParam(apiErr); p != "" {
				f.Kind, f.Param = kindUnsupported, p
			}
		}
		return f
	}
	return &Failure{Kind: kindNetwork, Message: err.Error(), cause: err}
}

// refusesChain spots a 400 about previous_response_id: OpenAI's
// previous_response_not_found (the response expired or was deleted), or a
// server such as llama.cpp that does not keep responses at all.
func refusesChain(e *openai.Error) bool {
	return e.Code == "previous_response_not_found" || e.Param == "previous_response_id" ||
		strings.Contains(strings.ToLower(e.Message), "previous_response_id") ||
		strings.Contains(strings.ToLower(e.Message), "previous response")
}

// eventFailure reads an error event's data, whose fields come either
// nested in an "error" object (as recorded from OpenAI, and as chat
// chunks carry them) or at its top level (as the API reference documents
// the event). Its words are the server's message, never the raw event.
func eventFailure(data []byte) *Failure {
	type fields struct {
		Code    json.RawMessage `json:"code"` // a string, null, or (OpenRouter) the HTTP status
		Message string          `json:"message"`
		Type    string          `json:"type"`
	}
	var ev struct {
		fields
		Error *fields `json:"error"`
	}
	_ = json.Unmarshal(data, &ev) // what cannot be read is a failure without words
	e := ev.fields
	if ev.Error != nil {
		e = *ev.Error
	}
	f := &Failure{Kind: kindStreamError, Message: orText(e.Message, "the server reported an error mid-stream")}
	var code string
	if json.Unmarshal(e.Code, &code) != nil {
		var status json.Number
		if json.Unmarshal(e.Code, &status) == nil {
			code = status.String()
		}
	}
	switch {
	case code != "":
		f.Code = code
	case e.Type != "error": // the flat event's type is the event's own
		f.Code = e.Type
	}
	switch f.Code {
	case "insufficient_quota":
		return quota(0)
	case "invalid_prompt", "invalid_api_key", "model_not_found":
		f.Kind = kindStreamRefused // another try meets the same answer
	}
	return f
}

// refusedParam finds the parameter a 400 refuses in the words servers
// use: OpenAI's "Unsupported parameter: 'reasoning.effort' is not
// supported with this model." (and "Unsupported value: 'X' does not
// support …"), Groq's "property 'X' is unsupported", the older
// "Unrecognized request argument supplied: X".
var refusedParam = regexp.MustCompile(`(?i)unsupported (?:parameter|value):\s*'([^']+)'|property '([^']+)' is unsupported|'([^']+)' is not supported|unrecognized request arguments? supplied:\s*([A-Za-z0-9_.]+)`)

// unsupportedParam names the parameter a 400 says the model or server
// does not take; "" when it names none.
func unsupportedParam(e *openai.Error) string {
	if m := refusedParam.FindStringSubmatch(e.Message); m != nil {
		for _, name := range m[1:] {
			if name != "" {
				return name
			}
		}
	}
	if e.Code == "unsupported_parameter" || e.Code == "unsupported_value" {
		return e.Param
	}
	return ""
}

// retryAfter reads the server's wish: retry-after-ms, then Retry-After in
// seconds or as a date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// unreachable says why the model's server cannot be reached at all, in
// the words of the error (connection refused, no such host), or "" when
// it may be reachable: a timeout, a reset or a name lookup that failed
// for now is worth another try.
func (f *Failure) unreachable() string {
	if f.Kind != kindNetwork {
		return ""
	}
	msg := strings.ToLower(f.Message)
	var dns *net.DNSError
	switch {
	case errors.Is(f.cause, syscall.ECONNREFUSED) || strings.Contains(msg, "connection refused"):
		return "connection refused"
	case errors.As(f.cause, &dns) && dns.IsNotFound || strings.Contains(msg, "no such host"):
		return "no such host"
	}
	return ""
}
