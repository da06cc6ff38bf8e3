package sessions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/human"

	"github.com/lull-dev/lull/internal/engine"
)

// UnreadableError is the last recovery level: neither session.yaml, nor
// its backup, nor the transcript yields a session. It says what each
// failed with, and Found lists what the folder holds, so that a person can
// be told what is there and asked what to do (see Salvage and Restore).
// Load and Resume return it; match it with errors.As.
type UnreadableError struct {
	ID, Folder string
	Primary    error // why session.yaml could not be read
	Backup     error // why session.yaml.bak could not be read
	Transcript error // why transcript.md could not be rebuilt from
	Found      Salvage
}

func (e *UnreadableError) Error() string {
	var b strings.Builder
	if errors.Is(e.Primary, fs.ErrNotExist) && errors.Is(e.Backup, fs.ErrNotExist) {
		fmt.Fprintf(&b, "session %s has neither %s nor %s in %s", e.ID, primaryName, backupName, e.Folder)
	} else {
		fmt.Fprintf(&b, "session %s cannot be read: %s: %v; %s: %v", e.ID, primaryName, e.Primary, backupName, e.Backup)
	}
	switch {
	case errors.Is(e.Transcript, fs.ErrNotExist):
		b.WriteString("; there is no transcript to rebuild it from")
	case !e.Found.Transcript.Present:
		fmt.Fprintf(&b, "; %s: %v", transcriptName, e.Transcript)
	default:
		fmt.Fprintf(&b, "; %s: the session cannot be rebuilt from it: %v. What was spoken is in %s", transcriptName, e.Transcript, e.Found.Transcript.Path)
	}
	return b.String()
}

// Explain is the error for people, over several lines: what was found in
// the folder, what the transcript shows, and what they can do.
func (e *UnreadableError) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s cannot be read, and lull could not rebuild it.\n", e.ID)
	fmt.Fprintf(&b, "In %s:\n", e.Folder)
	width := 0
	for _, f := range e.Found.Files {
		width = max(width, len(f.Name))
	}
	if len(e.Found.Files) == 0 {
		b.WriteString("  nothing\n")
	}
	for _, f := range e.Found.Files {
		problem := f.Problem
		if problem == "" {
			problem = "fine"
		}
		fmt.Fprintf(&b, "  %-*s  %9s  %s\n", width, f.Name, size(f.Size), problem)
	}
	tr := e.Found.Transcript
	if tr.Present {
		if shows := tr.Shows(); shows != "" {
			fmt.Fprintf(&b, "The transcript shows %s.\n", shows)
		}
	}
	b.WriteString("What you can do:\n")
	if tr.Present {
		fmt.Fprintf(&b, "  read what was spoken: %s\n", tr.Path)
	}
	if untrusted := e.untrusted(); untrusted != nil {
		fmt.Fprintf(&b, "  if the files are yours, fix their permissions and try again (%v)\n", untrusted)
	}
	fmt.Fprintf(&b, "  remove the session: %s\n", human.Command("sessions delete "+e.ID))
	return b.String()
}

// untrusted is the first refusal for permissions among the causes.
func (e *UnreadableError) untrusted() error {
	var u *UntrustedError
	for _, err := range []error{e.Primary, e.Backup, e.Transcript} {
		if errors.As(err, &u) {
			return u
		}
	}
	return nil
}

// Salvage is what a session's folder holds, read without trusting any of
// it and without writing: every file with what is wrong with it, and what
// the transcript shows was spoken. It is for a person deciding what to do
// with a session that cannot be loaded (an *UnreadableError carries one):
// show Files, offer the phases in Transcript.Phases as places to begin
// again, and pass the choice to Restore.
type Salvage struct {
	ID, Folder string
	Files      []Found // every name in the folder, sorted
	Transcript TranscriptFound
}

// Found is one name in a session folder.
type Found struct {
	Name    string
	Size    int64
	Mode    fs.FileMode // type and permissions, as Lstat sees them
	Problem string      // what is wrong with it, for people; "" when nothing is
}

// TranscriptFound is what transcript.md holds, as far as it can be read.
type TranscriptFound struct {
	Path    string // transcript.md's path, whether or not it is there
	Present bool   // there is a transcript.md that could be read
	Problem string // why it could not be read, when it is there but was not
	Records int    // good records, the opening included
	Damaged int    // records whose check fails
	Torn    int64  // bytes after the last good record
	Legacy  bool   // written before records were checked: its lines are unchecked
	// Rebuildable says Load rebuilds the session from it: its opening
	// record is good and names this session. (Then Load does not fail.)
	Rebuildable bool
	// From the opening record, or else from the title of an older
	// transcript; zero when neither says.
	Created   time.Time
	Length    time.Duration
	Intention string
	// From the opening record alone: a sleep session and its tail.
	Sleep     bool
	SleepTail time.Duration
	Phases    []PhaseFound // the phases with lines in the transcript, in order
	LastAt    time.Time    // the time of the last good record; zero when none
}

// PhaseFound is what a transcript shows of one phase.
type PhaseFound struct {
	Phase     engine.Phase
	Sentences int // the guide's lines whose records check
	Unchecked int // the guide's lines without a good check
}

// Shows is "9 sentences of atmosphere, 4 of breathing (2 unchecked)".
func (t TranscriptFound) Shows() string {
	var parts []string
	for i, p := range t.Phases {
		s := fmt.Sprintf("%d of %s", p.Sentences+p.Unchecked, p.Phase)
		if i == 0 {
			s = fmt.Sprintf("%d %s of %s", p.Sentences+p.Unchecked, plural(p.Sentences+p.Unchecked, "sentence"), p.Phase)
		}
		if p.Unchecked > 0 {
			s += fmt.Sprintf(" (%d unchecked)", p.Unchecked)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// Salvage lists what session id's folder holds, whether or not the
// session loads. It reads without trusting and writes nothing, so it is
// safe while another lull has the session open.
func (s *Store) Salvage(id string) (Salvage, error) {
	dir, err := s.openFolder(id)
	if err != nil {
		return Salvage{}, err
	}
	defer dir.Close()
	return salvage(dir, id, filepath.Join(s.path, id)), nil
}

// maxFound bounds the names listed from a folder someone filled.
const maxFound = 100

func salvage(dir *os.Root, id, folder string) Salvage {
	sv := Salvage{ID: id, Folder: folder}
	sv.Transcript = transcriptFound(dir, id, folder)
	f, err := dir.Open(".")
	if err != nil {
		return sv
	}
	entries, _ := f.ReadDir(maxFound)
	f.Close()
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, e := range entries {
		found := Found{Name: e.Name()}
		if info, err := e.Info(); err == nil {
			found.Size, found.Mode = info.Size(), info.Mode()
		}
		found.Problem = problemOf(dir, id, folder, e.Name(), sv.Transcript)
		sv.Files = append(sv.Files, found)
	}
	return sv
}

// problemOf says what is wrong with one name in a session folder.
func problemOf(dir *os.Root, id, folder, name string, tr TranscriptFound) string {
	switch name {
	case primaryName, backupName:
		if _, _, err := readState(dir, name, id, folder); err != nil {
			return err.Error()
		}
		return ""
	case transcriptName:
		if tr.Problem != "" {
			return tr.Problem
		}
		return tr.summary()
	case lockName:
		return ""
	case tempName:
		return "left by a save that did not finish; lull does not read it"
	default:
		return "not a file lull writes; left alone"
	}
}

// summary is the transcript's line in a listing of the folder.
func (t TranscriptFound) summary() string {
	var parts []string
	switch {
	case t.Legacy:
		parts = append(parts, "written by an older lull, without checks")
	default:
		parts = append(parts, fmt.Sprintf("%d good %s", t.Records, plural(t.Records, "record")))
	}
	if t.Damaged > 0 {
		parts = append(parts, fmt.Sprintf("%d damaged", t.Damaged))
	}
	if t.Torn > 0 && t.Records > 0 {
		parts = append(parts, fmt.Sprintf("%d bytes torn at the end", t.Torn))
	}
	switch {
	case t.Rebuildable:
		parts = append(parts, "the session can be rebuilt from it")
	case !t.Legacy:
		parts = append(parts, "its opening is damaged or missing, so the session cannot be rebuilt from it")
	}
	return strings.Join(parts, ", ")
}

func transcriptFound(dir *os.Root, id, folder string) TranscriptFound {
	t := TranscriptFound{Path: filepath.Join(folder, transcriptName)}
	tr, err := readScan(dir, folder)
	if errors.Is(err, fs.ErrNotExist) {
		return t
	}
	if err != nil {
		t.Problem = err.Error()
		return t
	}
	t.Present = true
	t.Records, t.Damaged, t.Legacy = len(tr.records), tr.damaged, !tr.marked()
	if len(tr.records) > 0 {
		t.Torn = tr.tail()
	}
	if open, ok := tr.opening(); ok {
		t.Created, t.Length, t.Intention = open.Created, open.Length, open.Intention
		t.Sleep, t.SleepTail = open.Sleep, open.SleepTail
		t.Rebuildable = open.ID == id
	} else {
		t.Created, t.Length, t.Intention = tr.legacy.Created, tr.legacy.Length, tr.legacy.Intention
	}
	checked, unchecked := tr.sentences()
	for _, p := range engine.Phases {
		if checked[p]+unchecked[p] > 0 {
			t.Phases = append(t.Phases, PhaseFound{Phase: p, Sentences: checked[p], Unchecked: unchecked[p]})
		}
	}
	for _, r := range tr.records {
		if r.kind != kindSession && r.entry.At.After(t.LastAt) {
			t.LastAt = r.entry.At
		}
	}
	return t
}

// size is n bytes for people: "812 B", "4.1 KiB", "5.0 MiB".
func size(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}
