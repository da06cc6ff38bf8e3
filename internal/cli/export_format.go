package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/sessions"
)

// summaryRow is one line of a session's summary, as an export and the
// reread screen show it.
type summaryRow struct{ Label, Value string }

// sessionSummary is what a completed session was, for a person: when,
// how long, what for, who and what spoke it, how the listener felt.
func sessionSummary(st engine.State) []summaryRow {
	var rows []summaryRow
	add := func(label, value string) { rows = append(rows, summaryRow{label, human.Line(value)}) }
	add("Date", st.CreatedAt.Local().Format("Mon 2 Jan 2006, 15:04"))
	length := fmt.Sprintf("%d min · %s spoken", int(st.Length.Minutes()), human.Clock(st.Elapsed))
	if st.Summary != nil && st.Summary.Partial {
		length += " · partial (summarized before its end)"
	}
	add("Length", length)
	if st.Intention != "" {
		add("Intention", st.Intention)
	}
	add("Guide", guideWords(st))
	add("Voice", orNone(st.Voice)+" · soundscape "+orNone(st.Soundscape))
	if st.Sleep {
		add("Sleep", sleepWords(st.SleepTail))
	}
	if mood := moodWords(st.MoodBefore, st.MoodAfter); mood != "" {
		add("Mood", mood)
	}
	if st.Note != "" {
		add("Note", st.Note)
	}
	if st.ReplayOf != "" {
		add("Replay of", st.ReplayOf)
	}
	return rows
}

// guideWords names who wrote a session: each guide and model it ran on.
func guideWords(st engine.State) string {
	var names []string
	seen := map[string]bool{}
	for _, r := range st.Runs {
		n := r.Guide
		if r.Model != "" {
			n += " (" + r.Model + ")"
		}
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		n := orNone(st.Guide)
		if st.Model != "" {
			n += " (" + st.Model + ")"
		}
		return n
	}
	return strings.Join(names, ", then ")
}

// moodWords is how the listener felt, 1–5, before and after; "" when
// neither was given.
func moodWords(before, after int) string {
	var parts []string
	if before > 0 {
		parts = append(parts, fmt.Sprintf("before %d/5", before))
	}
	if after > 0 {
		parts = append(parts, fmt.Sprintf("after %d/5", after))
	}
	return strings.Join(parts, " · ")
}

// sessionTitle is a session's heading: its intention, or its date.
func sessionTitle(st engine.State) string {
	if st.Intention != "" {
		return human.Line(st.Intention)
	}
	return "Session of " + st.CreatedAt.Local().Format("2 Jan 2006, 15:04")
}

// exportMarkdown is clean Markdown: a title, the summary as a list, a
// heading per phase and its sentences, one to a line. Text from the
// session is escaped, so nothing in it reads as markup or a comment.
func exportMarkdown(st engine.State) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", mdEscape(sessionTitle(st)))
	for _, r := range sessionSummary(st) {
		fmt.Fprintf(&b, "- **%s:** %s\n", r.Label, mdEscape(r.Value))
	}
	for _, pw := range sessions.Words(st) {
		fmt.Fprintf(&b, "\n## %s\n\n", pw.Phase.Title())
		for _, l := range pw.Lines {
			b.WriteString(mdEscape(human.Line(l)) + "\n")
		}
	}
	return []byte(b.String())
}

// mdEscape backslash-escapes what Markdown would read as markup; angle
// brackets become entities, so no "<!--" can open a comment.
var mdEscape = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "#", `\#`, "|", `\|`,
).Replace

// txtWidth is where plain text wraps: comfortable in any terminal.
const txtWidth = 72

// exportText is plain text: the title, the summary, and each phase's
// sentences as a paragraph wrapped at txtWidth. No markup.
func exportText(st engine.State) []byte {
	var b strings.Builder
	title := sessionTitle(st)
	fmt.Fprintf(&b, "%s\n%s\n\n", title, strings.Repeat("=", min(len([]rune(title)), txtWidth)))
	for _, r := range sessionSummary(st) {
		b.WriteString(wrap(r.Label+": "+r.Value, txtWidth, "  "))
	}
	for _, pw := range sessions.Words(st) {
		title := pw.Phase.Title()
		fmt.Fprintf(&b, "\n%s\n%s\n\n", title, strings.Repeat("-", len([]rune(title))))
		lines := make([]string, len(pw.Lines))
		for i, l := range pw.Lines {
			lines[i] = human.Line(l)
		}
		b.WriteString(wrap(strings.Join(lines, " "), txtWidth, ""))
	}
	return []byte(b.String())
}

// wrap breaks text into lines of at most width runes at spaces (a longer
// word stands alone), later lines indented by indent.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len([]rune(line))+1+len([]rune(w)) > width:
			b.WriteString(line + "\n")
			line = indent + w
		default:
			line += " " + w
		}
	}
	if line != "" {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// sessionJSON is lull sessions export --format json: the session as JSON,
// with field names that stay as they are (format "lull.session/1").
// Durations are in seconds, times in RFC 3339, costs in US dollars.
type sessionJSON struct {
	Format        string        `json:"format"` // "lull.session/1"
	ID            string        `json:"id"`
	Status        string        `json:"status"`
	Partial       bool          `json:"partial,omitempty"`
	CreatedAt     time.Time     `json:"created_at"`
	CompletedAt   *time.Time    `json:"completed_at,omitempty"`
	LengthMinutes int           `json:"length_minutes"`
	SpokenSeconds float64       `json:"spoken_seconds"`
	Intention     string        `json:"intention,omitempty"`
	Guide         string        `json:"guide"`
	Model         string        `json:"model,omitempty"`
	Voice         string        `json:"voice"`
	Soundscape    string        `json:"soundscape"`
	Seed          int64         `json:"seed"`
	Sleep         bool          `json:"sleep"`
	SleepTailSecs float64       `json:"sleep_tail_seconds,omitempty"`
	MoodBefore    int           `json:"mood_before,omitempty"`
	MoodAfter     int           `json:"mood_after,omitempty"`
	Note          string        `json:"note,omitempty"`
	Practice      string        `json:"practice,omitempty"`
	ReplayOf      string        `json:"replay_of,omitempty"`
	Sentences     int           `json:"sentences"`
	Withheld      int           `json:"withheld"`
	TokensIn      int           `json:"tokens_in"`
	TokensOut     int           `json:"tokens_out"`
	CostUSD       float64       `json:"cost_usd"`
	Runs          []runJSON     `json:"runs"`
	Phases        []phaseJSON   `json:"phases"`
	History       []historyJSON `json:"history"`
}

type runJSON struct {
	Guide     string    `json:"guide"`
	Model     string    `json:"model,omitempty"`
	StartedAt time.Time `json:"started_at"`
}

type phaseJSON struct {
	Phase          string   `json:"phase"` // atmosphere, breathing, sensory, relaxation, resolution
	Title          string   `json:"title"`
	Status         string   `json:"status"`
	ElapsedSeconds float64  `json:"elapsed_seconds"`
	Spoken         int      `json:"spoken"`
	Withheld       int      `json:"withheld"`
	Sentences      []string `json:"sentences"` // the guide's words, in order
}

type historyJSON struct {
	At    time.Time `json:"at"`
	Phase string    `json:"phase"`
	Role  string    `json:"role"` // guide (spoken), user (the intention), system (errors and notes)
	Text  string    `json:"text"`
}

func exportJSON(st engine.State) ([]byte, error) {
	b, err := json.MarshalIndent(sessionDocument(st), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// sessionDocument is session st as lull.session/1.
func sessionDocument(st engine.State) sessionJSON {
	t := st.Tokens()
	out := sessionJSON{
		Format: sessionFormat, ID: st.ID, Status: string(st.Status),
		CreatedAt: st.CreatedAt, LengthMinutes: int(st.Length.Minutes()), SpokenSeconds: st.Elapsed.Seconds(),
		Intention: st.Intention, Guide: st.Guide, Model: st.Model, Voice: st.Voice, Soundscape: st.Soundscape,
		Seed: st.Seed, Sleep: st.Sleep, SleepTailSecs: st.SleepTail.Seconds(),
		MoodBefore: st.MoodBefore, MoodAfter: st.MoodAfter, Note: st.Note, Practice: st.Practice, ReplayOf: st.ReplayOf,
		Sentences: st.Spoken(), Withheld: st.Dropped(), TokensIn: t.In, TokensOut: t.Out, CostUSD: st.Cost,
		Runs: []runJSON{}, Phases: []phaseJSON{}, History: []historyJSON{},
	}
	if s := st.Summary; s != nil {
		out.Partial = s.Partial
		if !s.CompletedAt.IsZero() {
			at := s.CompletedAt
			out.CompletedAt = &at
		}
	}
	for _, r := range st.Runs {
		out.Runs = append(out.Runs, runJSON{Guide: r.Guide, Model: r.Model, StartedAt: r.StartedAt})
	}
	words := map[engine.Phase][]string{}
	for _, pw := range sessions.Words(st) {
		words[pw.Phase] = pw.Lines
	}
	for _, r := range st.Phases {
		lines := words[r.Phase]
		if lines == nil {
			lines = []string{}
		}
		out.Phases = append(out.Phases, phaseJSON{Phase: r.Phase.String(), Title: r.Phase.Title(), Status: string(r.Status),
			ElapsedSeconds: r.Elapsed.Seconds(), Spoken: r.Spoken, Withheld: r.Dropped, Sentences: lines})
	}
	for _, e := range st.History {
		out.History = append(out.History, historyJSON{At: e.At, Phase: e.Phase.String(), Role: string(e.Role), Text: e.Text})
	}
	return out
}
