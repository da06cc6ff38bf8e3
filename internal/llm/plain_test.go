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
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// Each way a real call fails is said in plain words: what happened and
// what to do, never the Go error or the provider's message, and no URL
// but the listener's own base URL where nothing answers.
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
		{"refused", refused, "Could not reach the model at " + refused + ": connection refused.", "server is running"},
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
				if c.name == "refused" && (raw == "http" || raw == "127.0.0.1") {
					continue // the listener's own address, where nothing answers
				}
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

// An address where nothing answers, or a name that does not exist, fails
// at once, with no try after the first: the listener is not left in
// silence for the backoff. A reset is tried again.
func TestUnreachableFailsAtOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	g := newGuide(t, &openaitest.Server{URL: refused}, func(cfg *Config) { cfg.BaseURL, cfg.Backoff = refused, time.Second })
	began := time.Now()
	_, _, err = drain(t, g, request(engine.Atmosphere))
	if took := time.Since(began); err == nil || took > 900*time.Millisecond {
		t.Errorf("a refused connection failed after %v (%v): it was tried again", took, err)
	}
	for _, c := range []struct {
		cause error
		why   string
	}{
		{&url.Error{Op: "Post", URL: refused, Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}, "connection refused"},
		{&url.Error{Op: "Post", URL: "http://nowhere.invalid/v1", Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "nowhere.invalid", IsNotFound: true}}}, "no such host"},
		{&url.Error{Op: "Post", URL: refused, Err: &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}}, ""},
		{&url.Error{Op: "Post", URL: "http://slow.dns/v1", Err: &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "server misbehaving", Name: "slow.dns", IsTemporary: true}}}, ""},
	} {
		f := &Failure{Kind: kindNetwork, Message: c.cause.Error(), cause: c.cause, Server: "http://localhost:11434/v1"}
		if got := f.unreachable(); got != c.why || f.retryable() == (c.why != "") {
			t.Errorf("%v: unreachable %q, retryable %v; want %q", c.cause, got, f.retryable(), c.why)
		}
		if c.why != "" {
			if want := "Could not reach the model at http://localhost:11434/v1: " + c.why + "."; Explain(f).What != want {
				t.Errorf("%v explained as %q, want %q", c.cause, Explain(f).What, want)
			}
		}
	}
}
