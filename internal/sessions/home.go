package sessions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Home is the folder lull keeps its data in: $LULL_HOME if set, else
// $XDG_DATA_HOME/lull (the spec ignores a relative XDG_DATA_HOME), else
// ~/.local/share/lull.
func Home() (string, error) {
	if h := os.Getenv("LULL_HOME"); h != "" {
		abs, err := filepath.Abs(h)
		if err != nil {
			return "", fmt.Errorf("LULL_HOME %q: %w", h, err)
		}
		return abs, nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "lull"), nil
	}
	user, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("cannot tell where your home folder is: set LULL_HOME")
	}
	return filepath.Join(user, ".local", "share", "lull"), nil
}
