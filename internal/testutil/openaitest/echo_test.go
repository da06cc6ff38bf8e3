package openaitest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

const echoedKey = "sk-echo-0123456789abcdef"

// keyed is a client of s that sends echoedKey.
func keyed(t *testing.T, s *Server) openai.Client {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return openai.NewClient(option.WithBaseURL(s.URL), option.WithAPIKey(echoedKey),
		option.WithMaxRetries(0), option.WithHTTPClient(&http.Client{Transport: tr}))
}

func TestEchoKeyQuotesTheRequestsKey(t *testing.T) {
	s := New()
	t.Cleanup(s.Close)
	c := keyed(t, s)
	s.Push(EchoKey(401), EchoKey(401))

	r := ask(timeout(t, 30*time.Second), c, responses.ResponseNewParams{Input: input("hi")})
	e := apiErr(t, r.err)
	if e.StatusCode != 401 || e.Code != "invalid_api_key" || !strings.Contains(e.Message, "invalid key "+echoedKey) {
		t.Errorf("responses: %d %q %q", e.StatusCode, e.Code, e.Message)
	}

	_, err := c.Chat.Completions.New(timeout(t, 30*time.Second), openai.ChatCompletionNewParams{
		Model: "gpt-4.1-mini", Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}})
	if e := apiErr(t, err); e.StatusCode != 401 || !strings.Contains(e.Message, echoedKey) {
		t.Errorf("chat: %d %q", e.StatusCode, e.Message)
	}
}

func TestRedirectKeyEndsInANetworkErrorQuotingTheKey(t *testing.T) {
	s := New()
	t.Cleanup(s.Close)
	c := keyed(t, s)
	s.Push(RedirectKey())

	r := ask(timeout(t, 30*time.Second), c, responses.ResponseNewParams{Input: input("hi")})
	if r.err == nil || !strings.Contains(r.err.Error(), "?api_key="+echoedKey) {
		t.Fatalf("error %v, want a network error quoting the key in a URL", r.err)
	}
	if !strings.Contains(r.err.Error(), gonePath) {
		t.Errorf("error %v does not name where it was sent", r.err)
	}
	// The next request is served normally: the fault was used up.
	if got := ask(timeout(t, 30*time.Second), c, responses.ResponseNewParams{Input: input("hi")}); got.err != nil {
		t.Errorf("after the fault: %v", got.err)
	}
}
