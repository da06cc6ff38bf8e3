package llm

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"

	"lull/redact"
)

// Failure is why a call to the model failed, in words for the listener and
// the session's history: the HTTP status and the provider's code when there
// are any, and its message.
type Failure struct {
	Kind       string
	Status     int    // HTTP status; 0 when the failure came mid-stream or from the network
	Code       string // the provider's error code
	Message    string
	RetryAfter time.Duration // what the server asked for; 0 when it did not
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
)

// Error is the failure in words, redacted: a provider's message or a
// network error may quote the key, or a URL carrying one, and these words
// reach the log, the session's history and the screen.
func (f *Failure) Error() string {
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

// retryable reports whether another try may succeed.
func (f *Failure) retryable() bool {
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
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
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
		if apiErr.StatusCode == http.StatusBadRequest && refusesChain(apiErr) {
			f.Kind = kindChainRefused
		}
		return f
	}
	return &Failure{Kind: kindNetwork, Message: err.Error()}
}

// refusesChain spots a 400 about previous_response_id: OpenAI's
// previous_response_not_found (the response expired or was deleted), or a
// server such as llama.cpp that does not keep responses at all.
func refusesChain(e *openai.Error) bool {
	return e.Code == "previous_response_not_found" || e.Param == "previous_response_id" ||
		strings.Contains(strings.ToLower(e.Message), "previous_response_id") ||
		strings.Contains(strings.ToLower(e.Message), "previous response")
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
