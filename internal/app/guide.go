package app

import (
	"errors"
	"fmt"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/sessions"
)

// GuideConfig is the config file's say on where the words come from. The
// key never lives here: OPENAI_API_KEY goes to OpenAI or to the server
// OPENAI_BASE_URL names, LULL_LLM_API_KEY to a base_url set here: endpoint
// says which.
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
	Guide     string // engine.GuideBuiltin or engine.GuideOpenAI
	LLM       llm.Config
	Interrupt bool // a failing LLM interrupts the session instead of handing over to the built-in guide
	// Providers are the servers a run may switch to, this one first.
	Providers []Provider
	// Asked says the listener named the guide or the model for this
	// command (--guide, --model): a resume moves the session to it. Else a
	// session goes on with the guide, model and server it was on.
	Asked bool
}

// Guide names the config and flags accept.
var Guides = []string{engine.GuideBuiltin, engine.GuideOpenAI}

// unknownGuide is the error for a guide lull does not have.
func unknownGuide(g string) error {
	return fmt.Errorf("guide %q: choose %s%s", g, human.OrList(Guides), human.DidYouMean(g, Guides))
}

// ChooseGuide settles the guide from the flags, the config file and the
// environment: openai when an API key or a base URL is set, else builtin.
func ChooseGuide(c Config, f GuideFlags, getenv func(string) string) (GuideChoice, error) {
	g := f.Guide
	if g == "" {
		g = c.Guide
	}
	at := endpoint(c.LLM.BaseURL, getenv("LULL_LLM_API_KEY"), getenv)
	base, key := at.BaseURL, at.APIKey
	if g == "" || g == "auto" {
		g = engine.GuideBuiltin
		if key != "" || base != "" {
			g = engine.GuideOpenAI
		}
	}
	switch g {
	case engine.GuideBuiltin, engine.GuideOpenAI:
	default:
		return GuideChoice{}, unknownGuide(g)
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
		Asked:     f.Guide != "" || f.Model != "",
	}
	ch.LLM.Moderate = atOpenAI(base)
	ch.LLM.Guard = c.Safety.Guard.LLM()
	ch.Providers = providers(ch.LLM, c, getenv)
	return ch, nil
}

// runGuides are the guides a run is given.
type runGuides struct {
	guide    engine.Guide
	fallback engine.Guide     // takes over when guide fails for good; nil: the session is interrupted
	filler   engine.Guide     // speaks where an LLM could not: an unusable reply, a stall
	builtin  engine.Guide     // the built-in guide already made for the run, or nil
	forget   engine.Forgetter // deletes what a provider stored
}

// guides builds a run's guides: the one that writes it; with an LLM, the
// built-in guide as its filler — always, whatever on_failure says — and,
// unless the session is to be interrupted instead, as its fallback; and
// the one that can forget what a provider stored.
func (a *App) guides(st engine.State, ch GuideChoice) (runGuides, error) {
	if st.ReplayOf != "" {
		return a.replayGuides(st)
	}
	var rg runGuides
	var remote *llm.Guide
	if ch.Guide == engine.GuideOpenAI || len(st.Stored) > 0 {
		cfg := ch.LLM
		cfg.Logger = a.log.With("session", st.ID)
		rg.forget = forgetter{choice: ch, log: cfg.Logger}
		var err error
		remote, err = llm.New(cfg)
		if err != nil && ch.Guide == engine.GuideOpenAI {
			return runGuides{}, fmt.Errorf("the LLM guide: %w", err)
		}
	}
	builtin, err := a.builtin(st)
	if err != nil {
		return runGuides{}, err
	}
	rg.builtin = builtin
	if ch.Guide != engine.GuideOpenAI {
		rg.guide = builtin
		return rg, nil
	}
	rg.guide, rg.filler = remote, builtin
	if !ch.Interrupt {
		rg.fallback = builtin
	}
	return rg, nil
}

// LLMReady reports whether the LLM guide could run here: a key for
// OpenAI, or a server of one's own.
func (a *App) LLMReady() bool {
	l := a.opts.Guide.LLM
	return l.APIKey != "" || !atOpenAI(l.BaseURL)
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
