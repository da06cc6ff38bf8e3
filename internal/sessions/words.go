package sessions

import (
	"strings"

	"github.com/lull-dev/lull/internal/engine"
)

// PhaseWords are the guide's sentences spoken in one phase, in order.
type PhaseWords struct {
	Phase engine.Phase
	Lines []string
}

// Words are a session's spoken sentences by phase, in order, read from
// its history: the clean text of transcript.md, without the records that
// let it be rebuilt. Phases that said nothing are left out.
func Words(st engine.State) []PhaseWords {
	var by [len(engine.Phases)][]string
	for _, e := range st.History {
		text := strings.TrimSpace(e.Text)
		if e.Role != engine.RoleGuide || !e.Phase.Valid() || text == "" {
			continue
		}
		by[e.Phase] = append(by[e.Phase], text)
	}
	var out []PhaseWords
	for _, p := range engine.Phases {
		if len(by[p]) > 0 {
			out = append(out, PhaseWords{Phase: p, Lines: by[p]})
		}
	}
	return out
}
