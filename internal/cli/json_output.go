package cli

import "encoding/json"

// Every --json output is one JSON document with a "format" naming its
// schema and version ("lull.doctor/1"): a script can check it, and a
// change that could break a script reading it (a field removed, renamed
// or given another meaning) gets a new number; new fields do not. The
// README documents each ("JSON for scripts").
const (
	statsFormat       = "lull.stats/1"
	sessionsFormat    = "lull.sessions/1"
	sessionShowFormat = "lull.session-show/1"
	sessionFormat     = "lull.session/1" // lull sessions export --format json
)

// printJSON prints v as indented JSON on standard output.
func (c *cli) printJSON(v any) error {
	enc := json.NewEncoder(c.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
