package llm

import (
	"context"
	"fmt"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// moderationTimeout bounds one moderation request.
const moderationTimeout = 15 * time.Second

// moderate asks the moderation endpoint about a batch of sentences, in one
// request, and reports which were flagged. A failed check fails the call:
// a sentence is never spoken unchecked.
func (g *Guide) moderate(ctx context.Context, batch []string) ([]bool, error) {
	ctx, cancel := context.WithTimeout(ctx, moderationTimeout)
	defer cancel()
	res, err := g.client.Moderations.New(ctx, openai.ModerationNewParams{
		Input: openai.ModerationNewParamsInputUnion{OfStringArray: batch},
		Model: openai.ModerationModelOmniModerationLatest,
	}, option.WithMaxRetries(1))
	if err != nil {
		f := classify(err)
		f.Kind, f.Message = kindModeration, "moderation: "+f.Message
		return nil, f
	}
	if len(res.Results) != len(batch) {
		return nil, &Failure{Kind: kindModeration, Message: fmt.Sprintf("moderation answered %d results for %d sentences", len(res.Results), len(batch))}
	}
	flagged := make([]bool, len(batch))
	for i, r := range res.Results {
		flagged[i] = r.Flagged
	}
	return flagged, nil
}
