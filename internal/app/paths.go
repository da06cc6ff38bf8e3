package app

import (
	"errors"
	"os"
	"path/filepath"
)

// Paths are where lull keeps things besides the sessions themselves.
type Paths struct {
	Data   string // the sessions' home (sessions.Home)
	Config string // config.yaml
	Log    string // lull.log
}

// ResolvePaths follows LULL_HOME, else the XDG base directories. With
// LULL_HOME set, everything lives under it (data, the absolute path
// sessions.Home made of it): one folder to back up, move, or throw away
// after a test.
func ResolvePaths(data string) (Paths, error) {
	if os.Getenv("LULL_HOME") != "" {
		return Paths{Data: data, Config: filepath.Join(data, "config.yaml"), Log: filepath.Join(data, "lull.log")}, nil
	}
	userHome, err := os.UserHomeDir()
	if err != nil && (os.Getenv("XDG_CONFIG_HOME") == "" || os.Getenv("XDG_STATE_HOME") == "") {
		return Paths{}, errors.New("cannot tell where your home folder is: set LULL_HOME")
	}
	config := xdg("XDG_CONFIG_HOME", filepath.Join(userHome, ".config"))
	state := xdg("XDG_STATE_HOME", filepath.Join(userHome, ".local", "state"))
	return Paths{
		Data:   data,
		Config: filepath.Join(config, "lull", "config.yaml"),
		Log:    filepath.Join(state, "lull", "lull.log"),
	}, nil
}

// xdg reads an XDG variable; the spec says relative paths are ignored.
func xdg(name, fallback string) string {
	if v := os.Getenv(name); filepath.IsAbs(v) {
		return v
	}
	return fallback
}
