package tui

import (
	"github.com/lull-dev/lull/internal/engine"
)

// GuideFailed reports the engine's note that the guide failed: "The guide
// stopped: …" when the session is interrupted, "The guide X failed: …"
// when another guide carries on. Its text quotes the failure as the
// server gave it, for the session's history and the log; a listener is
// told in plain words instead (Run.Stopped), or by the notice of the
// guide that carries on.
func GuideFailed(ev engine.Event) bool {
	return ev.Kind == engine.EventError && ev.GuideFailed
}
