package remind

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// serviceUnit is the systemd service the timer starts: lull remind notify.
func (s System) serviceUnit() string {
	return "[Unit]\n" +
		"Description=lull: a reminder to take a few quiet minutes\n\n" +
		"[Service]\n" +
		"Type=oneshot\n" +
		"ExecStart=" + systemdQuote(s.Program) + " remind notify\n"
}

// timerUnit is the systemd timer that starts it every day at t. A day
// missed (the machine asleep) is not made up: a reminder hours late is
// no reminder.
func timerUnit(t Time) string {
	return "[Unit]\n" +
		"Description=lull: a daily reminder at " + t.String() + "\n\n" +
		"[Timer]\n" +
		"OnCalendar=*-*-* " + t.String() + ":00\n" +
		"Persistent=false\n\n" +
		"[Install]\n" +
		"WantedBy=timers.target\n"
}

// systemdQuote quotes a path for ExecStart when it holds a space or a
// quote; systemd reads C-style escapes within double quotes.
func systemdQuote(path string) string {
	if !strings.ContainsAny(path, " \t\"'\\") {
		return path
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(path) + `"`
}

func (s System) setSystemd(t Time) (Done, error) {
	d := Done{Timer: Systemd}
	dir, err := s.unitDir()
	if err != nil {
		return d, err
	}
	service, timer := filepath.Join(dir, Unit+".service"), filepath.Join(dir, Unit+".timer")
	for _, f := range []struct{ path, text string }{{service, s.serviceUnit()}, {timer, timerUnit(t)}} {
		if err := writeFile(f.path, f.text); err != nil {
			return d, fmt.Errorf("writing %s: %w", f.path, err)
		}
		d.Files = append(d.Files, f.path)
	}
	// restart, not start: a timer already running takes its new time.
	err = s.run(&d,
		[]string{"systemctl", "--user", "daemon-reload"},
		[]string{"systemctl", "--user", "enable", Unit + ".timer"},
		[]string{"systemctl", "--user", "restart", Unit + ".timer"})
	return d, err
}

func (s System) offSystemd() (Done, error) {
	d := Done{Timer: Systemd}
	dir, err := s.unitDir()
	if err != nil {
		return d, err
	}
	timer, service := filepath.Join(dir, Unit+".timer"), filepath.Join(dir, Unit+".service")
	if !exists(timer) && !exists(service) {
		d.Nothing = true
		return d, nil
	}
	var errs []error
	// Stopped and disabled first, while systemd still knows the unit.
	if err := s.run(&d, []string{"systemctl", "--user", "disable", "--now", Unit + ".timer"}); err != nil {
		errs = append(errs, err)
	}
	for _, p := range []string{timer, service} {
		was, err := remove(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("removing %s: %w", p, err))
		}
		if was {
			d.Files = append(d.Files, p)
		}
	}
	if err := s.run(&d, []string{"systemctl", "--user", "daemon-reload"}); err != nil {
		errs = append(errs, err)
	}
	return d, errors.Join(errs...)
}

// agent is the launchd agent that runs lull remind notify every day at t.
func (s System) agent(t Time) string {
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + Label + `</string>
	<key>ProgramArguments</key>
	<array>
		<string>` + esc.Replace(s.Program) + `</string>
		<string>remind</string>
		<string>notify</string>
	</array>
	<key>StartCalendarInterval</key>
	<dict>
		<key>Hour</key>
		<integer>` + fmt.Sprint(t.Hour) + `</integer>
		<key>Minute</key>
		<integer>` + fmt.Sprint(t.Minute) + `</integer>
	</dict>
</dict>
</plist>
`
}

func (s System) domain() string { return fmt.Sprintf("gui/%d", s.UID) }

func (s System) setLaunchd(t Time) (Done, error) {
	d := Done{Timer: Launchd}
	path, err := s.agentPath()
	if err != nil {
		return d, err
	}
	// An agent set before is let go of first, so the new time is read.
	_ = s.Run("launchctl", "bootout", s.domain()+"/"+Label)
	if err := writeFile(path, s.agent(t)); err != nil {
		return d, fmt.Errorf("writing %s: %w", path, err)
	}
	d.Files = append(d.Files, path)
	return d, s.run(&d, []string{"launchctl", "bootstrap", s.domain(), path})
}

func (s System) offLaunchd() (Done, error) {
	d := Done{Timer: Launchd}
	path, err := s.agentPath()
	if err != nil {
		return d, err
	}
	if !exists(path) {
		d.Nothing = true
		return d, nil
	}
	var errs []error
	if err := s.run(&d, []string{"launchctl", "bootout", s.domain() + "/" + Label}); err != nil {
		errs = append(errs, err)
	}
	if was, err := remove(path); err != nil {
		errs = append(errs, fmt.Errorf("removing %s: %w", path, err))
	} else if was {
		d.Files = append(d.Files, path)
	}
	return d, errors.Join(errs...)
}

// cronLine is, with no user timer, what to give the system's scheduler:
// a crontab line, or on Windows the task scheduler's command.
func (s System) cronLine(t Time) string {
	if s.GOOS == "windows" {
		return fmt.Sprintf(`schtasks /Create /SC DAILY /TN lull-remind /ST %s /TR "\"%s\" remind notify"`, t, s.Program)
	}
	return fmt.Sprintf("%d %d * * * %s remind notify", t.Minute, t.Hour, shellQuote(s.Program))
}
