// Package remind is lull remind: a daily reminder to take a few quiet
// minutes, kept by the system's own user timer — a systemd user timer
// where systemd --user runs, a launchd agent on macOS — and removed as
// cleanly. Where neither is, it says the line to give cron (or the
// Windows task scheduler) and touches nothing.
//
// Everything it asks of the system goes through a System, whose fields
// stand for the environment, the disk's paths and the commands it runs
// (systemctl, launchctl): tests give their own, and never reach the
// user's real timers.
package remind

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Time is a time of day, to the minute.
type Time struct{ Hour, Minute int }

func (t Time) String() string { return fmt.Sprintf("%02d:%02d", t.Hour, t.Minute) }

// Parse reads a time of day written H:MM or HH:MM, on a 24-hour clock.
func Parse(s string) (Time, error) {
	m := regexp.MustCompile(`^([01]?\d|2[0-3]):([0-5]\d)$`).FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return Time{}, fmt.Errorf("%q is not a time of day: give it as HH:MM on a 24-hour clock, like 21:30 or 07:15", s)
	}
	h, _ := strconv.Atoi(m[1])
	min, _ := strconv.Atoi(m[2])
	return Time{h, min}, nil
}

// Timer is the kind of timer a system keeps reminders with.
type Timer int

const (
	None    Timer = iota // no user timer lull can set: cron's line, or the task scheduler's
	Systemd              // a systemd user timer (systemd --user)
	Launchd              // a launchd agent (macOS)
)

// Names of what lull writes: the systemd units and the launchd agent.
const (
	Unit  = "lull-remind"
	Label = "dev.lull.remind"
)

// System is where the reminder is kept, and how lull asks the system.
type System struct {
	GOOS     string
	Getenv   func(string) string
	LookPath func(string) (string, error)
	// Run runs a command (systemctl, launchctl) and returns what it said
	// when it failed.
	Run func(name string, args ...string) error
	// Program is lull's own path: what the timer runs (lull remind
	// notify).
	Program string
	// UID is the user's id, for launchd's gui/UID domain.
	UID int
}

// Timer is the kind of timer this system offers: launchd on macOS,
// systemd when systemctl is there and a user manager runs
// ($XDG_RUNTIME_DIR/systemd), else none.
func (s System) Timer() Timer {
	switch {
	case s.GOOS == "darwin" && s.found("launchctl"):
		return Launchd
	case s.GOOS == "windows":
		return None
	case s.found("systemctl") && s.Getenv("XDG_RUNTIME_DIR") != "" && isDir(filepath.Join(s.Getenv("XDG_RUNTIME_DIR"), "systemd")):
		return Systemd
	}
	return None
}

func (s System) found(name string) bool {
	_, err := s.LookPath(name)
	return err == nil
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// unitDir is where systemd reads a user's units: $XDG_CONFIG_HOME/systemd/user,
// else ~/.config/systemd/user.
func (s System) unitDir() (string, error) {
	base := s.Getenv("XDG_CONFIG_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home := s.Getenv("HOME")
		if home == "" {
			return "", errors.New("neither XDG_CONFIG_HOME nor HOME is set: there is nowhere to write the timer")
		}
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "systemd", "user"), nil
}

// agentPath is the launchd agent's file: ~/Library/LaunchAgents/dev.lull.remind.plist.
func (s System) agentPath() (string, error) {
	home := s.Getenv("HOME")
	if home == "" {
		return "", errors.New("HOME is not set: there is nowhere to write the launchd agent")
	}
	return filepath.Join(home, "Library", "LaunchAgents", Label+".plist"), nil
}

// Done is what setting or removing a reminder did: the files written or
// removed, the commands run, and what is left for the person to do.
type Done struct {
	Timer    Timer
	Files    []string // written (at) or removed (off)
	Ran      []string // the commands run, as a shell would show them
	ToDo     []string // commands to run by hand: a failed step, or no timer here
	Nothing  bool     // off: there was no reminder to remove
	CronLine string   // with no timer: the line for crontab -e (or the scheduler's command on Windows)
}

// Set makes the reminder fire every day at t, replacing any set before.
// On a step that fails, what was done stays done, and Done.ToDo says the
// rest; the error says why.
func (s System) Set(t Time) (Done, error) {
	switch timer := s.Timer(); timer {
	case Systemd:
		return s.setSystemd(t)
	case Launchd:
		return s.setLaunchd(t)
	}
	d := Done{Timer: None, CronLine: s.cronLine(t)}
	return d, nil
}

// Off removes the reminder lull set, if any.
func (s System) Off() (Done, error) {
	switch s.Timer() {
	case Systemd:
		return s.offSystemd()
	case Launchd:
		return s.offLaunchd()
	}
	return Done{Timer: None}, nil
}

// Status is what is set now.
type Status struct {
	Timer Timer
	Set   bool
	At    Time
	File  string // the timer's file
	// Active is what the timer's manager says of it ("active",
	// "inactive"…); "" when it was not asked.
	Active string
}

// Show reads the reminder lull set, from the timer's own file.
func (s System) Show() (Status, error) {
	st := Status{Timer: s.Timer()}
	var path string
	var err error
	switch st.Timer {
	case Systemd:
		var dir string
		dir, err = s.unitDir()
		path = filepath.Join(dir, Unit+".timer")
	case Launchd:
		path, err = s.agentPath()
	default:
		return st, nil
	}
	if err != nil {
		return st, err
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	st.File = path
	st.At, st.Set = readTime(string(b))
	if !st.Set {
		return st, fmt.Errorf("%s is there, but lull cannot read its time: remove it with lull remind off", path)
	}
	if st.Timer == Systemd {
		// is-active says "inactive" and fails for a timer that is not
		// running: its words are the answer either way.
		st.Active = s.ask("systemctl", "--user", "is-active", Unit+".timer")
	}
	return st, nil
}

// ask runs a command for what it says, whatever its exit status.
func (s System) ask(name string, args ...string) string {
	err := s.Run(name, args...)
	if err == nil {
		return "active"
	}
	var said *Said
	if errors.As(err, &said) {
		return strings.TrimSpace(said.Output)
	}
	return ""
}

// Said is a command that failed, and what it said.
type Said struct {
	Command string
	Output  string
	Err     error
}

func (e *Said) Error() string {
	out := strings.TrimSpace(e.Output)
	if out == "" {
		return fmt.Sprintf("%s: %v", e.Command, e.Err)
	}
	return fmt.Sprintf("%s: %v: %s", e.Command, e.Err, out)
}

func (e *Said) Unwrap() error { return e.Err }

// readTime finds the time in a timer lull wrote: systemd's OnCalendar or
// launchd's Hour and Minute.
func readTime(text string) (Time, bool) {
	if m := regexp.MustCompile(`(?m)^OnCalendar=\*-\*-\* (\d\d):(\d\d):00$`).FindStringSubmatch(text); m != nil {
		h, _ := strconv.Atoi(m[1])
		min, _ := strconv.Atoi(m[2])
		return Time{h, min}, true
	}
	h := regexp.MustCompile(`<key>Hour</key>\s*<integer>(\d+)</integer>`).FindStringSubmatch(text)
	min := regexp.MustCompile(`<key>Minute</key>\s*<integer>(\d+)</integer>`).FindStringSubmatch(text)
	if h != nil && min != nil {
		hh, _ := strconv.Atoi(h[1])
		mm, _ := strconv.Atoi(min[1])
		return Time{hh, mm}, true
	}
	return Time{}, false
}

// run runs each command in turn, recording it in d; at the first that
// fails, it and the rest go to d.ToDo, and its error is returned.
func (s System) run(d *Done, cmds ...[]string) error {
	for i, c := range cmds {
		if err := s.Run(c[0], c[1:]...); err != nil {
			for _, rest := range cmds[i:] {
				d.ToDo = append(d.ToDo, shellLine(rest))
			}
			return err
		}
		d.Ran = append(d.Ran, shellLine(c))
	}
	return nil
}

// shellLine is a command as a person would type it.
func shellLine(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return strings.Join(quoted, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`&|;<>()*?[]#~!{}") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// writeFile writes a timer's file whole: a temporary file renamed over it,
// readable by the user alone.
func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// exists reports whether something is at path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// remove removes path, and reports whether it was there.
func remove(path string) (bool, error) {
	err := os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
