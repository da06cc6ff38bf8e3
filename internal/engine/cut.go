package engine

import (
	"errors"
	"log/slog"
	"time"

	"github.com/lull-dev/lull/internal/speech"
)

// Every remote call is bounded in time, whatever the server does: one may
// stream keep-alives, or a sentence now and then, for ever. (What a call
// may write is bounded by the guide: Request.Most.) A call that has run
// for callLimit is cut: what it gave is used as if it had ended there.

// callLimit is the longest a remote call runs: far past any model's
// thinking and writing (the guide's own watchdog allows 90 s before the
// first text), and short enough that a stuck one is not heard for long.
const callLimit = 3 * time.Minute

// errCallLimit says the open call ran past callLimit.
var errCallLimit = errors.New("the guide's call ran too long")

// cut ends the open call as if it had ended where it is: the sentence it
// was in the middle of is dropped, and the phase goes on as after the
// call's end.
func (s *source) cut() {
	s.e.log.Warn("the guide's call ran too long; it is cut", slog.String("phase", s.phase.String()),
		slog.Int("given", s.yielded), slog.Duration("limit", callLimit))
	s.speech = speech.Speech{}
	s.finishCall()
}
