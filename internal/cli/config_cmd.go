package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/sessions"
)

var configHelp = help{
	use:   "config",
	short: "Where the config file is, what lull uses, a new one, or edit it",
	long: "lull's settings live in one YAML file, config.yaml; every key may be left out.\n" +
		"These commands find it, show what lull makes of it, write a first one, and\n" +
		"edit it safely.",
}

var configPathHelp = help{
	use:     "path",
	short:   "Print the config file's path (whether or not it exists)",
	example: "  lull config path\n  $EDITOR \"$(lull config path)\"",
}

var configShowHelp = help{
	use:   "show",
	short: "Print the settings lull uses: every key, defaults filled in, where each came from",
	long: "Print the settings lull uses, as YAML: every key, with lull's default where the\n" +
		"file says nothing, each marked as from the file, the default, or not set.\n" +
		"A password or token in a URL is masked; keys never live in the file, and the\n" +
		"environment variables that hold them are said to be set or not, never shown.\n" +
		"A config lull refuses is an error that says why and on which line.",
}

var configInitHelp = help{
	use:   "init",
	short: "Write a config with every setting and its default, commented out",
	long: "Write the config file with every key lull knows, each at its default and\n" +
		"commented out, with a word on what it does: it changes nothing until you take\n" +
		"a line out of its comment. An existing config is never overwritten.",
}

var configEditHelp = help{
	use:   "edit",
	short: "Open the config in your editor, then check it",
	long: "Open the config file in $VISUAL, else $EDITOR, else vi — writing it first as\n" +
		"lull config init does if there is none — and check it when the editor closes,\n" +
		"as lull reads it. On a terminal, a config lull would refuse is explained, with\n" +
		"its line, and you are asked whether to edit it again; otherwise the error is\n" +
		"printed and the exit status is 1. Your edit is kept as you left it either way.",
	example: "  lull config edit\n  EDITOR=nano lull config edit",
}

// The config commands never load the config to start: they must work on
// a config lull refuses, to show why and to mend it.
func (c *cli) configCmd() *cobra.Command {
	return configHelp.group(
		configPathHelp.command(cobra.NoArgs, atConfig(func(path string) error {
			fmt.Fprintln(c.stdout, path)
			return nil
		})),
		configShowHelp.command(cobra.NoArgs, func(cmd *cobra.Command, _ []string) error { return c.showConfig() }),
		configInitHelp.command(cobra.NoArgs, atConfig(func(path string) error {
			if err := writeNewConfig(path); err != nil {
				return err
			}
			fprintf(c.stdout, "Wrote %s: every setting at its default, commented out. Edit it with: %s\n", path, human.Command("config edit"))
			return nil
		})),
		configEditHelp.command(cobra.NoArgs, atConfig(func(path string) error {
			var again func() bool
			if isTerminal(os.Stdin) {
				again = c.askEditAgain
			}
			return c.editConfig(path, func() error { return runEditor(path) }, again)
		})),
	)
}

// atConfig is the run of a config command that works on the file: run
// is given its path.
func atConfig(run func(path string) error) func(*cobra.Command, []string) error {
	return func(*cobra.Command, []string) error {
		path, err := configPath()
		if err != nil {
			return err
		}
		return run(path)
	}
}

// configPath is where lull reads its config.
func configPath() (string, error) {
	data, err := sessions.Home()
	if err != nil {
		return "", err
	}
	paths, err := app.ResolvePaths(data)
	if err != nil {
		return "", err
	}
	return paths.Config, nil
}

// showConfig is lull config show.
func (c *cli) showConfig() error {
	path, err := configPath()
	if err != nil {
		return err
	}
	shown, err := app.ShowConfig(path)
	if err != nil {
		return fmt.Errorf("%w\nMend it with: %s", err, human.Command("config edit"))
	}
	where := "found"
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		where = "not there: every value is lull's default"
	}
	// A comment as wide as the terminal: the path may be long.
	header := fmt.Sprintf("The settings lull uses. The config: %s (%s)", human.Line(path), where)
	if width := columns(c.stdout); width > 0 {
		header = flow("", header, "# ", width-2)
	}
	fmt.Fprintf(c.stdout, "# %s\n", header)
	fmt.Fprint(c.stdout, shown)
	fmt.Fprintln(c.stdout, "\n# The environment (a key is never shown):")
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	for _, v := range environmentVariables {
		value, set := os.LookupEnv(v.Name)
		switch {
		case !set:
			value = "not set"
		case v.Key:
			value = setOrNot(value != "")
		default:
			value = human.Line(value)
		}
		fmt.Fprintf(w, "#   %s\t%s\n", v.Name, value)
	}
	return w.Flush()
}

// writeNewConfig writes the commented default config at path, and never
// over anything there: a file, a link or whatever else is there is left
// alone, with an error that says what to do.
func writeNewConfig(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("making the config's folder: %w", err)
	}
	// O_EXCL: no file is opened that is there already, and no link is
	// followed, not even a dangling one.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s is there already, and lull config init never writes over it: "+
			"edit it with %s, or move it away (mv %s %s.old) and run %s again", path, human.Command("config edit"), path, path, human.Command("config init"))
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, human.Bare(err))
	}
	_, err = f.WriteString(app.DefaultConfigText())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path) // made just now, and not whole
		return fmt.Errorf("writing %s: %w", path, human.Bare(err))
	}
	return nil
}

// editConfig is lull config edit: it writes the config if there is none,
// edits it, and checks it as lull loads it. When it is refused, again (nil
// without a terminal to ask on) says whether to edit it once more. The
// file is always left as the editor left it.
func (c *cli) editConfig(path string, edit func() error, again func() bool) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		if err := writeNewConfig(path); err != nil {
			return err
		}
		c.note(fmt.Sprintf("there was no config: %s now holds every setting at its default, commented out", path))
	}
	for {
		if err := edit(); err != nil {
			return err
		}
		_, err := app.LoadConfig(path)
		if err == nil {
			fprintf(c.stdout, "%s is good: lull will use it.\n", human.Line(path))
			return nil
		}
		if again == nil {
			return fmt.Errorf("%w\nThe config is kept as you left it, and lull refuses it until it is mended: lull config edit", err)
		}
		fprintln(c.stderr, "lull:", human.Lines(err.Error()))
		if !again() {
			return &exitError{code: 1, err: errors.New("the config is kept as you left it, and lull refuses it until it is mended: lull config edit")}
		}
	}
}

// askEditAgain asks on the terminal whether to edit the config again;
// yes unless the answer is no.
func (c *cli) askEditAgain() bool {
	answer, ok := c.answer("Edit it again? [Y/n] ")
	a := strings.ToLower(answer)
	return ok && a != "n" && a != "no"
}

// runEditor opens path in the listener's editor, on the terminal, and
// waits for it: $VISUAL, else $EDITOR, else vi. The variable may hold
// arguments ("code --wait"); a shell reads it, as git does.
func runEditor(path string) error {
	editor := cmp.Or(strings.TrimSpace(os.Getenv("VISUAL")), strings.TrimSpace(os.Getenv("EDITOR")), "vi")
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		words := strings.Fields(editor)
		cmd = exec.Command(words[0], append(words[1:], path)...)
	} else {
		cmd = exec.Command("/bin/sh", "-c", editor+` "$@"`, editor, path)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("the editor (%s) failed: %w; the config was not checked (set VISUAL or EDITOR to choose another)", human.Line(editor), err)
	}
	return nil
}
