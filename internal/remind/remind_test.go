package remind

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fake is a system in temporary folders whose commands are recorded,
// never run: no test reaches the user's own timers.
type fake struct {
	env  map[string]string
	path []string // the commands found on PATH
	ran  []string
	fail string // a command line that fails
}

func (f *fake) system(goos string) System {
	return System{
		GOOS:   goos,
		Getenv: func(k string) string { return f.env[k] },
		LookPath: func(name string) (string, error) {
			if slices.Contains(f.path, name) {
				return "/usr/bin/" + name, nil
			}
			return "", errors.New("not found")
		},
		Run: func(name string, args ...string) error {
			line := strings.Join(append([]string{name}, args...), " ")
			f.ran = append(f.ran, line)
			if line == f.fail {
				return &Said{Command: line, Output: "Failed to connect to bus", Err: errors.New("exit status 1")}
			}
			if strings.Contains(line, "is-active") {
				return nil
			}
			return nil
		},
		Program: "/opt/my tools/lull",
		UID:     501,
	}
}

func newFake(t *testing.T, manager bool) *fake {
	t.Helper()
	root := t.TempDir()
	f := &fake{env: map[string]string{"HOME": filepath.Join(root, "home"), "XDG_CONFIG_HOME": filepath.Join(root, "config"),
		"XDG_RUNTIME_DIR": filepath.Join(root, "run")}, path: []string{"systemctl"}}
	if manager {
		if err := os.MkdirAll(filepath.Join(root, "run", "systemd"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Time{"21:30": {21, 30}, "7:05": {7, 5}, "07:05": {7, 5}, "00:00": {0, 0}, " 23:59 ": {23, 59}} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"24:00", "9pm", "21:60", "2130", "21:3", "", "-1:00", "21:30:00"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), "HH:MM") {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}

// With a user manager, at writes a service and a timer under
// XDG_CONFIG_HOME and enables the timer; show reads it; off disables it
// and removes both.
func TestSystemdTimer(t *testing.T) {
	f := newFake(t, true)
	s := f.system("linux")
	if s.Timer() != Systemd {
		t.Fatalf("timer %v", s.Timer())
	}
	d, err := s.Set(Time{21, 30})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(f.env["XDG_CONFIG_HOME"], "systemd", "user")
	service, _ := os.ReadFile(filepath.Join(dir, "lull-remind.service"))
	timer, _ := os.ReadFile(filepath.Join(dir, "lull-remind.timer"))
	if !strings.Contains(string(service), `ExecStart="/opt/my tools/lull" remind notify`) || !strings.Contains(string(timer), "OnCalendar=*-*-* 21:30:00\n") ||
		!strings.Contains(string(timer), "WantedBy=timers.target") {
		t.Errorf("the units:\n%s\n%s", service, timer)
	}
	if want := []string{"systemctl --user daemon-reload", "systemctl --user enable lull-remind.timer", "systemctl --user restart lull-remind.timer"}; !slices.Equal(f.ran, want) || !slices.Equal(d.Ran, want) {
		t.Errorf("ran %q (said %q)", f.ran, d.Ran)
	}
	st, err := s.Show()
	if err != nil || !st.Set || st.At != (Time{21, 30}) || st.Active != "active" {
		t.Errorf("show: %+v, %v", st, err)
	}
	// Set again: the time is replaced.
	if _, err := s.Set(Time{7, 0}); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Show(); st.At != (Time{7, 0}) {
		t.Errorf("after a second at, show says %v", st.At)
	}
	f.ran = nil
	d, err = s.Off()
	if err != nil || len(d.Files) != 2 {
		t.Fatalf("off: %+v, %v", d, err)
	}
	if want := []string{"systemctl --user disable --now lull-remind.timer", "systemctl --user daemon-reload"}; !slices.Equal(f.ran, want) {
		t.Errorf("off ran %q", f.ran)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if st, _ := s.Show(); st.Set {
		t.Errorf("after off, show: %+v", st)
	}
	if d, err := s.Off(); err != nil || !d.Nothing {
		t.Errorf("off again: %+v, %v", d, err)
	}
}

// A systemctl that fails leaves the files, and says what is left to run.
func TestSystemdFailureSaysWhatToRun(t *testing.T) {
	f := newFake(t, true)
	f.fail = "systemctl --user enable lull-remind.timer"
	d, err := f.system("linux").Set(Time{22, 0})
	if err == nil || !strings.Contains(err.Error(), "Failed to connect to bus") {
		t.Fatalf("err %v", err)
	}
	if want := []string{"systemctl --user enable lull-remind.timer", "systemctl --user restart lull-remind.timer"}; !slices.Equal(d.ToDo, want) || len(d.Files) != 2 {
		t.Errorf("done %+v", d)
	}
}

// Without a user manager (a container, no systemd), nothing is written or
// run: the cron line is given.
func TestNoTimerGivesTheCronLine(t *testing.T) {
	f := newFake(t, false)
	s := f.system("linux")
	d, err := s.Set(Time{6, 5})
	if err != nil || d.Timer != None || d.CronLine != "5 6 * * * '/opt/my tools/lull' remind notify" || len(f.ran) != 0 {
		t.Errorf("done %+v, %v, ran %q", d, err, f.ran)
	}
	if entries, _ := os.ReadDir(f.env["XDG_CONFIG_HOME"]); len(entries) != 0 {
		t.Errorf("wrote %v", entries)
	}
	if d, _ := f.system("windows").Set(Time{6, 5}); !strings.HasPrefix(d.CronLine, "schtasks /Create /SC DAILY /TN lull-remind /ST 06:05") {
		t.Errorf("windows: %q", d.CronLine)
	}
}

// On macOS a launchd agent in ~/Library/LaunchAgents, bootstrapped into
// the user's GUI domain.
func TestLaunchdAgent(t *testing.T) {
	f := newFake(t, false)
	f.path = []string{"launchctl"}
	s := f.system("darwin")
	if s.Timer() != Launchd {
		t.Fatalf("timer %v", s.Timer())
	}
	d, err := s.Set(Time{21, 5})
	if err != nil {
		t.Fatal(err)
	}
	plist := filepath.Join(f.env["HOME"], "Library", "LaunchAgents", "dev.lull.remind.plist")
	b, _ := os.ReadFile(plist)
	for _, want := range []string{"<string>/opt/my tools/lull</string>", "<key>Hour</key>\n\t\t<integer>21</integer>", "<key>Minute</key>\n\t\t<integer>5</integer>"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the agent lacks %q:\n%s", want, b)
		}
	}
	if want := []string{"launchctl bootout gui/501/dev.lull.remind", "launchctl bootstrap gui/501 " + plist}; !slices.Equal(f.ran, want) || len(d.Files) != 1 {
		t.Errorf("ran %q", f.ran)
	}
	if st, _ := s.Show(); !st.Set || st.At != (Time{21, 5}) {
		t.Errorf("show %+v", st)
	}
	if d, err := s.Off(); err != nil || len(d.Files) != 1 {
		t.Errorf("off %+v, %v", d, err)
	}
	if _, err := os.Stat(plist); err == nil {
		t.Error("the agent is still there")
	}
}
