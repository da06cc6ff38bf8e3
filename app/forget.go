package app

import (
	"context"
	"fmt"
	"log/slog"

	"lull/llm"
	"lull/redact"
)

// forgetter deletes a session's stored responses at the server that keeps
// each (engine.Stored.Server), with that server's key as the providers set
// up here have it: after a move to another server, the old server's
// responses are deleted at the old server.
type forgetter struct {
	choice GuideChoice
	log    *slog.Logger
}

func (f forgetter) Forget(ctx context.Context, server string, ids []string) ([]string, error) {
	cfg := f.choice.LLM
	if server != "" { // "" is an id written before lull kept its server: the one set up now
		p, ok := f.choice.provider(server)
		if !ok {
			return nil, fmt.Errorf("%s, which keeps them, is not set up here", serverName(server))
		}
		cfg.BaseURL, cfg.APIKey = p.BaseURL, p.APIKey
	}
	cfg.Logger = f.log
	g, err := llm.New(cfg)
	if err != nil {
		return nil, err
	}
	return g.Forget(ctx, ids)
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
