package sessions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"lull/engine"
)

// Report is what loading found that the listener should be told.
type Report struct {
	Notes      []string // one sentence each: the CLI prints "lull: note: ...", the TUI shows them
	FromBackup bool     // session.yaml was unreadable; session.yaml.bak was loaded
}

// loaded is a session read from its folder.
type loaded struct {
	state  engine.State
	report Report
	good   []byte // the bytes that loaded: the next save's backup
}

// load reads a session folder, falling back to the backup when the
// primary is missing or fails any check. It never writes.
func load(dir *os.Root, id, folder string) (loaded, error) {
	st, b, perr := readState(dir, primaryName, id)
	if perr == nil {
		return loaded{state: st, good: b}, nil
	}
	st, b, berr := readState(dir, backupName, id)
	if berr == nil {
		note := fmt.Sprintf("%s could not be read (%v); loaded the backup instead — the last update may be lost.",
			primaryName, perr)
		return loaded{state: st, good: b, report: Report{Notes: []string{note}, FromBackup: true}}, nil
	}
	if errors.Is(perr, fs.ErrNotExist) && errors.Is(berr, fs.ErrNotExist) {
		return loaded{}, fmt.Errorf("session %s has neither %s nor %s in %s", id, primaryName, backupName, folder)
	}
	return loaded{}, fmt.Errorf("session %s cannot be read: %s: %w; %s: %w. What was spoken is in %s",
		id, primaryName, perr, backupName, berr, filepath.Join(folder, transcriptName))
}

func readState(dir *os.Root, name, id string) (engine.State, []byte, error) {
	b, err := readFile(dir, name)
	if errors.Is(err, fs.ErrNotExist) {
		return engine.State{}, nil, missing{err}
	}
	if err != nil {
		return engine.State{}, nil, err
	}
	st, err := decode(b, id)
	return st, b, err
}

// missing says so in the listener's words and still wraps fs.ErrNotExist.
type missing struct{ err error }

func (m missing) Error() string { return "it is missing" }
func (m missing) Unwrap() error { return m.err }
