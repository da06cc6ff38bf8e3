package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/remind"
)

// remindCmd is lull remind: a daily reminder through the system's own
// user timer, set, shown and removed.
func (c *cli) remindCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "remind",
		Short: "A daily reminder to take a few quiet minutes, kept by your system's own timer",
		Long: "Be reminded every day, at a time you choose, to take a few quiet minutes: a\n" +
			"notification asks, and a day you have practised already stays quiet.\n\n" +
			"lull sets it with your system's own user timer — a systemd user timer where\n" +
			"systemd --user runs (~/.config/systemd/user/lull-remind.timer), a launchd agent\n" +
			"on macOS (~/Library/LaunchAgents/dev.lull.remind.plist) — and off removes it\n" +
			"whole. Elsewhere (a container, no systemd) it prints the line to add to your\n" +
			"crontab, and changes nothing.",
		Example: "  lull remind at 21:30\n  lull remind show\n  lull remind off",
		Args:    cobra.ArbitraryArgs,
		RunE:    groupRun,
	}
	at := &cobra.Command{
		Use:               "at HH:MM",
		Short:             "Remind me every day at HH:MM (24-hour clock), replacing any time set before",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := remind.Parse(args[0])
			if err != nil {
				return err
			}
			return c.remindAt(thisSystem(), t)
		},
	}
	off := &cobra.Command{
		Use:   "off",
		Short: "Remove the daily reminder",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return c.remindOff(thisSystem()) },
	}
	show := &cobra.Command{
		Use:   "show",
		Short: "Say what reminder is set, if any",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return c.remindShow(thisSystem()) },
	}
	notify := &cobra.Command{
		Use:    "notify",
		Short:  "Show the reminder now (what the timer runs)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE:   func(cmd *cobra.Command, _ []string) error { return c.remindNotify() },
	}
	cmd.AddCommand(at, off, show, notify)
	return cmd
}

// thisSystem is the machine lull runs on, as package remind asks it.
func thisSystem() remind.System {
	program, err := os.Executable()
	if err != nil {
		program = "lull"
	}
	return remind.System{GOOS: runtime.GOOS, Getenv: os.Getenv, LookPath: exec.LookPath, Run: runCommand,
		Program: program, UID: os.Getuid()}
}

// runCommand runs a command of the system's (systemctl, launchctl) and
// keeps what it said for when it fails.
func runCommand(name string, args ...string) error {
	var out bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return &remind.Said{Command: strings.Join(append([]string{name}, args...), " "), Output: out.String(), Err: err}
	}
	return nil
}

// timerWords names a kind of timer in a sentence.
func timerWords(t remind.Timer) string {
	if t == remind.Launchd {
		return "a launchd agent"
	}
	return "a systemd user timer"
}

func (c *cli) remindAt(sys remind.System, t remind.Time) error {
	d, err := sys.Set(t)
	if d.Timer == remind.None && err == nil {
		how := "add this line to your crontab (crontab -e):"
		if sys.GOOS == "windows" {
			how = "create a task with the task scheduler:"
		}
		fprintf(c.stdout, "lull can set no user timer here (no systemd --user, no launchd). To be reminded every day at %s, %s\n\n", t, how)
		fprintln(c.stdout, "  "+unbroken(d.CronLine))
		return nil
	}
	for _, f := range d.Files {
		fprintln(c.stdout, "Wrote "+human.Line(f))
	}
	for _, r := range d.Ran {
		fprintln(c.stdout, "Ran "+unbroken(human.Line(r)))
	}
	if err != nil {
		return remindFailed(err, d)
	}
	fprintf(c.stdout, "Every day at %s a notification will ask whether you have a few quiet minutes (%s). Remove it with: %s\n",
		t, timerWords(d.Timer), human.Command("remind off"))
	return nil
}

// remindFailed says what failed, and what is left to run by hand.
func remindFailed(err error, d remind.Done) error {
	if len(d.ToDo) == 0 {
		return err
	}
	var todo []string
	for _, line := range d.ToDo {
		todo = append(todo, "  "+unbroken(line))
	}
	return fmt.Errorf("%w\nWhat is left to do, by hand:\n%s", err, strings.Join(todo, "\n"))
}

func (c *cli) remindOff(sys remind.System) error {
	d, err := sys.Off()
	switch {
	case d.Timer == remind.None && err == nil:
		fprintln(c.stdout, "lull sets no timer here. If you added its line to your crontab, remove it with crontab -e (crontab -l shows it).")
		return nil
	case d.Nothing && err == nil:
		fprintln(c.stdout, "No reminder is set: there is nothing to remove.")
		return nil
	}
	for _, r := range d.Ran {
		fprintln(c.stdout, "Ran "+unbroken(human.Line(r)))
	}
	for _, f := range d.Files {
		fprintln(c.stdout, "Removed "+human.Line(f))
	}
	if err != nil {
		return remindFailed(err, d)
	}
	fprintln(c.stdout, "The daily reminder is off.")
	return nil
}

func (c *cli) remindShow(sys remind.System) error {
	st, err := sys.Show()
	if err != nil {
		return err
	}
	switch {
	case st.Timer == remind.None:
		fprintln(c.stdout, "lull keeps no timer here (no systemd --user, no launchd): a reminder you added to your crontab is listed by crontab -l.")
	case !st.Set:
		fprintln(c.stdout, "No reminder is set. Set one with: "+human.Command("remind at 21:30"))
	default:
		state := ""
		if st.Active != "" {
			state = ", " + human.Line(st.Active)
		}
		fprintf(c.stdout, "A reminder is set for %s every day (%s%s): %s\n", st.At, timerWords(st.Timer), state, human.Line(st.File))
		fprintln(c.stdout, "Change it with: "+human.Command("remind at HH:MM")+" · remove it with: "+human.Command("remind off"))
	}
	return nil
}

// The reminder's words.
const (
	reminderTitle = "lull"
	reminderBody  = "A few quiet minutes? lull is ready when you are."
)

// remindNotify is what the timer runs: a desktop notification, unless
// the listener has practised today already. Where none can be shown the
// words are printed, for the timer's log. It never fails the timer.
func (c *cli) remindNotify() error {
	if env, err := c.open(); err == nil {
		r, _ := env.app.Practice(time.Now())
		env.close()
		if n := len(r.Last); n > 0 && r.Last[n-1].Sessions > 0 {
			fprintln(c.stdout, "Practised today already: no reminder.")
			return nil
		}
	}
	if err := notifyDesktop(runtime.GOOS, exec.LookPath, runCommand); err != nil {
		fprintln(c.stdout, reminderBody)
		if !errors.Is(err, errNoNotifier) {
			fprintln(c.stderr, "lull: the notification could not be shown: "+human.Line(err.Error()))
		}
	}
	return nil
}

// errNoNotifier is a system with no way lull knows to show a notification.
var errNoNotifier = errors.New("no notifier")

// notifyDesktop shows the reminder as a notification: notify-send on
// Linux and the BSDs, osascript on macOS.
func notifyDesktop(goos string, lookPath func(string) (string, error), run func(string, ...string) error) error {
	switch goos {
	case "darwin":
		return run("osascript", "-e", fmt.Sprintf("display notification %q with title %q", reminderBody, reminderTitle))
	case "windows":
		return errNoNotifier
	}
	if _, err := lookPath("notify-send"); err != nil {
		return errNoNotifier
	}
	return run("notify-send", "--app-name="+reminderTitle, reminderTitle, reminderBody)
}
