package sessions

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/lull-dev/lull/internal/engine"
)

// Session is a session open in this process: locked against other lulls,
// its transcript open for appending. It is the engine's Store.
type Session struct {
	id     string
	folder string   // absolute path, for people
	dir    *os.Root // the session folder
	disk   fsys     // nil: saves go through dir; a test puts a power cut or a fault here
	state  engine.State
	report Report

	mu          sync.Mutex
	lock        *os.File
	transcript  *transcript
	good        []byte // the last primary known to be good: the next backup
	goodInPlace bool   // session.yaml on disk is good, so the backup can be a link to it
	enc         encoder
	closed      bool
}

var _ engine.Store = (*Session)(nil)

// State is the session as it was created or loaded.
func (s *Session) State() engine.State { return s.state.Clone() }

// Report is what loading found that the listener should be told.
func (s *Session) Report() Report { return s.report }

// Dir is the session's folder.
func (s *Session) Dir() string { return s.folder }

// Save writes st atomically: session.yaml is replaced whole, the previous
// good version kept as session.yaml.bak.
func (s *Session) Save(st engine.State) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.save(st); err != nil {
		return fmt.Errorf("saving session %s: %w", s.id, err)
	}
	return nil
}

func (s *Session) save(st engine.State) error {
	if s.closed {
		return errors.New("it is closed")
	}
	if st.ID != s.id {
		return fmt.Errorf("the state is session %q", st.ID)
	}
	// A state that would not load must not replace one that does.
	if err := st.Validate(); err != nil {
		return fmt.Errorf("the state does not hold together: %w", err)
	}
	b, err := s.enc.encode(st)
	if err != nil {
		return err
	}
	// Until this save returns, what session.yaml holds is not known.
	inPlace := s.goodInPlace
	s.goodInPlace = false
	if err := replace(s.files(), b, s.good, inPlace); err != nil {
		return err
	}
	s.good, s.goodInPlace = b, true
	return nil
}

func (s *Session) files() fsys {
	if s.disk != nil {
		return s.disk
	}
	return rootFS{s.dir}
}

// Transcribe appends one entry to transcript.md and fsyncs it.
func (s *Session) Transcribe(e engine.Entry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("writing the transcript of session %s: it is closed", s.id)
	}
	if err := s.transcript.add(e); err != nil {
		return fmt.Errorf("writing the transcript of session %s: %w", s.id, err)
	}
	return nil
}

// Close closes the transcript and releases the lock, leaving the lock
// file in place. Closing twice is harmless.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	var errs []error
	if s.transcript != nil {
		errs = append(errs, s.transcript.close())
	}
	if s.lock != nil {
		errs = append(errs, s.lock.Close()) // closing the file releases the flock
	}
	errs = append(errs, s.dir.Close())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("closing session %s: %w", s.id, err)
	}
	return nil
}
