// Package llm is the guide that writes a session with a language model
// through openai-go: OpenAI's Responses API, or any server that speaks it
// (Ollama, LM Studio, vLLM, llama.cpp), or Chat Completions where a server
// has no /v1/responses.
//
// Each call asks for a few sentences of one phase, with that phase's
// instructions (they do not carry over between calls). Calls are chained
// with previous_response_id and store: true, so the model remembers what
// it said; in stateless mode (--private, or a server that cannot chain) the
// history is sent as input instead. A stream runs a few sentences ahead of
// speech in the background and waits when its buffer is full; a failure
// before any of a call's sentences was handed out is retried with backoff
// that honours Retry-After.
package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
	"github.com/lull-dev/lull/internal/redact"
)

// OpenAIBaseURL is OpenAI's own API.
const OpenAIBaseURL = "https://api.openai.com/v1"

// DefaultModel is fast to its first token and cheap for a session's length.
const DefaultModel = "gpt-4.1-mini"

// Config is how the guide reaches its model.
type Config struct {
	APIKey  string // never written anywhere
	BaseURL string // "" means OpenAIBaseURL
	Model   string // "" means DefaultModel; other servers need their own
	// Private keeps nothing at the provider: store: false, and the
	// history is sent with every call.
	Private bool
	// KeepResponses leaves stored responses at the provider when the
	// session ends instead of deleting them.
	KeepResponses bool
	// Moderate checks every sentence with the moderation endpoint before
	// it is handed out; the app turns it on for OpenAI's own API.
	Moderate bool
	// Guard is the second opinion on every reply (guard.go).
	Guard Guard
	// Screen is the local screen a reply's lines pass first, and Strict the
	// same at the thresholds it keeps for when a second opinion failed;
	// nil is package safety's.
	Screen, Strict Screen
	// Tuning; zero values take the defaults below.
	Watchdog  time.Duration // no sign of life for this long fails the call; before the first text a reasoning model gets reasoningPatience times as long
	Attempts  int           // tries of a call before it fails for good
	Backoff   time.Duration // first wait between tries, doubling
	MaxWait   time.Duration // the longest wait; a longer Retry-After fails at once
	Lookahead int           // sentences a stream may run ahead of speech
	GuardWait time.Duration // the longest the guard is waited for; then the local screen judges alone
	HTTP      *http.Client
	Logger    *slog.Logger
}

// Defaults for Config's tuning.
const (
	DefaultWatchdog  = 30 * time.Second
	DefaultAttempts  = 4
	DefaultBackoff   = time.Second
	DefaultMaxWait   = 30 * time.Second
	DefaultLookahead = 3
	// DefaultGuardWait bounds a guard that hangs: the listener waits at
	// most this, on top of the reply, before the local screen decides
	// alone (and the engine fills the wait with the built-in guide).
	DefaultGuardWait = 8 * time.Second
)

// api is which endpoint a guide talks to.
type api int

const (
	apiResponses api = iota
	apiChat          // the server has no /v1/responses
)

// Guide is an engine.Guide backed by a language model.
type Guide struct {
	cfg     Config
	client  openai.Client
	prompts *prompts.LLM
	log     *slog.Logger

	recapNext  atomic.Bool         // the next chained call says what was last heard
	reasons    atomic.Bool         // the model reasons: ask for low effort, wait longer for its first text
	window     atomic.Int64        // what a call without a chain may send, in estimated tokens (history.go)
	vocabulary *prompts.Vocabulary // what the model's sentences mention
	screen     Screen              // the local screen, before anything is handed out
	strict     Screen              // … when a second opinion was wanted and failed
	cues       cues                // the breath tag of each breathing sentence (tags.go)
	// guardFailures counts the replies in a row the guard failed on.
	guardFailures atomic.Int32

	mu        sync.Mutex
	api       api
	stateless bool            // the history goes with every call
	why       string          // why the guide is stateless, for the log
	dropped   map[string]bool // optional parameters the server refused
}

// New prepares a guide. It makes no request.
func New(cfg Config) (*Guide, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = OpenAIBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the LLM base URL %q is not an http(s) URL", redact.URL(cfg.BaseURL))
	}
	if cfg.Model == "" {
		// Other servers name their models their own way; one that does not
		// have this one says so, and the session hands over to the
		// built-in guide with the server's words as the reason.
		cfg.Model = DefaultModel
	}
	if cfg.APIKey == "" && IsOpenAI(cfg.BaseURL) {
		return nil, errors.New("OpenAI needs an API key: set OPENAI_API_KEY, or use --guide builtin")
	}
	cfg.Watchdog = orDefault(cfg.Watchdog, DefaultWatchdog)
	cfg.Attempts = orDefault(cfg.Attempts, DefaultAttempts)
	cfg.Backoff = orDefault(cfg.Backoff, DefaultBackoff)
	cfg.MaxWait = orDefault(cfg.MaxWait, DefaultMaxWait)
	cfg.Lookahead = orDefault(cfg.Lookahead, DefaultLookahead)
	cfg.GuardWait = orDefault(cfg.GuardWait, DefaultGuardWait)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	p, err := prompts.LoadLLM()
	if err != nil {
		return nil, err
	}
	redact.Key(cfg.APIKey) // whatever a server echoes of it is masked
	key := cfg.APIKey
	if key == "" {
		key = "none" // local servers take any key; openai-go insists on one
	}
	opts := []option.RequestOption{
		option.WithBaseURL(cfg.BaseURL + "/"),
		option.WithMiddleware(bounded),
		option.WithAPIKey(key),
		option.WithMaxRetries(0), // the guide retries, honouring Retry-After, and knows what was shown
	}
	if cfg.HTTP != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTP))
	}
	g := &Guide{cfg: cfg, client: openai.NewClient(opts...), prompts: p, log: cfg.Logger, vocabulary: p.Vocabulary()}
	g.screen, g.strict = screens(cfg)
	g.recapNext.Store(true)
	g.reasons.Store(reasoningModel(cfg.Model))
	g.window.Store(promptBudget)
	switch {
	case cfg.Private:
		g.stateless, g.why = true, "private"
	case knownUnchained(u):
		g.stateless, g.why = true, "the server is known not to chain responses"
	}
	return g, nil
}

// orDefault is a setting's value, or def where it is zero or less: the
// one rule for a Config setting left out.
func orDefault[T ~int | ~int64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Name is how the guide is recorded in a session.
func (g *Guide) Name() string { return engine.GuideOpenAI }

// Model is the model the guide asks.
func (g *Guide) Model() string { return g.cfg.Model }

// Server is the server the guide asks, as a session records it: its base
// URL, with nothing secret in it.
func (g *Guide) Server() string { return redact.URL(g.cfg.BaseURL) }

// Provider names where the guide's stored responses live: a chain goes on
// only at the same endpoint with the same model.
func (g *Guide) Provider() string { return redact.URL(g.cfg.BaseURL) + "#" + g.cfg.Model }

// Describe says where the guide's words come from, for doctor and logs.
// It never includes the key.
func (g *Guide) Describe() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	mode := "chained (store: true)"
	if g.stateless {
		mode = "stateless (" + g.why + ")"
	}
	return fmt.Sprintf("%s at %s, %s", g.cfg.Model, redact.URL(g.cfg.BaseURL), mode)
}

// IsOpenAI reports whether a base URL is OpenAI's own API.
func IsOpenAI(base string) bool {
	u, err := url.Parse(base)
	return err == nil && strings.EqualFold(u.Hostname(), "api.openai.com")
}

// knownUnchained spots servers that accept previous_response_id but
// ignore it: Ollama, on its usual port.
func knownUnchained(u *url.URL) bool {
	return u.Port() == "11434"
}

// goStateless switches the guide to sending the history with every call.
// why may be a server's own words, kept for Describe: redacted.
func (g *Guide) goStateless(why string) {
	why = redact.Text(why)
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.stateless {
		g.stateless, g.why = true, why
		g.log.Warn("LLM guide goes stateless: the history is sent with every call", slog.String("why", why))
	}
}

func (g *Guide) goChat() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.api != apiChat {
		g.api = apiChat
		g.stateless, g.why = true, "the server has no /v1/responses; using Chat Completions"
		g.log.Warn("LLM guide uses Chat Completions: the server has no /v1/responses")
	}
}

func (g *Guide) mode() (api, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.api, g.stateless
}

var _ engine.Guide = (*Guide)(nil)
var _ engine.Remote = (*Guide)(nil)
