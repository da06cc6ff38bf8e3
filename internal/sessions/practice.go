package sessions

import (
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Stage is where a session stands, as a list names it: its phase, or
// for a breathing practice what it is, "breathe 4-7-8" — a practice has
// no phases to speak of.
func (i Info) Stage() string {
	if i.Practice == engine.PracticeBreathe {
		return "breathe " + i.Pattern
	}
	if i.Practice == engine.PracticeSit {
		return "sit" // no phases either: a sit is sat in silence
	}
	return i.Phase.String()
}

// Heard is the time the session played to a listener: what was spoken,
// but for what lull render wrote to a file. It is the practice it counts
// for.
func (i Info) Heard() time.Duration { return max(i.Elapsed-i.Rendered, 0) }
