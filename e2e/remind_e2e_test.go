//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// remindPlace is a user's home, config and runtime folders in a temporary
// folder, and a PATH whose systemctl and notify-send only write down how
// they were called: no test reaches the real user manager or desktop.
type remindPlace struct {
	home, config, runtime, log string
	env                        []string
}

func newRemindPlace(t *testing.T, userManager bool) remindPlace {
	t.Helper()
	root := t.TempDir()
	p := remindPlace{home: filepath.Join(root, "home"), config: filepath.Join(root, "config"), runtime: filepath.Join(root, "run"),
		log: filepath.Join(root, "calls")}
	bin := filepath.Join(root, "bin")
	for _, d := range []string{p.home, p.config, p.runtime, bin} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if userManager {
		if err := os.MkdirAll(filepath.Join(p.runtime, "systemd"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"systemctl", "notify-send", "launchctl"} {
		fileAt(t, filepath.Join(bin, name), "#!/bin/sh\necho \""+name+" $*\" >> "+p.log+"\n", 0o700)
	}
	p.env = []string{"HOME=" + p.home, "XDG_CONFIG_HOME=" + p.config, "XDG_RUNTIME_DIR=" + p.runtime,
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	return p
}

func (p remindPlace) calls(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(p.log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// Issue 26: lull remind at HH:MM installs a daily systemd user timer —
// its unit files in the config home, enabled through systemctl --user —
// show says what is set, and off disables it and removes both files.
func TestRemindInstallsAndRemovesAUserTimer(t *testing.T) {
	t.Parallel()
	p := newRemindPlace(t, true)
	lullHome := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		out, errOut, err := lullEnv(t, lullHome, p.env, time.Minute, args...)
		if err != nil {
			t.Fatalf("lull %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
		}
		return out
	}
	if out := run("remind", "show"); !strings.Contains(out, "No reminder is set") {
		t.Errorf("remind show before:\n%s", out)
	}

	out := run("remind", "at", "21:30")
	units := filepath.Join(p.config, "systemd", "user")
	service, err := os.ReadFile(filepath.Join(units, "lull-remind.service"))
	if err != nil {
		t.Fatal(err)
	}
	timer, err := os.ReadFile(filepath.Join(units, "lull-remind.timer"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(service), "ExecStart="+lullBin+" remind notify\n") || !strings.Contains(string(timer), "OnCalendar=*-*-* 21:30:00\n") {
		t.Errorf("the units:\n%s\n%s", service, timer)
	}
	if want := "systemctl --user daemon-reload\nsystemctl --user enable lull-remind.timer\nsystemctl --user restart lull-remind.timer\n"; p.calls(t) != want {
		t.Errorf("systemctl was called:\n%s\nwant:\n%s", p.calls(t), want)
	}
	if !strings.Contains(flat(out), "Every day at 21:30") || !strings.Contains(flat(out), "Remove it with: lull remind off") {
		t.Errorf("remind at says:\n%s", out)
	}
	// Nothing of the user's own: the home has no .config.
	if _, err := os.Stat(filepath.Join(p.home, ".config")); err == nil {
		t.Error("remind wrote into HOME/.config, not XDG_CONFIG_HOME")
	}

	if out := run("remind", "show"); !strings.Contains(flat(out), "A reminder is set for 21:30 every day (a systemd user timer") ||
		!strings.Contains(out, filepath.Join(units, "lull-remind.timer")) {
		t.Errorf("remind show:\n%s", out)
	}

	before := len(p.calls(t))
	out = run("remind", "off")
	if got := p.calls(t)[before:]; !strings.Contains(got, "systemctl --user disable --now lull-remind.timer\n") || !strings.HasSuffix(got, "systemctl --user daemon-reload\n") {
		t.Errorf("off called:\n%s", got)
	}
	if entries, _ := os.ReadDir(units); len(entries) != 0 {
		t.Errorf("off left %v", entries)
	}
	if !strings.Contains(out, "The daily reminder is off.") {
		t.Errorf("remind off says:\n%s", out)
	}
	if out := run("remind", "off"); !strings.Contains(out, "No reminder is set") {
		t.Errorf("a second off says:\n%s", out)
	}

	// A time that is not one is refused, naming the form.
	if _, errOut, err := lullEnv(t, lullHome, p.env, time.Minute, "remind", "at", "9pm"); err == nil || !strings.Contains(errOut, "HH:MM") {
		t.Errorf("remind at 9pm: %v\n%s", err, errOut)
	}
}

// Without systemd --user (a container), nothing is written and nothing is
// run: lull prints the crontab line.
func TestRemindWithoutAUserTimerPrintsTheCronLine(t *testing.T) {
	t.Parallel()
	p := newRemindPlace(t, false)
	out, errOut, err := lullEnv(t, t.TempDir(), p.env, time.Minute, "remind", "at", "07:05")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(out, "crontab -e") || !strings.Contains(out, "\n  5 7 * * * "+lullBin+" remind notify\n") {
		t.Errorf("remind at without a timer:\n%s", out)
	}
	if calls := p.calls(t); calls != "" {
		t.Errorf("called:\n%s", calls)
	}
	if entries, _ := os.ReadDir(p.config); len(entries) != 0 {
		t.Errorf("wrote %v", entries)
	}
}

// What the timer runs shows a notification, unless today holds practice.
func TestRemindNotifies(t *testing.T) {
	t.Parallel()
	p := newRemindPlace(t, true)
	lullHome := t.TempDir()
	if _, errOut, err := lullEnv(t, lullHome, p.env, time.Minute, "remind", "notify"); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if calls := p.calls(t); !strings.HasPrefix(calls, "notify-send --app-name=lull lull A few quiet minutes?") {
		t.Errorf("notify called:\n%s", calls)
	}
	if out, errOut, err := lullEnv(t, lullHome, append(p.env, "LULL_TIME_SCALE=1000"), time.Minute, "breathe", "--no-tui", "--minutes", "2", "--voice", "none"); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	before := len(p.calls(t))
	out, _, err := lullEnv(t, lullHome, p.env, time.Minute, "remind", "notify")
	if err != nil || p.calls(t)[before:] != "" || !strings.Contains(out, "Practised today already") {
		t.Errorf("after practice today, notify (%v) said %q and called %q", err, out, p.calls(t)[before:])
	}
}
