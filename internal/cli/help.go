package cli

import "github.com/spf13/cobra"

// help is what lull says of a command, in its --help and in the manual.
// Each command's file declares its help above the command, as words to
// read apart from the wiring: a command is its help, its flags and what
// it runs.
type help struct {
	use     string // the name, then the arguments: "show ID"
	aliases []string
	short   string
	long    string
	example string
}

// command is a command that says h, takes args and does run.
func (h help) command(args cobra.PositionalArgs, run func(cmd *cobra.Command, args []string) error) *cobra.Command {
	return &cobra.Command{
		Use:     h.use,
		Aliases: h.aliases,
		Short:   h.short,
		Long:    h.long,
		Example: h.example,
		Args:    args,
		RunE:    run,
	}
}

// group is a command that only groups subs: alone it shows its help, and
// a word it does not know is named with the nearest it does (groupRun).
func (h help) group(subs ...*cobra.Command) *cobra.Command {
	cmd := h.command(cobra.ArbitraryArgs, groupRun)
	cmd.AddCommand(subs...)
	return cmd
}
