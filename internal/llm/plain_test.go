package llm

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// Each way a real call fails is said in plain words: what happened and
// what to do, never the Go error, the URL or the provider's message.
func TestExplainSaysWhatHappenedPlainly(t *testing.T) {
	hangUp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(hangUp.Close)
	noModel := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"error":{"message":"The model ` + "`gpt-9`" + ` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`))
	}))
	t.Cleanup(noModel.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/v1"
	ln.Close() // nothing listens there now

	faulty := func(f ...openaitest.Fault) string {
		srv := newServer(t)
		srv.Push(f...)
		return srv.URL
	}
	many := func(f openaitest.Fault) []openaitest.Fault {
		out := make([]openaitest.Fault, 10)
		for i := range out {
			out[i] = f
		}
		return out
	}
	for _, c := range []struct {
		name, base string
		what, do   string
	}{
		{"hang up", hangUp.URL + "/v1", "closed the connection", "try again"},
		{"refused", refused, "could not be reached", "server is running"},
		{"key", faulty(openaitest.Status(http.StatusUnauthorized, "")), "refused the API key", "OPENAI_API_KEY"},
		{"quota", faulty(openaitest.QuotaExhausted()), "run out of credit", "Add credit"},
		{"server", faulty(many(openaitest.Status(http.StatusInternalServerError, ""))...), "problem of its own", "built-in guide"},
		{"model", noModel.URL + "/v1", "does not have that model", "another model"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newGuide(t, &openaitest.Server{URL: c.base}, func(cfg *Config) { cfg.BaseURL = c.base })
			_, _, err := drain(t, g, request(engine.Atmosphere))
			if err == nil {
				t.Fatal("the call succeeded")
			}
			r := Explain(err)
			if !strings.Contains(r.What, c.what) || !strings.Contains(strings.ToLower(r.Do), strings.ToLower(c.do)) {
				t.Errorf("explained %q as %+v; want %q, then %q", err, r, c.what, c.do)
			}
			for _, raw := range []string{"Post", "http", "EOF", "127.0.0.1", "dial", "500", "401", "sk-", "gpt-9", "insufficient_quota"} {
				if strings.Contains(r.String(), raw) {
					t.Errorf("the reason %q quotes %q (from %q)", r, raw, err)
				}
			}
			if !strings.HasSuffix(r.What, ".") || !strings.HasSuffix(r.Do, ".") {
				t.Errorf("the reason %+v is not two sentences", r)
			}
		})
	}
}

// A hang-up while the request is still being written is a closed
// connection too, however Go words it: a broken pipe, or a write on the
// connection its transport has already closed (seen in CI as the hang-up
// case above, once in a while).
func TestExplainAHangUpMidRequest(t *testing.T) {
	for _, cause := range []error{
		&url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1/responses", Err: &net.OpError{Op: "write", Net: "tcp", Err: net.ErrClosed}},
		&url.Error{Op: "Post", URL: "http://127.0.0.1:1/v1/responses", Err: &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.EPIPE)}},
	} {
		r := Explain(&Failure{Kind: kindNetwork, Message: cause.Error(), cause: cause})
		if !strings.Contains(r.What, "closed the connection") {
			t.Errorf("%v explained as %q", cause, r.What)
		}
	}
}
