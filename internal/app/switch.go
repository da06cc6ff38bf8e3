package app

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/redact"
)

// Provider is a server the LLM guide may talk to: the one the config and
// environment chose, and any other their keys and URLs allow.
type Provider struct {
	Name    string // "OpenAI", or the server's host: for the listener
	BaseURL string // "" is OpenAI
	APIKey  string // never shown, never saved
}

// providers are the servers this config and environment allow, the chosen
// one first: a base URL of one's own (config, then OPENAI_BASE_URL) and
// OpenAI when OPENAI_API_KEY is set, each with the key endpoint gives it.
func providers(chosen llm.Config, c Config, getenv func(string) string) []Provider {
	list := []Provider{{BaseURL: chosen.BaseURL, APIKey: chosen.APIKey}}
	add := func(p Provider) {
		for _, q := range list {
			if sameServer(q.BaseURL, p.BaseURL) {
				return
			}
		}
		list = append(list, p)
	}
	own := getenv("LULL_LLM_API_KEY")
	for _, p := range []Provider{endpoint(c.LLM.BaseURL, own, getenv), endpoint("", own, getenv)} {
		if !atOpenAI(p.BaseURL) {
			add(p)
		}
	}
	// OpenAI to switch to takes OpenAI's own key: LULL_LLM_API_KEY is for a
	// server of one's own. Its base URL is "", the SDK's default, as when
	// OpenAI is chosen.
	if k := endpoint(llm.OpenAIBaseURL, "", getenv).APIKey; k != "" {
		add(Provider{APIKey: k})
	}
	for i := range list {
		list[i].Name = serverName(list[i].BaseURL)
	}
	return list
}

func orText(s, or string) string {
	if s != "" {
		return s
	}
	return or
}

func sameServer(a, b string) bool {
	if atOpenAI(a) {
		return atOpenAI(b)
	}
	return strings.TrimRight(a, "/") == strings.TrimRight(b, "/")
}

// serverName is how the listener knows a server: OpenAI, or its host.
func serverName(base string) string {
	if atOpenAI(base) {
		return "OpenAI"
	}
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return redact.URL(base)
}

// maxModelName bounds a model name typed in the TUI; real ones are short.
const maxModelName = 100

// CheckModelName refuses a model name no server has: empty, too long, or
// holding spaces or control characters.
func CheckModelName(name string) error {
	switch {
	case name == "":
		return errors.New("give the model's name, like gpt-4.1-mini")
	case len(name) > maxModelName:
		return fmt.Errorf("a model's name is at most %d characters", maxModelName)
	case strings.IndexFunc(name, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return fmt.Errorf("a model's name has no spaces: %q", redact.Text(name))
	}
	return nil
}

// Switch is ch with the LLM guide on another model, at another provider
// (by Name; "" keeps the server): what lull resume --guide openai --model
// does, for a run under way.
func (ch GuideChoice) Switch(provider, model string) (GuideChoice, error) {
	model = strings.TrimSpace(model)
	if err := CheckModelName(model); err != nil {
		return ch, err
	}
	ch.Guide = engine.GuideOpenAI
	ch.LLM.Model = model
	if provider == "" {
		return ch, nil
	}
	for _, p := range ch.Providers {
		if p.Name == provider {
			return ch.at(p), nil
		}
	}
	return ch, fmt.Errorf("no provider %q is set up (the config's llm base_url, OPENAI_BASE_URL, OPENAI_API_KEY)", provider)
}

// at is ch writing at provider p, with p's key.
func (ch GuideChoice) at(p Provider) GuideChoice {
	ch.LLM.BaseURL, ch.LLM.APIKey = p.BaseURL, p.APIKey
	ch.LLM.Moderate = atOpenAI(p.BaseURL) // every sentence also goes to OpenAI's moderation
	return ch
}

// provider is the provider set up here for server (a base URL, as a
// session records it), if any.
func (ch GuideChoice) provider(server string) (Provider, bool) {
	for _, p := range ch.Providers {
		if sameServer(p.BaseURL, server) || sameServer(redact.URL(p.BaseURL), server) {
			return p, true
		}
	}
	return Provider{}, false
}

// ProviderNames are the providers a run may switch to, the current first;
// one name means there is nothing to choose.
func (a *App) ProviderNames() []string {
	var names []string
	for _, p := range a.opts.Guide.Providers {
		names = append(names, p.Name)
	}
	return names
}

// RetryWith runs an interrupted session again on the LLM guide with
// another model, at another provider when one is named: the guide is
// made as lull resume --model makes it.
func (r *Run) RetryWith(provider, model string) error {
	if r.remote == nil {
		return errors.New("this session cannot switch its guide")
	}
	g, err := r.remote(provider, model)
	if err != nil {
		return err
	}
	return r.again(g)
}

// remoteFor makes, for a run of st, the LLM guide on another model or
// provider.
func (a *App) remoteFor(st engine.State, choice GuideChoice) func(provider, model string) (engine.Guide, error) {
	return func(provider, model string) (engine.Guide, error) {
		ch, err := choice.Switch(provider, model)
		if err != nil {
			return nil, err
		}
		rg, err := a.guides(st, ch)
		if err != nil {
			return nil, err
		}
		return rg.guide, nil
	}
}
