package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// groupRun is what a command that only groups others does when run: with
// no argument it shows its help; with one it names the subcommand it does
// not have and the nearest it does, and fails — cobra would print the help
// and exit 0, which a script reads as success.
func groupRun(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return cmd.Help()
	}
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's own default for the root
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if near := cmd.SuggestionsFor(args[0]); len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, " or ") + "?"
	}
	return fmt.Errorf("%s\nSee: %s --help", msg, cmd.CommandPath())
}
