package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/human"

	"github.com/lull-dev/lull/internal/crisis"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
	"github.com/lull-dev/lull/internal/tui"
)

type cli struct {
	stdout, stderr io.Writer
	guide          app.GuideFlags // --guide, --model, --private, --keep-responses
	in             *bufio.Reader  // the terminal's answers (mood, note), read once asked
}

var rootHelp = help{
	use:   "lull",
	short: "Guided relaxation in your terminal, spoken aloud",
	long: "lull speaks a guided relaxation session over a soft soundscape, in five phases:\n" +
		"atmosphere, breathing, sensory, relaxation, resolution. Put on headphones,\n" +
		"close your eyes. Pause whenever you need; every session can be resumed.",
}

func newRoot(c *cli) *cobra.Command {
	var showVersion bool
	root := rootHelp.command(noSubcommand, func(cmd *cobra.Command, _ []string) error {
		if showVersion {
			c.printVersion()
			return nil
		}
		return c.withEnv(func(env *environment) error {
			return c.runTUI(env, tui.Options{})
		})
	})
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.SetFlagErrorFunc(flagError)
	root.Flags().BoolVarP(&showVersion, "version", "v", false, "print lull's version (as lull version does)")
	c.addGuideFlags(root.Flags())
	root.AddCommand(c.newCmd(), c.resumeCmd(), c.renderCmd(), c.breatheCmd(), c.sitCmd(), c.sessionsCmd(), c.doctorCmd(), c.versionCmd())
	root.AddCommand(c.statsCmd())
	root.AddCommand(c.replayCmd())
	root.AddCommand(c.configCmd(), c.manCmd())
	root.AddCommand(c.remindCmd())
	strictHelp(root)
	fitHelp(root)
	addCompletions(root)
	return root
}

// withEnv opens lull's environment for one command and closes it after.
func (c *cli) withEnv(f func(*environment) error) error {
	env, err := c.open()
	if err != nil {
		return err
	}
	defer env.close()
	return f(env)
}

type newFlags struct {
	length     string
	intention  string
	seed       int64
	voice      string
	soundscape string
	noTUI      bool
	sleep      sleepFlags
	moodBefore int
}

var newHelp = help{
	use:   "new",
	short: "Begin a new session",
	long: "Begin a new session. With no flags lull opens the form to choose; with any\n" +
		"flag it begins at once. --no-tui prints each sentence as it is spoken.",
	example: "  lull new\n  lull new --length 20 --intention \"calm before a talk\"\n  lull new --sleep --sleep-after 45\n  lull new --no-tui --length 10m --voice none",
}

func (c *cli) newCmd() *cobra.Command {
	var f newFlags
	cmd := newHelp.command(cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		opts, sleep, err := f.options(cmd.Flags())
		if err != nil {
			return err
		}
		chose := cmd.Flags().NFlag() > 0 && !(cmd.Flags().NFlag() == 1 && f.noTUI)
		return c.withEnv(func(env *environment) error {
			if !f.noTUI && !chose {
				return c.runTUI(env, tui.Options{Form: true})
			}
			sleep.tail(&opts, env.app.Config())
			start := func() (*app.Run, error) {
				r, err := env.app.Start(opts)
				if err != nil {
					return nil, c.startError(err)
				}
				return r, nil
			}
			if f.noTUI {
				if c.askingMood() && !cmd.Flags().Changed("mood-before") {
					opts.MoodBefore = c.askMood(moodBeforeQuestion)
				}
				return c.headlessAsking(env.app, start, sleep.notes()...)
			}
			return c.onScreen(env, start, sleep.statusNotes()...)
		})
	})
	fl := cmd.Flags()
	f.addSession(fl)
	addNoTUI(fl, &f.noTUI)
	fl.IntVar(&f.moodBefore, "mood-before", 0, "how you feel now, 1 (low) to 5 (very good); kept with the session")
	c.addGuideFlags(fl)
	return cmd
}

// addSession adds the flags that choose the session, lull new's and
// lull render's alike.
func (f *newFlags) addSession(fl *pflag.FlagSet) {
	fl.StringVarP(&f.length, "length", "l", "", "session length in minutes, 5–60 (10, or 10m)")
	fl.StringVarP(&f.intention, "intention", "i", "", "what you come for: \"sleep\", \"calm before a talk\"")
	fl.Int64Var(&f.seed, "seed", 0, "seed for the built-in guide: the same seed gives the same session")
	fl.StringVar(&f.voice, "voice", "", voiceUsage())
	fl.StringVar(&f.soundscape, "soundscape", "", soundscapeUsage())
	f.sleep.add(fl)
}

// options are the session the flags ask for, and what they say of sleep;
// the config fills in the rest (sleepChoice.tail).
func (f newFlags) options(fl *pflag.FlagSet) (engine.Options, sleepChoice, error) {
	var o engine.Options
	if f.length != "" {
		d, err := parseLength(f.length)
		if err != nil {
			return o, sleepChoice{}, err
		}
		o.Length = d
	}
	// Checked here, before anything is opened: a refused intention makes
	// no session and no folder.
	intention, err := engine.CleanIntention(f.intention)
	if err != nil {
		return o, sleepChoice{}, fmt.Errorf("--intention: %w", err)
	}
	o.Intention = intention
	o.Seed = f.seed
	o.Voice = f.voice
	o.Soundscape = f.soundscape
	if fl.Changed("mood-before") {
		if err := checkMoodFlag("--mood-before", f.moodBefore); err != nil {
			return o, sleepChoice{}, err
		}
		o.MoodBefore = f.moodBefore
	}
	sleep, err := f.sleep.settle(fl, &o)
	return o, sleep, err
}

// parseLength accepts "10", "10m" or any whole-minute duration like "1h".
func parseLength(s string) (time.Duration, error) {
	d, ok := parseMinutes(s)
	if !ok {
		return 0, fmt.Errorf("--length %q: give minutes, like 10 or 10m", strings.TrimSpace(s))
	}
	if err := engine.CheckLength(d); err != nil {
		return 0, fmt.Errorf("--length %s: %w", strings.TrimSpace(s), err)
	}
	return d, nil
}

// parseMinutes reads a flag given in minutes: "10", or any duration like
// "10m" or "1h". The caller checks the range.
func parseMinutes(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		if n < -1e6 || n > 1e6 {
			return 0, false // would overflow a duration
		}
		return time.Duration(n) * time.Minute, true
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

// startError explains a session that could not begin. An intention that
// signals crisis gets kindness and where to find help.
func (c *cli) startError(err error) error {
	if errors.As(err, new(*crisis.Error)) {
		fprintln(c.stdout, strings.TrimSpace(prompts.Crisis))
		return &exitError{code: 1}
	}
	return err
}

var resumeHelp = help{
	use:   "resume [ID]",
	short: "Resume a paused or interrupted session (the latest if no ID)",
}

func (c *cli) resumeCmd() *cobra.Command {
	var noTUI bool
	cmd := resumeHelp.command(cobra.MaximumNArgs(1), func(cmd *cobra.Command, args []string) error {
		return c.withEnv(func(env *environment) error {
			id := ""
			if len(args) == 1 {
				id = args[0]
			} else {
				latest, err := latestResumable(env)
				if err != nil {
					return err
				}
				id = latest
			}
			start := func() (*app.Run, error) { return env.app.Resume(id) }
			if noTUI {
				return c.headlessAsking(env.app, start)
			}
			return c.onScreen(env, start)
		})
	})
	addNoTUI(cmd.Flags(), &noTUI)
	c.addGuideFlags(cmd.Flags())
	return cmd
}

func latestResumable(env *environment) (string, error) {
	list, _ := env.app.Store().List()
	for _, s := range list {
		if s.Status.Resumable() && s.Newer == 0 {
			return s.ID, nil
		}
	}
	return "", errors.New("no session to resume: begin one with " + human.Command("new"))
}

var versionHelp = help{
	use:   "version",
	short: "Print lull's version",
}

func (c *cli) versionCmd() *cobra.Command {
	return versionHelp.command(cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		c.printVersion()
		return nil
	})
}

// printVersion is what lull version and lull --version print.
func (c *cli) printVersion() {
	fmt.Fprintf(c.stdout, "lull %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
