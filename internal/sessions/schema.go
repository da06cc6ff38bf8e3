package sessions

import (
	"time"

	"go.yaml.in/yaml/v3"
)

// schemaVersion is the session.yaml layout this lull reads and writes.
const schemaVersion = 1

// header is the top of session.yaml: all a listing needs. It comes first
// in the file so that List can decode a prefix and skip the history.
type header struct {
	Version       int       `yaml:"version"`
	ID            string    `yaml:"id"`
	Status        string    `yaml:"status"`
	CreatedAt     time.Time `yaml:"created_at"`
	UpdatedAt     time.Time `yaml:"updated_at"`
	LengthMinutes int       `yaml:"length_minutes"`
	Intention     string    `yaml:"intention"`
	SealedAt      time.Time `yaml:"sealed_at,omitempty"`
	Seed          int64     `yaml:"seed"`
	Guide         string    `yaml:"guide,omitempty"`
	Model         string    `yaml:"model,omitempty"`
	Server        string    `yaml:"server,omitempty"`
	Voice         string    `yaml:"voice,omitempty"`
	Soundscape    string    `yaml:"soundscape,omitempty"`
	// A sleep session, and how long its soundscape plays on after the
	// last word; both absent for a waking session (and in older files).
	Sleep     bool    `yaml:"sleep,omitempty"`
	SleepTail float64 `yaml:"sleep_tail_seconds,omitempty"`
	// What the listener said of it, each absent until given.
	MoodBefore int    `yaml:"mood_before,omitempty"`
	MoodAfter  int    `yaml:"mood_after,omitempty"`
	Note       string `yaml:"note,omitempty"`
	Practice   string `yaml:"practice,omitempty"`  // absent for a guided session
	Pattern    string `yaml:"pattern,omitempty"`   // a breathing practice's rhythm
	ReplayOf   string `yaml:"replay_of,omitempty"` // the session replayed
	// Partial says the session was completed before its end (summarized
	// partway), as its summary does: List reads only the header. Absent
	// otherwise, and in files written before it was kept here.
	Partial bool    `yaml:"partial,omitempty"`
	Phase   string  `yaml:"phase"`
	Elapsed float64 `yaml:"elapsed_seconds"`
	// Rendered is the part of elapsed_seconds lull render wrote to a
	// file, heard by no one; absent when all of it played.
	Rendered float64     `yaml:"rendered_seconds,omitempty"`
	Position positionDoc `yaml:"position,flow"`

	// Asked after a sleep session how they slept, answered or not.
	MoodAsked bool `yaml:"mood_asked,omitempty"`
	// The sound as the listener left it: volume in steps from lull's own
	// level (absent at 0), the voice turned off.
	Volume   int  `yaml:"volume,omitempty"`
	VoiceOff bool `yaml:"voice_off,omitempty"`
	// The voice's pace, a factor of the normal one (absent at 1), and the
	// soundscape's level in steps from lull's own (absent at 0).
	VoiceRate        float64 `yaml:"voice_rate,omitempty"`
	SoundscapeVolume int     `yaml:"soundscape_volume,omitempty"`
}

// phasesKey starts the line where the header ends.
const phasesKey = "phases:"

// document is the whole of session.yaml but its checksum line: four
// parts, in this order, that a session's saves encode apart (encoder).
type document struct {
	header      `yaml:",inline"`
	phaseList   `yaml:",inline"`
	outcome     `yaml:",inline"`
	historyList `yaml:",inline"`
}

type phaseList struct {
	Phases []phaseDoc `yaml:"phases"`
}

// outcome is what the session came to, and what a remote guide used and
// left behind.
type outcome struct {
	Summary *summaryDoc `yaml:"summary,omitempty"`
	Runs    []runDoc    `yaml:"runs,omitempty"`
	Chain   *chainDoc   `yaml:"chain,omitempty"`
	Stored  []storedDoc `yaml:"stored_responses,omitempty"`
	Cost    float64     `yaml:"cost_usd,omitempty"`
}

type historyList struct {
	History []entryDoc `yaml:"history"`
}

// runDoc is one run: which guide and model it used.
type runDoc struct {
	Guide     string    `yaml:"guide"`
	Model     string    `yaml:"model,omitempty"`
	Server    string    `yaml:"server,omitempty"`
	StartedAt time.Time `yaml:"started_at"`
}

// chainDoc is where a remote guide's stored memory of the session stands.
type chainDoc struct {
	ResponseID string   `yaml:"response_id"`
	Provider   string   `yaml:"provider"`
	Unchained  []string `yaml:"unchained,omitempty"`
}

// storedDoc is a response a provider keeps, and the server that keeps it.
// Files written before lull kept the server hold the id alone.
type storedDoc struct {
	ID     string `yaml:"id"`
	Server string `yaml:"server,omitempty"`
}

func (d *storedDoc) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		return n.Decode(&d.ID)
	}
	type plain storedDoc
	return n.Decode((*plain)(d))
}

type tokensDoc struct {
	In     int `yaml:"in"`
	Out    int `yaml:"out"`
	Cached int `yaml:"cached,omitempty"`
}

type positionDoc struct {
	Phase    string `yaml:"phase"`
	Sentence int    `yaml:"sentence"`
}

type phaseDoc struct {
	Name        string     `yaml:"name"`
	Status      string     `yaml:"status"`
	Budget      budgetDoc  `yaml:"budget,flow"`
	Spoken      int        `yaml:"spoken"`
	Dropped     int        `yaml:"dropped"`
	Removed     int        `yaml:"removed,omitempty"`
	Filled      int        `yaml:"filled,omitempty"`
	Tokens      *tokensDoc `yaml:"tokens,omitempty,flow"`
	Cost        float64    `yaml:"cost_usd,omitempty"`
	Elapsed     float64    `yaml:"elapsed_seconds"`
	StartedAt   time.Time  `yaml:"started_at,omitempty"`
	CompletedAt time.Time  `yaml:"completed_at,omitempty"`
}

type budgetDoc struct {
	Sentences  int     `yaml:"sentences"`
	WindDownAt int     `yaml:"wind_down_at"`
	Target     float64 `yaml:"target_seconds"`
	Rest       float64 `yaml:"rest_seconds"`
}

type summaryDoc struct {
	Duration    float64    `yaml:"duration_seconds"`
	Sentences   int        `yaml:"sentences"`
	Dropped     int        `yaml:"dropped"`
	Partial     bool       `yaml:"partial,omitempty"`
	Tokens      *tokensDoc `yaml:"tokens,omitempty,flow"`
	Cost        float64    `yaml:"cost_usd,omitempty"`
	CompletedAt time.Time  `yaml:"completed_at"`
}

type entryDoc struct {
	At    time.Time `yaml:"at"`
	Phase string    `yaml:"phase"`
	Role  string    `yaml:"role"`
	Text  string    `yaml:"text"`
}

// MarshalYAML writes an entry as one flow mapping, one line per entry: the
// history is most of the file, and a line each keeps it compact and easy to
// read. The node is built by hand because yaml.Node.Encode would print and
// re-parse every entry.
func (e entryDoc) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	add := func(key, value string, style yaml.Style) {
		n.Content = append(n.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Value: key},
			&yaml.Node{Kind: yaml.ScalarNode, Value: value, Style: style})
	}
	// A flow mapping must quote a timestamp (its colons); it decodes
	// through time.Time's UnmarshalText.
	add("at", e.At.Format(time.RFC3339Nano), yaml.DoubleQuotedStyle)
	add("phase", e.Phase, 0) // names and roles are plain words: a bad one fails on load
	add("role", e.Role, 0)
	add("text", e.Text, yaml.DoubleQuotedStyle) // quoted whatever it holds: never mistaken for another type
	return n, nil
}
