package sessions

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHome(t *testing.T) {
	cwd, _ := os.Getwd()
	user, _ := os.UserHomeDir()
	cases := []struct{ lull, xdg, want string }{
		{"/srv/lull", "/data", "/srv/lull"},
		{"rel/lull", "", filepath.Join(cwd, "rel/lull")},
		{"", "/data", "/data/lull"},
		{"", "relative/data", filepath.Join(user, ".local/share/lull")},
		{"", "", filepath.Join(user, ".local/share/lull")},
	}
	for _, c := range cases {
		t.Setenv("LULL_HOME", c.lull)
		t.Setenv("XDG_DATA_HOME", c.xdg)
		if got, err := Home(); err != nil || got != c.want {
			t.Errorf("LULL_HOME=%q XDG_DATA_HOME=%q: %q, %v; want %q", c.lull, c.xdg, got, err, c.want)
		}
	}
}
