package sessions

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"lull/engine"
)

// Info is one line of the sessions list.
type Info struct {
	ID, Intention string
	Status        engine.Status
	Phase         engine.Phase
	Progress      float64 // 0–1; 1 when completed
	Length        time.Duration
	Created       time.Time
	LastActive    time.Time
}

// maxHeader bounds the prefix List reads; the header is far smaller.
const maxHeader = 64 << 10

// List describes every session, resumable first, then the most recently
// active. A session that cannot be read becomes one problem and never
// hides the others.
//
// Only the header at the top of each session.yaml is decoded: the history
// is most of the file, and decoding it for thousands of sessions takes
// seconds. The header is not checked against the checksum; a session whose
// header does not decode is loaded in full, from its backup if need be.
func (s *Store) List() ([]Info, []error) {
	entries, err := s.readFolder()
	if err != nil {
		return nil, []error{fmt.Errorf("the sessions folder %s: %w", s.path, err)}
	}
	var list []Info
	var problems []error
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		if err := CheckID(name); err != nil {
			problems = append(problems, fmt.Errorf("folder %q is not a session: left alone", name))
			continue
		}
		info, err := s.info(name)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		list = append(list, info)
	}
	slices.SortFunc(list, func(a, b Info) int {
		if ra, rb := a.Status.Resumable(), b.Status.Resumable(); ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		if c := b.LastActive.Compare(a.LastActive); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return list, problems
}

func (s *Store) readFolder() ([]os.DirEntry, error) {
	f, err := s.root.Open(".")
	if err != nil {
		return nil, bare(err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) }) // problems in a stable order
	return entries, bare(err)
}

// info reads a session's header, or the whole session when the header
// alone will not do.
func (s *Store) info(id string) (Info, error) {
	if st, err := s.readHeader(id); err == nil {
		return describe(st), nil
	}
	st, _, err := s.Load(id)
	if err != nil {
		return Info{}, err
	}
	return describe(st), nil
}

// readHeader decodes session.yaml up to its phases line.
func (s *Store) readHeader(id string) (engine.State, error) {
	var st engine.State
	f, err := s.root.OpenFile(id+"/"+primaryName, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return st, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return st, errors.New("not a regular file")
	}
	head, err := readHead(f)
	if err != nil {
		return st, err
	}
	var h header
	if err := decodeStrict(head, &h); err != nil {
		return st, err
	}
	if err := h.check(id); err != nil {
		return st, err
	}
	if err := h.into(&st); err != nil {
		return st, err
	}
	if !st.Status.Known() {
		return st, fmt.Errorf("unknown status %q", st.Status)
	}
	return st, nil
}

// readHead reads the lines before the phases line, and no more than it
// needs: the history after it is most of the file.
func readHead(r io.Reader) ([]byte, error) {
	key := []byte("\n" + phasesKey)
	buf := make([]byte, 0, 4<<10)
	for {
		if i := bytes.Index(buf, key); i >= 0 {
			return buf[:i+1], nil
		}
		if len(buf) >= maxHeader {
			return nil, fmt.Errorf("no %s line in the first %d KiB", phasesKey, maxHeader>>10)
		}
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, len(buf))
		}
		n, err := r.Read(buf[len(buf):min(cap(buf), maxHeader)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) && n == 0 {
			return nil, fmt.Errorf("no %s line", phasesKey)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
	}
}

func describe(st engine.State) Info {
	return Info{
		ID:         st.ID,
		Intention:  st.Intention,
		Status:     st.Status,
		Phase:      st.Phase,
		Progress:   st.Progress(),
		Length:     st.Length,
		Created:    st.CreatedAt,
		LastActive: st.UpdatedAt,
	}
}
