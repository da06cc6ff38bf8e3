package sessions

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// ErrNotFound is wrapped by every error about a session that is not there.
var ErrNotFound = errors.New("no such session")

func notFound(id string) error {
	return fmt.Errorf("%w %q: see them with: %s", ErrNotFound, id, human.Command("sessions list"))
}

// Store is the sessions folder, <home>/sessions.
type Store struct {
	path string   // absolute, for messages and Dir
	root *os.Root // every file operation goes through it
}

// Open makes the data home and its sessions folder if needed, both
// private, and opens the sessions folder as a root. A home that is there
// already is the user's folder, left as it is, but it must be theirs
// alone: in a folder someone else can write, they could swap or plant
// what lull keeps. The sessions folder is lull's own: never a link.
func Open(home string) (*Store, error) {
	home, err := absHome(home)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(home); errors.Is(err, fs.ErrNotExist) {
		// Only a home lull creates is lull's to make private.
		if err := os.MkdirAll(home, folderMode); err != nil {
			return nil, fmt.Errorf("creating the data folder: %w", err)
		}
		if err := os.Chmod(home, folderMode); err != nil {
			return nil, fmt.Errorf("creating the data folder: %w", err)
		}
	}
	if err := CheckFolder(home); err != nil {
		also := "; or "
		if u := (*UntrustedError)(nil); errors.As(err, &u) && u.Mode&fs.ModeSticky != 0 {
			also = "; " // a shared folder is no one's to chmod
		}
		return nil, fmt.Errorf("data folder %s: %w%sset LULL_HOME to a new folder: lull makes it private", home, err, also)
	}
	path := filepath.Join(home, "sessions")
	if err := os.Mkdir(path, folderMode); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("creating the sessions folder: %w", err)
	}
	info, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("opening the sessions folder: %w", err)
	}
	if !info.IsDir() {
		what := kind(info.Mode())
		if to, err := os.Readlink(path); err == nil {
			what += fmt.Sprintf(" (to %q)", clip([]byte(to), 80))
		}
		return nil, fmt.Errorf("the sessions folder %s is %s, not a folder: lull does not follow or use it; move it away, and lull makes a new sessions folder", path, what)
	}
	if err := trust(info, path); err != nil {
		return nil, fmt.Errorf("the sessions folder: %w", err)
	}
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, fmt.Errorf("opening the sessions folder: %w", err)
	}
	// Made private only when it is not: a read-only data folder can still
	// be listed and read. It must be the folder checked, not one swapped in.
	opened, err := root.Stat(".")
	if err == nil && !os.SameFile(info, opened) {
		err = errors.New("it was replaced while lull opened it")
	}
	if err != nil {
		root.Close()
		return nil, fmt.Errorf("opening the sessions folder %s: %w", path, human.Bare(err))
	}
	if opened.Mode().Perm() != folderMode {
		if err := root.Chmod(".", folderMode); err != nil {
			root.Close()
			return nil, fmt.Errorf("making the sessions folder %s private (chmod 700): %w", path, human.Bare(err))
		}
	}
	return &Store{path: path, root: root}, nil
}

// OpenToRead opens home's sessions folder as Open does, but only to read
// it: it makes nothing and changes nothing — no folder is created, none is
// made private — so it may run beside a playing lull, or from a shell's
// completion, without a trace. A home or sessions folder that is not
// there is an error wrapping fs.ErrNotExist; one that is not the user's
// alone is refused as Open refuses it.
func OpenToRead(home string) (*Store, error) {
	home, err := absHome(home)
	if err != nil {
		return nil, err
	}
	if err := CheckFolder(home); err != nil {
		return nil, fmt.Errorf("data folder %s: %w", home, err)
	}
	path := filepath.Join(home, "sessions")
	info, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("the sessions folder: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("the sessions folder %s is %s, not a folder", path, kind(info.Mode()))
	}
	if err := trust(info, path); err != nil {
		return nil, fmt.Errorf("the sessions folder: %w", err)
	}
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, fmt.Errorf("opening the sessions folder: %w", err)
	}
	if opened, err := root.Stat("."); err != nil || !os.SameFile(info, opened) {
		root.Close()
		return nil, fmt.Errorf("opening the sessions folder %s: it was replaced while lull opened it", path)
	}
	return &Store{path: path, root: root}, nil
}

// absHome is the data folder home names, made absolute, for Open and
// OpenToRead alike.
func absHome(home string) (string, error) {
	if home == "" {
		return "", errors.New("no data folder given")
	}
	home, err := filepath.Abs(home)
	if err != nil {
		return "", fmt.Errorf("data folder %q: %w", home, err)
	}
	return home, nil
}

// Close closes the sessions folder. Open sessions stay usable.
func (s *Store) Close() error { return s.root.Close() }

// Dir is the folder of session id, whether or not it exists.
func (s *Store) Dir(id string) (string, error) {
	if err := CheckID(id); err != nil {
		return "", err
	}
	return filepath.Join(s.path, id), nil
}

// Create makes the folder of a new session, locks it, begins its
// transcript and saves st as its first checkpoint.
func (s *Store) Create(st engine.State) (*Session, error) {
	if err := CheckID(st.ID); err != nil {
		return nil, err
	}
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("creating session %s: %w", st.ID, err)
	}
	if err := s.root.Mkdir(st.ID, folderMode); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("creating session %s: it already exists", st.ID)
		}
		return nil, fmt.Errorf("creating session %s: %w", st.ID, human.Bare(err))
	}
	sess, err := s.create(st)
	if err != nil {
		s.root.RemoveAll(st.ID) // new and incomplete: nothing in it to keep
		return nil, fmt.Errorf("creating session %s: %w", st.ID, err)
	}
	return sess, nil
}

func (s *Store) create(st engine.State) (*Session, error) {
	dir, err := s.root.OpenRoot(st.ID)
	if err != nil {
		return nil, human.Bare(err)
	}
	sess := &Session{id: st.ID, folder: filepath.Join(s.path, st.ID), dir: dir, state: st.Clone()}
	if err := s.setUp(sess); err != nil {
		sess.Close()
		return nil, err
	}
	return sess, nil
}

func (s *Store) setUp(sess *Session) error {
	if err := sess.dir.Chmod(".", folderMode); err != nil {
		return human.Bare(err)
	}
	var err error
	if sess.lock, err = lock(sess.dir, sess.id); err != nil {
		return err
	}
	if sess.transcript, _, err = openTranscript(sess.dir, sess.folder, sess.state); err != nil {
		return fmt.Errorf("opening %s: %w", transcriptName, err)
	}
	if err := sess.save(sess.state); err != nil {
		return err
	}
	if err := syncFolder(s.root); err != nil {
		return fmt.Errorf("syncing the sessions folder: %w", err)
	}
	return nil
}

// Resume locks a saved session and loads it as Load does, from the
// backup or rebuilt from the transcript if need be; Report says so. The
// transcript's torn end, if any, is cut, and Report says that too. The
// session and its transcript are then made to agree (see reconcile): the
// sentences a transcript holds beyond session.yaml are kept as spoken,
// and those it lacks are added to it; Report says so.
// Nothing else the recovery found is written back until the first Save.
func (s *Store) Resume(id string) (*Session, error) {
	dir, err := s.openFolder(id)
	if err != nil {
		return nil, err
	}
	sess := &Session{id: id, folder: filepath.Join(s.path, id), dir: dir}
	if err := s.reopen(sess); err != nil {
		sess.Close()
		return nil, err
	}
	return sess, nil
}

func (s *Store) reopen(sess *Session) error {
	var err error
	if sess.lock, err = lock(sess.dir, sess.id); err != nil {
		return err
	}
	l, err := loadAs(sess.dir, sess.id, sess.folder, true)
	if err != nil {
		return err
	}
	// A folder restored or synced readable by others is made private
	// again, as each file is at its next write.
	if err := sess.dir.Chmod(".", folderMode); err != nil {
		return fmt.Errorf("session %s: making its folder private: %w", sess.id, human.Bare(err))
	}
	sess.state, sess.report, sess.good, sess.goodInPlace = l.state, l.report, l.good, l.primary
	var notes []string
	if sess.transcript, notes, err = openTranscript(sess.dir, sess.folder, sess.state); err != nil {
		return fmt.Errorf("opening the transcript of session %s: %s: %w", sess.id, transcriptName, err)
	}
	sess.report.Notes = append(sess.report.Notes, notes...)
	return sess.reconcile()
}

// Load reads a session without locking it, as far as its files allow:
// session.yaml; else its backup (Report.FromBackup); else a session
// rebuilt from transcript.md (Report.Rebuilt); else an *UnreadableError
// listing what the folder holds. Every load is checked against the folder
// and Report.Notes says what does not agree. A file someone else could
// have written is refused (*UntrustedError, as a cause). Load never
// writes, so it is safe while another lull has the session open.
func (s *Store) Load(id string) (engine.State, Report, error) {
	dir, err := s.openFolder(id)
	if err != nil {
		return engine.State{}, Report{}, err
	}
	defer dir.Close()
	l, err := load(dir, id, filepath.Join(s.path, id))
	return l.state, l.report, err
}

// Delete removes a session's folder and all in it. A session open in
// another lull is refused with a *LockedError.
func (s *Store) Delete(id string) error {
	dir, err := s.openFolder(id)
	if err != nil {
		return err
	}
	defer dir.Close()
	held, err := lock(dir, id)
	if err != nil {
		return err
	}
	err = s.root.RemoveAll(id)
	held.Close()
	if err != nil {
		return fmt.Errorf("deleting session %s: %w", id, human.Bare(err))
	}
	if err := syncFolder(s.root); err != nil {
		return fmt.Errorf("deleting session %s: syncing the sessions folder: %w", id, err)
	}
	return nil
}

// openFolder opens the folder of session id as a root of its own. The id
// is checked first, and a name that is not a real folder is left alone.
func (s *Store) openFolder(id string) (*os.Root, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	info, err := s.root.Lstat(id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, human.Bare(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a session folder (%s): left alone", filepath.Join(s.path, id), kind(info.Mode()))
	}
	dir, err := s.root.OpenRoot(id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, human.Bare(err))
	}
	return dir, nil
}

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	default:
		return "an unusual file (" + m.Type().String() + ")"
	}
}
