package cli

import (
	"strings"
	"testing"
)

// With no sound device, doctor says how to get sound for where lull runs.
func TestSoundAdviceFitsWhereLullRuns(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	none := func(string) bool { return false }
	docker := func(p string) bool { return p == "/.dockerenv" }
	for _, c := range []struct {
		name    string
		goos    string
		getenv  func(string) string
		exists  func(string) bool
		want    []string
		wantNot []string
	}{
		{"a desktop", "linux", env(), none, []string{"PipeWire", "pulseaudio --start", "pactl info"}, []string{"SSH", "container"}},
		{"over SSH", "linux", env("SSH_CONNECTION", "10.0.0.1 5 10.0.0.2 22"), none, []string{"over SSH", "render --length 10 --out calm.wav", "scp", "PipeWire"}, []string{"container"}},
		{"in docker", "linux", env(), docker, []string{"container", "PULSE_SERVER=unix:", "play the file on the host", "PipeWire"}, []string{"SSH"}},
		{"in podman", "linux", env("container", "podman"), none, []string{"container"}, nil},
		{"a Mac", "darwin", env("SSH_TTY", "/dev/ttys001"), none, []string{"System Settings", "render"}, []string{"PipeWire"}},
	} {
		got := strings.Join(soundAdvice(c.goos, c.getenv, c.exists), "\n")
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the advice does not say %q:\n%s", c.name, w, got)
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(got, w) {
				t.Errorf("%s: the advice says %q:\n%s", c.name, w, got)
			}
		}
	}
}
