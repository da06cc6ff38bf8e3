package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"

	"github.com/openai/openai-go/v3"
)

// responseID is the shape of an id lull will put in a URL path: a session
// file is input like any other, and a crafted id must not reach another
// endpoint.
var responseID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,200}$`)

// Forget deletes the session's stored responses at the provider, unless
// the listener chose to keep them. An id the provider no longer has counts
// as forgotten.
func (g *Guide) Forget(ctx context.Context, ids []string) ([]string, error) {
	if g.cfg.KeepResponses {
		return nil, nil
	}
	var done []string
	var errs []error
	for _, id := range ids {
		if !responseID.MatchString(id) {
			errs = append(errs, fmt.Errorf("stored response id %q is malformed: not sent", id))
			continue
		}
		err := g.client.Responses.Delete(ctx, id)
		var apiErr *openai.Error
		if err == nil || errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusNotFound {
			done = append(done, id)
			continue
		}
		errs = append(errs, fmt.Errorf("deleting response %s: %w", id, classify(err)))
		if ctx.Err() != nil {
			break
		}
	}
	return done, errors.Join(errs...)
}
