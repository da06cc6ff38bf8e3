package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

type sitFlags struct {
	bell       string
	soundscape string
	noTUI      bool
}

var sitHelp = help{
	use:   "sit [MINUTES]",
	short: "A silent sit: a soundscape, a bell at the start, every few minutes if you like, and at the end",
	long: "Sit in silence over a soundscape, with no words: a bell as it begins, a bell\n" +
		"every --bell minutes if you ask for one, and a double bell at its end. It pauses,\n" +
		"resumes and is saved like a session, and counts as practice.\n\n" +
		fmt.Sprintf("MINUTES is how long, %d to %d (10 or 10m). Without it the sit is open-ended:\n", int(engine.MinSitLength.Minutes()), int(engine.MaxSitLength.Minutes())) +
		"it goes on until you end it (e on its screen), and at most " + human.Duration(engine.MaxSitLength) + ". On its screen\n" +
		"space pauses and resumes, e ends the sit with its last bell, and q pauses,\n" +
		"saves and quits (lull resume carries on). With --no-tui, Ctrl-C pauses and\n" +
		"saves; a sit left paused is ended with lull sessions summarize ID.\n\n" +
		"The soundscape is the config's unless --soundscape names another (none: silence\n" +
		"between the bells).",
	example: "  lull sit 20 --bell 5\n  lull sit --bell 10m\n  lull sit 15 --soundscape rain\n  lull sit 10 --no-tui",
}

func (c *cli) sitCmd() *cobra.Command { return c.practiceCmd(sitHelp, new(sitFlags)) }

func (f *sitFlags) add(fl *pflag.FlagSet) {
	fl.StringVarP(&f.bell, "bell", "b", "", "a bell every so many minutes (5 or 5m), shorter than the sit")
	fl.StringVar(&f.soundscape, "soundscape", "", soundscapeUsage())
	fl.BoolVar(&f.noTUI, "no-tui", false, "print a line for each bell, no screen")
}

// target: a sit is never rendered to a file.
func (f sitFlags) target() (out string, noTUI bool) { return "", f.noTUI }

// options are the sit the arguments ask for.
func (f sitFlags) options(minutes string) (engine.Options, error) {
	o := engine.Options{Practice: engine.PracticeSit, Soundscape: f.soundscape}
	if minutes != "" {
		d, ok := parseMinutes(minutes)
		if !ok {
			return o, fmt.Errorf("MINUTES %q: give minutes, like 20 or 20m", strings.TrimSpace(minutes))
		}
		if d == 0 {
			return o, errors.New("MINUTES 0: leave it out for a sit with no set end")
		}
		if err := engine.CheckLengthFor(engine.PracticeSit, d); err != nil {
			return o, fmt.Errorf("MINUTES %s: %w", strings.TrimSpace(minutes), err)
		}
		o.Length = d
	}
	if f.bell != "" {
		_, name, err := engine.ParseBell(f.bell)
		if err != nil {
			return o, fmt.Errorf("--%w", err)
		}
		if err := engine.CheckSitBell(name, o.Length); err != nil {
			return o, fmt.Errorf("--bell %s: %w", strings.TrimSpace(f.bell), err)
		}
		o.Pattern = name
	}
	return o, nil
}

// sitHeader opens a sit's lines without a screen.
func sitHeader(w io.Writer, st engine.State) {
	fprintf(w, "lull · sitting · %s · %s · session %s\n", sitLength(st), sitBells(st.Pattern), human.Line(st.ID))
	if len(st.Runs) > 1 { // the first run may have begun already
		fprintf(w, "(resumed at %s)\n", human.Clock(st.Elapsed))
	}
}

// sitLength is a sit's length in words: "20 min", "open-ended".
// (Said of any session: a guided one always has a length.)
func sitLength(st engine.State) string {
	if st.Length == 0 {
		return "open-ended"
	}
	return fmt.Sprintf("%d min", int(st.Length.Minutes()))
}

// listLength is a session's length in a list: "20 min", or "open" for
// an open-ended sit.
func listLength(d time.Duration) string {
	if d == 0 {
		return "open"
	}
	return fmt.Sprintf("%d min", int(d.Minutes()))
}

// sitBells says a sit's bells: "a bell every 5 min".
func sitBells(bell string) string {
	d, _, err := engine.ParseBell(bell)
	if err != nil {
		return "a bell at the start and the end"
	}
	return "a bell every " + human.Duration(d)
}

// bellLine is a sit's bell as a line: "Bell · 5:00".
func bellLine(ev engine.Event) string {
	switch {
	case ev.Index == 0:
		return fmt.Sprintf("Bell · %s · sitting", human.Clock(ev.Duration))
	case ev.Index < 0:
		return fmt.Sprintf("Bell, bell · %s · the end", human.Clock(ev.Duration))
	}
	return fmt.Sprintf("Bell %d · %s", ev.Index, human.Clock(ev.Duration))
}

// sitCompleted says a sit is complete, and saved unless closeErr says
// what was not.
func (c *cli) sitCompleted(final engine.State, closeErr error) error {
	done := fmt.Sprintf("\nSit complete · %s", human.Clock(final.Elapsed))
	if closeErr != nil {
		fprintln(c.stdout, done+".")
		return closeErr
	}
	fprintf(c.stdout, "%s. Saved as %s.\n", done, final.ID)
	return nil
}
