package app

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/lull-dev/lull/internal/llm"
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
	ch := f.choice
	if server != "" { // "" is an id written before lull kept its server: the one set up now
		p, ok := ch.provider(server)
		if !ok {
			return nil, fmt.Errorf("%s, which keeps them, is not set up here", serverName(server))
		}
		ch = ch.at(p)
	}
	cfg := ch.LLM
	cfg.Logger = f.log
	g, err := llm.New(cfg)
	if err != nil {
		return nil, err
	}
	return g.Forget(ctx, ids)
}
