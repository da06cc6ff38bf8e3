package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var manHelp = help{
	use:   "man",
	short: "Print lull's manual page (lull.1, roff)",
	long: "Print lull's manual page, made from the same commands and flags as --help, as\n" +
		"roff for man(1).",
	example: "  lull man | man -l -\n" +
		"  lull man > ~/.local/share/man/man1/lull.1",
}

func (c *cli) manCmd() *cobra.Command {
	return manHelp.command(cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		_, err := fmt.Fprint(c.stdout, manPage(cmd.Root()))
		return err
	})
}

// manFiles are the files lull keeps, as the manual names them.
var manFiles = []struct{ path, about string }{
	{"$LULL_HOME/config.yaml, else $XDG_CONFIG_HOME/lull/config.yaml (~/.config/lull/config.yaml)",
		"The settings, every one optional. lull config init writes one with every default; lull config show prints what lull uses."},
	{"$LULL_HOME/sessions/, else $XDG_DATA_HOME/lull/sessions/ (~/.local/share/lull/sessions/)",
		"One folder per session, private to you: session.yaml, its backup, and transcript.md."},
	{"$LULL_HOME/lull.log, else $XDG_STATE_HOME/lull/lull.log (~/.local/state/lull/lull.log)",
		"The log. It never holds a key."},
}

// manPage is lull(1) in roff, from root's commands and flags: what --help
// says, in the sections a manual has.
func manPage(root *cobra.Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH LULL 1 \"\" %s \"User Commands\"\n", roffArg("lull "+version))
	b.WriteString(".SH NAME\n")
	b.WriteString(roff(root.Name()+" - "+strings.ToLower(root.Short[:1])+root.Short[1:]) + "\n")

	b.WriteString(".SH SYNOPSIS\n")
	fmt.Fprintf(&b, "\\fB%s\\fR [\\fIflags\\fR]\n.br\n", roff(root.Name()))
	fmt.Fprintf(&b, "\\fB%s\\fR \\fIcommand\\fR [\\fIarguments\\fR] [\\fIflags\\fR]\n", roff(root.Name()))

	b.WriteString(".SH DESCRIPTION\n")
	b.WriteString(roffText(root.Long, ".PP"))
	b.WriteString(".PP\nWith no command, lull opens its screen: your sessions, and a new one with \\fBn\\fR.\n")

	b.WriteString(".SH COMMANDS\n")
	for _, cmd := range manCommands(root) {
		fmt.Fprintf(&b, ".TP\n%s\n", commandSynopsis(cmd))
		if cmd.Long != "" {
			b.WriteString(roffText(cmd.Long, ".IP"))
		} else {
			b.WriteString(roff(cmd.Short) + "\n")
		}
		if flags := manFlags(cmd); flags != "" {
			b.WriteString(".RS\n" + flags + ".RE\n")
		}
	}

	b.WriteString(".SH OPTIONS\n")
	b.WriteString("With no command, lull takes these:\n")
	b.WriteString(manFlags(root))
	b.WriteString(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nHelp for lull or any command, as \\fBlull \\fIcommand\\fB \\-\\-help\\fR.\n")

	b.WriteString(".SH FILES\n")
	for _, f := range manFiles {
		fmt.Fprintf(&b, ".TP\n\\fI%s\\fR\n%s\n", roff(f.path), roff(f.about))
	}

	b.WriteString(".SH ENVIRONMENT\n")
	for _, v := range environmentVariables {
		fmt.Fprintf(&b, ".TP\n\\fB%s\\fR\n%s\n", roff(v.Name), roff(v.About))
	}

	b.WriteString(".SH EXAMPLES\n")
	for _, cmd := range append([]*cobra.Command{root}, manCommands(root)...) {
		if cmd.Example == "" {
			continue
		}
		b.WriteString(".PP\n.RS 4\n.nf\n")
		for _, line := range strings.Split(strings.TrimRight(cmd.Example, "\n"), "\n") {
			b.WriteString(roff(strings.TrimPrefix(line, "  ")) + "\n")
		}
		b.WriteString(".fi\n.RE\n")
	}

	b.WriteString(".SH SEE ALSO\n")
	b.WriteString("\\fBlull \\fIcommand\\fB \\-\\-help\\fR; \\fBlull completion \\-\\-help\\fR for your shell's completions.\n")
	return b.String()
}

// manCommands are the commands a person may run, depth first, in the
// order --help lists them.
func manCommands(root *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		for _, sub := range cmd.Commands() {
			if !sub.IsAvailableCommand() || sub.Name() == "help" {
				continue
			}
			out = append(out, sub)
			walk(sub)
		}
	}
	walk(root)
	return out
}

// commandSynopsis is the command's full path in bold and its arguments
// in italics: "lull sessions show ID".
func commandSynopsis(cmd *cobra.Command) string {
	path := cmd.CommandPath()
	_, args, _ := strings.Cut(cmd.Use, " ")
	s := "\\fB" + roff(path) + "\\fR"
	if args != "" {
		s += " \\fI" + roff(args) + "\\fR"
	}
	return s
}

// manFlags lists cmd's own flags, help aside, as --help does.
func manFlags(cmd *cobra.Command) string {
	var b strings.Builder
	cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		name, usage := pflag.UnquoteUsage(f)
		b.WriteString(".TP\n")
		if f.Shorthand != "" {
			b.WriteString("\\fB\\-" + roff(f.Shorthand) + "\\fR, ")
		}
		b.WriteString("\\fB\\-\\-" + roff(f.Name) + "\\fR")
		if name != "" {
			b.WriteString(" \\fI" + roff(name) + "\\fR")
		}
		b.WriteString("\n" + roff(strings.ReplaceAll(usage, "\n", " ")))
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			b.WriteString(" (default " + roff(f.DefValue) + ")")
		}
		b.WriteString("\n")
	})
	return b.String()
}

// roffText is text as --help shows it, in roff: paragraphs filled, and
// those with indented lines (lists, tables) kept as they are. Each
// paragraph after the first begins with the request next (.PP, or .IP to
// stay indented under a .TP).
func roffText(text, next string) string {
	var b strings.Builder
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString(next + "\n")
		}
		lines := strings.Split(para, "\n")
		indented := false
		for _, l := range lines {
			indented = indented || strings.HasPrefix(l, " ")
		}
		if !indented {
			b.WriteString(roff(strings.Join(lines, " ")) + "\n")
			continue
		}
		b.WriteString(".nf\n")
		for _, l := range lines {
			b.WriteString(roff(l) + "\n")
		}
		b.WriteString(".fi\n")
	}
	return b.String()
}

// roff is text safe on a roff text line: backslashes and hyphens escaped,
// a leading dot or quote kept from reading as a request, every character
// beyond ASCII by its Unicode name.
func roff(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r == '\'':
			b.WriteString(`\(aq`)
		case r == '`':
			b.WriteString(`\(ga`)
		case r > 0x7e:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		case r < ' ' && r != '\t':
			// no control character reaches the page
		default:
			b.WriteRune(r)
		}
	}
	out := b.String()
	if strings.HasPrefix(out, ".") {
		out = `\&` + out
	}
	return out
}

// roffArg is s as one quoted argument of a request.
func roffArg(s string) string {
	return `"` + strings.ReplaceAll(roff(s), `"`, `\(dq`) + `"`
}
