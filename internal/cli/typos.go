package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/human"
)

// A word lull does not know — a command, a subcommand, a flag — is an
// error that names it and what was likely meant (human.Near), and fails:
// cobra would print the help and exit 0 for some of them, which a script
// reads as success.

// noSubcommand is the Args of a command that takes no argument but has
// subcommands (the root): an argument is a command mistyped.
func noSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return unknownCommand(cmd, args[0])
	}
	return nil
}

// groupRun is what a command that only groups others does when run: with
// no argument it shows its help; with one it names the subcommand it does
// not have and the nearest it does.
func groupRun(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return cmd.Help()
	}
	return unknownCommand(cmd, args[0])
}

// unknownCommand is the error for a word cmd has no subcommand by.
func unknownCommand(cmd *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q", word)
	if cmd.HasParent() {
		msg += fmt.Sprintf(" for %q", cmd.CommandPath())
	}
	var names []string
	for _, sub := range cmd.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return fmt.Errorf("%s%s\nSee: %s --help", msg, human.DidYouMean(word, names), cmd.CommandPath())
}

// flagError is every command's FlagErrorFunc: an unknown flag is named
// with the command's flags nearest to it.
func flagError(cmd *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: ")
	if !ok {
		return fmt.Errorf("%w\nSee: %s --help", err, cmd.CommandPath())
	}
	var flags []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			flags = append(flags, "--"+f.Name)
		}
	})
	return fmt.Errorf("unknown flag %q for %q%s\nSee: %s --help", name, cmd.CommandPath(), human.DidYouMean(name, flags), cmd.CommandPath())
}

// strictHelp makes lull help TOPIC fail on a topic lull does not have,
// naming the one meant, as a mistyped command does: cobra's help command
// shows the nearest command's help and exits 0.
func strictHelp(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	for _, help := range root.Commands() {
		if help.Name() != "help" || help.Run == nil {
			continue
		}
		show := help.Run
		help.Run = nil
		help.RunE = func(cmd *cobra.Command, args []string) error {
			if target, rest, err := cmd.Root().Find(args); err == nil && len(rest) > 0 {
				return unknownCommand(target, rest[0])
			}
			show(cmd, args)
			return nil
		}
	}
}
