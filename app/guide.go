package app

import (
	"errors"
	"fmt"

	"lull/engine"
	"lull/llm"
	"lull/sessions"
)

// GuideConfig is the config file's say on where the words come from. The
// key never lives here: OPENAI_API_KEY goes to OpenAI or to the server
// OPENAI_BASE_URL names, LULL_LLM_API_KEY to a base_url set here.
type GuideConfig struct {
	Model         string `yaml:"model"`
	BaseURL       string `yaml:"base_url"` // with the /v1
	Private       bool   `yaml:"private"`
	KeepResponses bool   `yaml:"keep_responses"`
	OnFailure     string `yaml:"on_failure"` // builtin (the default) or interrupt
}

// GuideFlags are the command line's say, for one run; empty means the
// config's.
type GuideFlags struct {
	Guide         string // builtin, openai, or "" for auto
	Model         string
	Private       bool
	KeepResponses bool
}

// GuideChoice is settled: which guide writes this process's runs, and how
// it reaches its model.
type GuideChoice struct {
	Guide     string // "builtin" or "openai"
	LLM       llm.Config
	Interrupt bool // a failing LLM interrupts the session instead of handing over to the built-in guide
}

// Guide names the config and flags accept.
var Guides = []string{"builtin", "openai"}

// ChooseGuide settles the guide from the flags, the config file and the
// environment: openai when an API key or a base URL is set, else builtin.
func ChooseGuide(c Config, f GuideFlags, getenv func(string) string) (GuideChoice, error) {
	g := f.Guide
	if g == "" {
		g = c.Guide
	}
	envBase := getenv("OPENAI_BASE_URL")
	base := c.LLM.BaseURL
	key := getenv("LULL_LLM_API_KEY")
	switch {
	case base == "" && envBase != "":
		base = envBase
		if key == "" {
			key = getenv("OPENAI_API_KEY") // the SDKs' own pairing
		}
	case base == "" || llm.IsOpenAI(base):
		if key == "" {
			key = getenv("OPENAI_API_KEY")
		}
	}
	if g == "" || g == "auto" {
		g = "builtin"
		if key != "" || base != "" {
			g = "openai"
		}
	}
	switch g {
	case "builtin", "openai":
	default:
		return GuideChoice{}, fmt.Errorf("guide %q: choose builtin or openai", g)
	}
	model := f.Model
	if model == "" {
		model = c.LLM.Model
	}
	ch := GuideChoice{
		Guide: g,
		LLM: llm.Config{
			APIKey:        key,
			BaseURL:       base,
			Model:         model,
			Private:       f.Private || c.LLM.Private,
			KeepResponses: f.KeepResponses || c.LLM.KeepResponses,
		},
		Interrupt: c.LLM.OnFailure == "interrupt",
	}
	ch.LLM.Moderate = base == "" || llm.IsOpenAI(base)
	return ch, nil
}

// guides builds a run's guide, the one that takes over when it fails, and
// the one that can forget what a provider stored.
func (a *App) guides(st engine.State, ch GuideChoice) (g, fallback engine.Guide, forget engine.Forgetter, err error) {
	var remote *llm.Guide
	if ch.Guide == "openai" || len(st.Stored) > 0 {
		cfg := ch.LLM
		cfg.Logger = a.log.With("session", st.ID)
		remote, err = llm.New(cfg)
		if err != nil && ch.Guide == "openai" {
			return nil, nil, nil, fmt.Errorf("the LLM guide: %w", err)
		}
	}
	if remote != nil {
		forget = remote
	}
	if ch.Guide == "openai" && ch.Interrupt {
		return remote, nil, forget, nil // the built-in guide is made only if the listener asks for it
	}
	builtin, err := a.builtin(st)
	if err != nil {
		return nil, nil, nil, err
	}
	if ch.Guide != "openai" {
		return builtin, nil, forget, nil
	}
	return remote, builtin, forget, nil
}

// LLMReady reports whether the LLM guide could run here: a key for
// OpenAI, or a server of one's own.
func (a *App) LLMReady() bool {
	l := a.opts.Guide.LLM
	return l.APIKey != "" || (l.BaseURL != "" && !llm.IsOpenAI(l.BaseURL))
}

// Delete removes a session from disk, after asking the provider to forget
// the responses it stored for it. Responses that could not be deleted are
// reported; they expire at the provider on their own (OpenAI keeps them
// 30 days).
func (a *App) Delete(id string) (notes []string, err error) {
	st, _, err := a.store.Load(id)
	var unreadable *sessions.UnreadableError
	if errors.As(err, &unreadable) {
		// Nothing says what it stored at a provider: only its folder goes.
		return []string{"the session could not be read, so no responses stored at a provider were deleted"}, a.store.Delete(id)
	}
	if err != nil {
		return nil, err
	}
	return a.forgetEnded(&st), a.store.Delete(id)
}
