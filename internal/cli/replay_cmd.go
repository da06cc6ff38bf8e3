package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
	"github.com/lull-dev/lull/internal/tui"
)

var replayHelp = help{
	use:   "replay ID",
	short: "Hear a completed session's words again, paced afresh, as a new session",
	long: "Speak the words of a completed session again, with fresh pacing, as a new\n" +
		"session that records which one it replays. No model is asked for anything:\n" +
		"each phase says the sentences saved for it, in order. The replay keeps the\n" +
		"original's length, intention and sleep setting; the voice and soundscape are\n" +
		"the original's unless you choose others. A replay of a replay says the\n" +
		"original's words.",
	example: "  lull replay 20261123-120000-k3f9\n  lull replay 20261123-120000-k3f9 --no-tui --voice none",
}

func (c *cli) replayCmd() *cobra.Command {
	var choices app.ReplayChoices
	var noTUI bool
	cmd := replayHelp.command(cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		id := args[0]
		return c.withEnv(func(env *environment) error {
			start := func() (*app.Run, error) { return env.app.Replay(id, choices) }
			if noTUI {
				return c.headless(start, "a replay: the saved words of session "+id+", paced afresh; no model is asked")
			}
			return c.onScreen(env, start)
		})
	})
	fl := cmd.Flags()
	fl.StringVar(&choices.Voice, "voice", "", "voice: auto, a voice's name, or none (default: the original's)")
	fl.StringVar(&choices.Soundscape, "soundscape", "", "soundscape, or none (default: the original's)")
	addNoTUI(fl, &noTUI)
	return cmd
}

// listIntention is the list's intention column: a replay says which
// session it replays.
func listIntention(intention, replayOf string) string {
	if replayOf == "" {
		return intention
	}
	return strings.TrimSpace(intention + " (replay of " + replayOf + ")")
}

// Reread loads a finished session read-only for the TUI: its summary and
// its words by phase, as an export lays them out.
func (b backend) Reread(id string) (tui.Reread, error) {
	st, report, err := b.app.Read(id)
	if err != nil {
		return tui.Reread{}, err
	}
	b.logNotes(id, report.Notes)
	r := tui.Reread{ID: st.ID, Title: sessionTitle(st), Replayable: st.Status == engine.Completed}
	for _, row := range sessionSummary(st) {
		r.Summary = append(r.Summary, tui.SummaryRow{Label: row.Label, Value: row.Value})
	}
	for _, pw := range sessions.Words(st) {
		r.Phases = append(r.Phases, tui.PhaseWords{Phase: pw.Phase, Lines: pw.Lines})
	}
	return r, nil
}

// Replay begins a replay of a completed session, with its own voice and
// soundscape.
func (b backend) Replay(id string) (tui.Run, error) {
	r, err := b.app.Replay(id, app.ReplayChoices{})
	if err != nil {
		return nil, err // never a typed nil inside the interface
	}
	return r, nil
}
