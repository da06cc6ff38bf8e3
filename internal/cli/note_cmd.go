package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

var noteHelp = help{
	use:   "note ID [--mood-after N] [--note TEXT] [--mood-before N]",
	short: "Keep your mood before and after, and a note, with a session",
	long: "Keep with a session how you felt before and after it, 1 (low) to 5 (very good),\n" +
		"and a short note (up to 280 characters; --note \"\" clears it). The mood after\n" +
		"is for a session that has ended; the mood before and the note, for any.",
	example: "  lull sessions note 20261124-213000-kdlu --mood-after 4 --note \"slept soon after\"",
}

// noteCmd is lull sessions note: what the listener says of a session.
func (c *cli) noteCmd() *cobra.Command {
	var before, after int
	var note string
	cmd := noteHelp.command(cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		fl := cmd.Flags()
		var r sessions.Remark
		var errs []error
		if fl.Changed("mood-before") {
			errs = append(errs, checkMoodFlag("--mood-before", before))
			r.MoodBefore = before
		}
		if fl.Changed("mood-after") {
			errs = append(errs, checkMoodFlag("--mood-after", after))
			r.MoodAfter = after
		}
		if fl.Changed("note") {
			clean, err := engine.CleanNote(note)
			if err != nil {
				err = fmt.Errorf("--note: %w", err)
			}
			errs = append(errs, err)
			r.Note = &clean
		}
		if err := errors.Join(errs...); err != nil {
			return err
		}
		if r.MoodBefore == 0 && r.MoodAfter == 0 && r.Note == nil {
			return errors.New("nothing to keep: give --mood-after N, --mood-before N or --note TEXT")
		}
		return c.withEnv(func(env *environment) error {
			st, err := env.app.Remark(args[0], r)
			if err != nil {
				return err
			}
			fprintln(c.stdout, savedRemark(st))
			return nil
		})
	})
	fl := cmd.Flags()
	fl.IntVar(&after, "mood-after", 0, "how you felt after it, 1 (low) to 5 (very good)")
	fl.IntVar(&before, "mood-before", 0, "how you felt before it, 1 to 5")
	fl.StringVar(&note, "note", "", "a short note to keep with it; \"\" clears it")
	return cmd
}

// showRemarks adds what the listener said of a session to lull sessions
// show: the mood before and after, and the note.
func showRemarks(row func(k, v string), st engine.State) {
	if ch := engine.MoodChange(st.MoodBefore, st.MoodAfter); ch != "" {
		row("mood", ch)
	}
	if st.Note != "" {
		row("your note", st.Note)
	}
}
