package llm

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
)

// Reason is why the guide stopped, for a listener: What happened and what
// they can Do, in plain words, each a sentence. It never quotes an error:
// the status, the code and the provider's message are for the log and the
// session's history. The TUI's interrupted screen and --no-tui both say it.
type Reason struct {
	What string
	Do   string
}

// String is the reason as one paragraph.
func (r Reason) String() string { return r.What + " " + r.Do }

// The words a listener can act on, shared by several reasons.
const (
	tryAgain      = "Try again in a moment."
	tryAgainLater = "Try again in a minute or two, or carry on with the built-in guide."
	checkNetwork  = "Check the network, or that the server is running, then try again."
	checkKey      = "Check the API key (OPENAI_API_KEY, or LULL_LLM_API_KEY for a server of your own)."
	checkModel    = "Check the model's name, or try another model."
)

// Explain says in plain words why a call to the model failed. An error
// that is no failure of the model's server (a bug, the safety screen)
// gets a general reason.
func Explain(err error) Reason {
	var f *Failure
	if !errors.As(err, &f) {
		if errors.Is(err, context.DeadlineExceeded) {
			return Reason{"The guide's server took too long to answer.", tryAgain}
		}
		return Reason{"The guide stopped unexpectedly.", "Try again, or carry on with the built-in guide."}
	}
	switch f.Kind {
	case kindQuota:
		return Reason{"The API account has run out of credit.", "Add credit or check the plan and billing with the provider; meanwhile the built-in guide can carry on."}
	case kindNetwork:
		return Reason{network(f), checkNetwork}
	case kindWatchdog:
		return Reason{"The server stopped sending words partway through an answer.", tryAgain + " If it keeps happening, try another model."}
	case kindCut:
		return Reason{"The server's answer broke off before its end.", tryAgain}
	case kindModeration:
		return Reason{"The check of the words for safety could not be made.", tryAgain}
	case kindChainRefused:
		return Reason{"The server could not carry on the conversation it had stored.", "Try again: lull sends the session so far with the next call."}
	case kindNoResponses:
		return Reason{"The server does not offer the API lull asks it for.", "Check the base URL: it should end in /v1."}
	case kindUnsupported:
		return Reason{fmt.Sprintf("The model does not take one of lull's settings (%s).", printable(f.Param)), "Try another model."}
	}
	switch code := f.Code; {
	case code == "invalid_api_key" || f.Status == http.StatusUnauthorized:
		return Reason{"The server refused the API key.", checkKey}
	case code == "model_not_found" || f.Status == http.StatusNotFound && strings.Contains(strings.ToLower(f.Message), "model"):
		return Reason{"The server does not have that model.", checkModel}
	case code == "content_filter":
		return Reason{"The server's content filter stopped the answer.", "Try again, or carry on with the built-in guide."}
	case f.Status == http.StatusForbidden:
		return Reason{"The server refused access with this key.", checkKey + " The account may not have access to this model."}
	case f.Status == http.StatusTooManyRequests:
		return Reason{"The server is receiving too many requests and asked lull to slow down.", tryAgainLater}
	case f.Status >= 500:
		return Reason{"The server had a problem of its own.", tryAgainLater}
	case f.Status >= 400:
		return Reason{fmt.Sprintf("The server refused lull's request (HTTP %d).", f.Status), checkModel}
	case f.Kind == kindStreamRefused, f.Kind == kindStreamError:
		return Reason{"The server reported an error partway through an answer.", tryAgain}
	}
	return Reason{"The guide's server failed.", tryAgain}
}

// network says what became of the connection.
func network(f *Failure) string {
	err, msg := f.cause, strings.ToLower(f.Message)
	var dns *net.DNSError
	var netErr net.Error
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	switch {
	// A hang-up shows as an end of the answer, a reset, or — when it comes
	// while the request is still being written — a broken pipe or a write
	// on the connection Go has already closed for it.
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) ||
		strings.HasSuffix(msg, ": eof") || strings.Contains(msg, "connection reset") ||
		strings.Contains(msg, "broken pipe") || strings.Contains(msg, "use of closed network connection"):
		return "The server closed the connection before it answered."
	case f.unreachable() != "":
		// The address is the listener's own setting: saying it shows a
		// typo, a wrong port, a server not started.
		if f.Server != "" {
			return fmt.Sprintf("Could not reach the model at %s: %s.", f.Server, f.unreachable())
		}
		return fmt.Sprintf("Could not reach the model: %s.", f.unreachable())
	case errors.As(err, &dns):
		return "The server's name could not be found."
	case errors.As(err, &unknownCA) || errors.As(err, &hostname) || strings.Contains(msg, "certificate"):
		return "The server's certificate could not be trusted."
	case errors.As(err, &netErr) && netErr.Timeout() || strings.Contains(msg, "timeout"):
		return "The server did not answer in time."
	}
	return "The server could not be reached."
}

// printable keeps a parameter's name short and plain: it came from a server.
func printable(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	if s == "" {
		return "unnamed"
	}
	return s
}
