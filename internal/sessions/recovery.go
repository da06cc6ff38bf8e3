package sessions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// Report is what loading found that the listener should be told.
type Report struct {
	Notes      []string // one sentence each: the CLI prints "lull: note: ...", the TUI shows them
	FromBackup bool     // session.yaml was unreadable; session.yaml.bak was loaded
	Rebuilt    bool     // both were unreadable; the session was rebuilt from transcript.md
}

// loaded is a session read from its folder.
type loaded struct {
	state  engine.State
	report Report
	good   []byte // the bytes that loaded: the next save's backup; nil when rebuilt
	// good is session.yaml's, not the backup's: the next save can make
	// it the backup by a link.
	primary bool
}

// load reads a session folder as far as the data allows, and never
// writes:
//
//  1. session.yaml, if it passes every check;
//  2. else session.yaml.bak, and the report says the last update may be lost;
//  3. else a session rebuilt from transcript.md's good records, and the
//     report says so;
//  4. else an *UnreadableError that lists what is there.
//
// Whatever loads is then checked against the folder (the transcript is
// there and agrees) and the report says what does not; nothing is fixed.
func load(dir *os.Root, id, folder string) (loaded, error) {
	return loadAs(dir, id, folder, false)
}

// loadAs is load; resuming says the transcript is about to be opened for
// appending, which cuts a torn end itself and says so.
func loadAs(dir *os.Root, id, folder string, resuming bool) (loaded, error) {
	if err := checkFolder(dir, folder); err != nil {
		return loaded{}, fmt.Errorf("session %s: its folder: %w", id, err)
	}
	tr, terr := readScan(dir, folder)
	st, b, perr := readState(dir, primaryName, id, folder)
	if perr == nil {
		return loaded{state: st, good: b, primary: true, report: Report{Notes: checks(st, tr, terr, resuming)}}, nil
	}
	if v := newerOf(perr); v > 0 {
		return loaded{}, &NewerError{ID: id, Version: v} // never the backup or a rebuild over it
	}
	st, b, berr := readState(dir, backupName, id, folder)
	if v := newerOf(berr); v > 0 {
		return loaded{}, &NewerError{ID: id, Version: v}
	}
	if berr == nil {
		note := fmt.Sprintf("%s could not be read (%v); loaded the backup instead — the last update may be lost.",
			primaryName, perr)
		notes := append([]string{note}, checks(st, tr, terr, resuming)...)
		return loaded{state: st, good: b, report: Report{Notes: notes, FromBackup: true}}, nil
	}
	rerr := terr
	if terr == nil {
		st, rerr = rebuildSafely(tr, id)
		if rerr == nil {
			notes := append([]string{rebuiltNote(perr, berr, st)}, transcriptNotes(tr, resuming)...)
			return loaded{state: st, report: Report{Notes: notes, Rebuilt: true}}, nil
		}
	}
	return loaded{}, &UnreadableError{
		ID: id, Folder: folder, Primary: perr, Backup: berr, Transcript: rerr,
		Found: salvage(dir, id, folder),
	}
}

// rebuildSafely is rebuild, its result checked, and a panic an error.
func rebuildSafely(tr *scan, id string) (st engine.State, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = panicked(p)
		}
	}()
	if st, err = rebuild(tr, id); err != nil {
		return st, err
	}
	if err := st.Validate(); err != nil {
		return st, fmt.Errorf("what it holds does not hold together: %w", err)
	}
	return st, nil
}

func readState(dir *os.Root, name, id, folder string) (engine.State, []byte, error) {
	b, err := readTrusted(dir, name, folder, nil)
	if errors.Is(err, fs.ErrNotExist) {
		return engine.State{}, nil, missing{err}
	}
	if err != nil {
		return engine.State{}, nil, err
	}
	st, err := decode(b, id)
	return st, b, err
}

// readScan reads and scans transcript.md; a large one only at its end.
func readScan(dir *os.Root, folder string) (sc *scan, err error) {
	f, info, err := openTrusted(dir, transcriptName, folder)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, missing{err}
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, from, err := readEnd(f, info.Size())
	if err != nil {
		return nil, human.Bare(err)
	}
	defer func() {
		if p := recover(); p != nil {
			sc, err = nil, panicked(p)
		}
	}()
	return scanTranscript(data, from, info.Size()), nil
}

// missing says so in the listener's words and still wraps fs.ErrNotExist.
type missing struct{ err error }

func (m missing) Error() string { return "it is missing" }
func (m missing) Unwrap() error { return m.err }

// checks are the rules a loaded session is held to beyond its own
// (State.Validate runs in decode): the files it refers to are there and
// agree with it. Each failure is a note saying what was found.
func checks(st engine.State, tr *scan, terr error, resuming bool) []string {
	var notes []string
	spoken := st.Spoken()
	switch {
	case errors.Is(terr, fs.ErrNotExist):
		if spoken > 0 {
			notes = append(notes, fmt.Sprintf("%s is missing: the %d %s spoken so far are kept in %s, but not for reading; resuming begins a new transcript.",
				transcriptName, spoken, plural(spoken, "sentence"), primaryName))
		}
	case terr != nil:
		notes = append(notes, fmt.Sprintf("%s cannot be read (%v).", transcriptName, terr))
	default:
		notes = append(notes, transcriptNotes(tr, resuming)...)
		checked, _ := tr.sentences()
		inTranscript := 0
		for _, n := range checked {
			inTranscript += n
		}
		if open, ok := tr.opening(); ok && open.ID != st.ID {
			notes = append(notes, fmt.Sprintf("%s begins with the opening of session %s, not of this one.", transcriptName, open.ID))
		} else if tr.whole() && inTranscript < spoken {
			notes = append(notes, fmt.Sprintf("%s holds %d of the %d sentences %s says were spoken.",
				transcriptName, inTranscript, spoken, primaryName))
		} else if tr.size == 0 && spoken > 0 {
			notes = append(notes, fmt.Sprintf("%s is empty, though %d %s were spoken; resuming begins it again.",
				transcriptName, spoken, plural(spoken, "sentence")))
		}
	}
	if n := historyNote(st); n != "" {
		notes = append(notes, n)
	}
	return notes
}

// historyNote compares the sentences each phase says it spoke with those
// the history holds: the engine adds both together.
func historyNote(st engine.State) string {
	var inHistory [len(engine.Phases)]int
	for _, e := range st.History {
		if e.Role == engine.RoleGuide && e.Phase.Valid() {
			inHistory[e.Phase]++
		}
	}
	var off []string
	for i, r := range st.Phases {
		if inHistory[i] != r.Spoken {
			off = append(off, fmt.Sprintf("%s %d in the history, %d in the phase", r.Phase, inHistory[i], r.Spoken))
		}
	}
	if len(off) == 0 {
		return ""
	}
	return fmt.Sprintf("%s's history and its phases disagree on the sentences spoken: %s.", primaryName, strings.Join(off, "; "))
}

// transcriptNotes say what is wrong with a transcript that was read.
func transcriptNotes(tr *scan, resuming bool) []string {
	var notes []string
	if tr.from > 0 {
		notes = append(notes, fmt.Sprintf("%s is larger than %d MiB; only its end was checked.", transcriptName, maxFileSize>>20))
	}
	if tr.damaged > 0 {
		notes = append(notes, fmt.Sprintf("%s has %d damaged %s (%s), kept as is and left out of any rebuild.",
			transcriptName, tr.damaged, plural(tr.damaged, "record"), tr.damage))
	}
	if tr.disorder > 0 {
		notes = append(notes, fmt.Sprintf("%s has %d %s out of order.", transcriptName, tr.disorder, plural(tr.disorder, "record")))
	}
	if n := tr.tail(); len(tr.records) > 0 && n > 0 && !resuming {
		if n <= maxTorn {
			notes = append(notes, fmt.Sprintf("%s ends in a torn record (%d bytes); it is cut off when the session is resumed.", transcriptName, n))
		} else {
			notes = append(notes, fmt.Sprintf("%s has %d bytes after its last good record, too many to be one torn record; they are left as they are.",
				transcriptName, n))
		}
	}
	return notes
}
