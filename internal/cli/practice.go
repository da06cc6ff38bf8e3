package cli

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/engine"
)

// practiceFlags are what a practice's command (breathe, sit) is told
// besides its one optional argument.
type practiceFlags interface {
	add(fl *pflag.FlagSet)
	// options are the practice the flags and the argument ask for.
	options(arg string) (engine.Options, error)
	// target is where the practice plays: to the WAV file out when it is
	// set, else a line at a time with noTUI, else on its screen.
	target() (out string, noTUI bool)
}

// practiceCmd is a practice's command: breathe and sit are read, opened
// and played the same way, and differ only in their help and flags.
func (c *cli) practiceCmd(h help, f practiceFlags) *cobra.Command {
	cmd := h.command(cobra.MaximumNArgs(1), func(cmd *cobra.Command, args []string) error {
		opts, err := f.options(optionalArg(args))
		if err != nil {
			return err
		}
		return c.withEnv(func(env *environment) error {
			out, noTUI := f.target()
			if out != "" {
				return c.render(env, opts, out, "", nil)
			}
			return c.practise(env, opts, noTUI)
		})
	})
	f.add(cmd.Flags())
	return cmd
}

// practise starts a practice and plays it: on its screen, or with noTUI a
// line at a time.
func (c *cli) practise(env *environment, opts engine.Options, noTUI bool) error {
	start := func() (*app.Run, error) { return env.app.Start(opts) }
	if noTUI {
		return c.headless(start)
	}
	return c.onScreen(env, start)
}

// optionalArg is a command's one optional argument, "" when not given.
func optionalArg(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return ""
}
