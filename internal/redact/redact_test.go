package redact

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	cases := map[string]string{
		"http://localhost:8880/v1":                           "http://localhost:8880/v1",
		"https://user:pass@speech.example/v1":                "https://speech.example/v1",
		"https://speech.example/v1?token=abc123&voice=x":     "https://speech.example/v1?token=REDACTED&voice=REDACTED",
		"https://speech.example/v1?debug&token=":             "https://speech.example/v1?debug&token=",
		"https://x.example/cb#access_token=abc":              "https://x.example/cb#REDACTED",
		"https://u:p@x.example/v1?api_key=sk-abc#frag":       "https://x.example/v1?api_key=REDACTED#REDACTED",
		"http://h.example/%zz?token=x":                       "(an unreadable URL)",
		"https://proxy.example/v1/sk-live0123456789abcdefgh": "https://proxy.example/v1/REDACTED",
	}
	for in, want := range cases {
		if got := URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTextMasksKeysAndTokens(t *testing.T) {
	Key("", "none", "short", "  proxy-token-9a8b7c6d5e4f  ")
	cases := map[string]string{
		// A registered key, whatever its shape.
		"401: invalid key proxy-token-9a8b7c6d5e4f, check it": "401: invalid key REDACTED, check it",
		// sk-… keys, registered or not.
		"Incorrect API key provided: sk-canary-5f0d2b7e9c41a3.": "Incorrect API key provided: REDACTED.",
		"key sk-proj-AbC_dEf-0123456789xyz in use":              "key REDACTED in use",
		// A bearer token, as a proxy might quote a header.
		`header "Authorization: Bearer abc.DEF-123_456=" refused`: `header "Authorization: Bearer REDACTED" refused`,
		// A URL in a network error: the query's value goes, a sentence's full stop stays.
		`Post "https://h.example/v1/responses?key=abc": EOF.`: `Post "https://h.example/v1/responses?key=REDACTED": EOF.`,
		"see https://u:p@h.example/a.":                        "see https://h.example/a.",
		// Short values and ordinary words are left alone.
		"none of this is short; the task-force met; risk-free": "none of this is short; the task-force met; risk-free",
		"the bearer of good news":                              "the bearer of good news",
	}
	for in, want := range cases {
		if got := Text(in); got != want {
			t.Errorf("Text(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestKeyIgnoresShortValues(t *testing.T) {
	Key("abc", "1234567") // under MinKey
	if got := Text("abc 1234567"); got != "abc 1234567" {
		t.Errorf("a value shorter than %d characters was masked: %q", MinKey, got)
	}
}

func TestLongerKeyGoesWhole(t *testing.T) {
	Key("outer-key-AAAA", "outer-key-AAAA-and-more")
	if got := Text("x outer-key-AAAA-and-more y"); got != "x REDACTED y" {
		t.Errorf("got %q", got)
	}
}

type config struct{ APIKey string }

type stringer struct{}

func (stringer) String() string { return "voice at https://u:secret@h.example/v1?token=t0k" }

func TestHandlerRedactsEverything(t *testing.T) {
	Key("log-key-0123456789")
	var buf bytes.Buffer
	log := slog.New(Handler(slog.NewTextHandler(&buf, nil)))
	log = log.With("base", "https://h.example/v1?token=abc").WithGroup("g")
	log.Error("call failed: sk-canary-5f0d2b7e9c41a3",
		"err", fmt.Errorf("wrapped: %w", errors.New("invalid key log-key-0123456789")),
		"cfg", config{APIKey: "log-key-0123456789"},
		"voice", stringer{},
		slog.Group("req", "auth", "Bearer zzzzzzzzzzzz"),
		"n", 42,
		"nilerr", error(nil),
	)
	out := buf.String()
	for _, secret := range []string{"sk-canary", "log-key-0123456789", "token=abc", "secret@", "t0k", "zzzzzzzz"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log holds %q:\n%s", secret, out)
		}
	}
	for _, kept := range []string{"call failed: REDACTED", "g.n=42", "token=REDACTED", "g.req.auth=\"Bearer REDACTED\""} {
		if !strings.Contains(out, kept) {
			t.Errorf("the log lacks %q:\n%s", kept, out)
		}
	}
}
