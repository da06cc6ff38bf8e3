package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

type breatheFlags struct {
	minutes    string
	voice      string
	soundscape string
	noTUI      bool
	out        string
}

var breatheHelp = help{
	use:   "breathe [PATTERN]",
	short: "Paced breathing alone: the tone, the breath drawn large, a chime at the end",
	long: "Breathe to a soft pacer tone for a few minutes, with the breath drawn large on\n" +
		"the screen and a chime at the end; spoken cues teach the rhythm over the first\n" +
		"breaths, then the tone alone leads (--voice none: no words at all). It pauses,\n" +
		"resumes and is saved like a session, and counts as practice.\n\n" +
		"PATTERN is one of:\n" + patternList() +
		"or seconds as IN-HOLD-OUT or IN-HOLD-OUT-HOLD, like 4-2-6 or 5-0-7, within the\n" +
		"bounds lull keeps for safe breathing (a pattern outside them is refused with\n" +
		"the reason). The default is the config's breathing rhythm (4-2-6 unless\n" +
		"changed). No soundscape plays unless --soundscape asks for one.\n\n" +
		"--out FILE.wav renders the practice to a WAV file instead, as lull render does.",
	example: "  lull breathe\n  lull breathe 4-7-8 --minutes 2\n  lull breathe box --no-tui --voice none\n  lull breathe coherent --minutes 10 --out coherent.wav",
}

func (c *cli) breatheCmd() *cobra.Command { return c.practiceCmd(breatheHelp, new(breatheFlags)) }

func (f *breatheFlags) add(fl *pflag.FlagSet) {
	fl.StringVarP(&f.minutes, "minutes", "m", "", fmt.Sprintf("how long, in minutes: %d to %d (default %d)",
		int(engine.MinPracticeLength.Minutes()), int(engine.MaxLength.Minutes()), int(engine.DefaultPracticeLength.Minutes())))
	fl.StringVar(&f.voice, "voice", "", "the voice of the first breaths' cues: auto, a voice's name, or none (no words)")
	fl.StringVar(&f.soundscape, "soundscape", "", "a soundscape under the tone (default none)")
	fl.BoolVar(&f.noTUI, "no-tui", false, "print a line per breath and the cues, no screen")
	fl.StringVarP(&f.out, "out", "o", "", "write the practice to this WAV file instead of playing it (- for standard output)")
}

func (f breatheFlags) target() (out string, noTUI bool) { return f.out, f.noTUI }

// patternList is the named patterns, a line each, for --help.
func patternList() string {
	var b strings.Builder
	for _, n := range engine.NamedBreaths {
		fmt.Fprintf(&b, "  %-9s %s\n", n.Name, n.About)
	}
	return b.String()
}

// options are the practice the arguments ask for; the app fills in the
// rest (app.practiceDefaults).
func (f breatheFlags) options(pattern string) (engine.Options, error) {
	o := engine.Options{Practice: engine.PracticeBreathe, Voice: f.voice, Soundscape: f.soundscape}
	if f.noTUI && f.out != "" {
		return o, errors.New("--no-tui and --out: choose one (a render prints no breaths)")
	}
	if pattern != "" {
		_, name, err := engine.ParseBreath(pattern)
		if err != nil {
			return o, err
		}
		o.Pattern = name
	}
	if f.minutes != "" {
		d, ok := parseMinutes(f.minutes)
		if !ok {
			return o, fmt.Errorf("--minutes %q: give minutes, like 5 or 5m", strings.TrimSpace(f.minutes))
		}
		if err := engine.CheckLengthFor(engine.PracticeBreathe, d); err != nil {
			return o, fmt.Errorf("--minutes %s: %w", strings.TrimSpace(f.minutes), err)
		}
		o.Length = d
	}
	return o, nil
}

// practiceHeader opens a practice's lines without a screen.
func practiceHeader(w io.Writer, st engine.State) {
	fprintf(w, "lull · paced breathing %s · %d min · session %s\n", human.Line(st.Pattern), int(st.Length.Minutes()), human.Line(st.ID))
	if st.Status != engine.Created {
		fprintf(w, "(resumed at %s of %s)\n", human.Clock(st.Elapsed), human.Clock(st.Length))
	}
}

// breathLine is a practice's breath as a line: "Breath 3 of 6".
func breathLine(ev engine.Event) string {
	if ev.Text == "" {
		return fmt.Sprintf("Breath %d", ev.Index)
	}
	return strings.ToUpper(ev.Text[:1]) + ev.Text[1:]
}

// practiceCompleted says a practice is complete, and saved unless
// closeErr says what was not.
func (c *cli) practiceCompleted(final engine.State, closeErr error) error {
	done := fmt.Sprintf("\nBreathing complete · %s, %s", human.Clock(final.Elapsed), human.Line(final.Pattern))
	if closeErr != nil {
		fprintln(c.stdout, done+".")
		return closeErr
	}
	fprintf(c.stdout, "%s. Saved as %s.\n", done, final.ID)
	return nil
}
