package sessions

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// Info is one line of the sessions list.
type Info struct {
	ID, Intention string
	Status        engine.Status
	Phase         engine.Phase
	Progress      float64 // 0–1; 1 when completed
	Partial       bool    // completed before its end: summarized partway
	Length        time.Duration
	Sleep         bool          // a sleep session
	Elapsed       time.Duration // spoken so far
	Rendered      time.Duration // of Elapsed, written to a file by lull render: heard by no one
	// What the listener said of it (engine.State's fields of those names).
	MoodBefore, MoodAfter int
	Note                  string
	MoodAsked             bool   // asked after a sleep session how they slept
	Guide                 string // who wrote its last run
	Model, Server         string // … and, for a remote guide, its model and server
	// Newer is the schema version of a session a newer lull wrote, which
	// this one lists and never writes (see NewerError); 0 for the others.
	Newer             int
	Voice, Soundscape string // the soundscape as the listener left it
	Practice          string // "" a guided session, engine.PracticeBreathe
	Pattern           string // a breathing practice's rhythm
	ReplayOf          string
	Created           time.Time
	LastActive        time.Time
	// Report is how the session was read when its session.yaml was not
	// sound: from its backup, or rebuilt from its transcript, with Load's
	// notes. It is empty when session.yaml was read.
	Report Report
}

// maxHeader bounds the prefix List decodes; the header is far smaller.
const maxHeader = 64 << 10

// List describes every session, resumable first, then the most recently
// active. A session that cannot be read becomes one problem and never
// hides the others.
//
// Every session.yaml is checked whole, its checksum and its owner and
// permissions, but only the header at its top is decoded: the history is
// most of the file, and decoding it for thousands of sessions takes
// seconds, while hashing it takes milliseconds. A file lull wrote whole
// decodes whole. A session whose file fails any check is loaded as Load
// does — from its backup, or rebuilt from its transcript — and Info.Report
// says so; one that cannot be loaded becomes a problem.
func (s *Store) List() ([]Info, []error) {
	entries, err := s.readFolder()
	if err != nil {
		return nil, []error{fmt.Errorf("the sessions folder %s: %w", s.path, err)}
	}
	var ids []string
	var problems []error
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		if err := CheckID(name); err != nil {
			problems = append(problems, fmt.Errorf("folder %q is not a session: left alone", clip([]byte(name), maxIDLength)))
			continue
		}
		ids = append(ids, name)
	}
	infos, errs := s.infos(ids)
	var list []Info
	for i := range ids {
		if errs[i] != nil {
			problems = append(problems, errs[i])
			continue
		}
		list = append(list, infos[i])
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
		return nil, human.Bare(err)
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) }) // problems in a stable order
	return entries, human.Bare(err)
}

// infos reads the sessions on every core: hashing the files is most of
// the work.
func (s *Store) infos(ids []string) ([]Info, []error) {
	infos, errs := make([]Info, len(ids)), make([]error, len(ids))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ids)) {
		wg.Go(func() {
			var buf []byte // one buffer for every session.yaml this reads
			for i := int(next.Add(1) - 1); i < len(ids); i = int(next.Add(1) - 1) {
				infos[i], errs[i] = s.info(ids[i], &buf)
			}
		})
	}
	wg.Wait()
	return infos, errs
}

// Describe is what List says of one session: for one a newer lull made,
// what this lull can read of it.
func (s *Store) Describe(id string) (Info, error) {
	var buf []byte
	return s.info(id, &buf)
}

// info reads a session's header, or the whole session when the header
// alone will not do.
func (s *Store) info(id string, buf *[]byte) (Info, error) {
	dir, err := s.openFolder(id)
	if err != nil {
		return Info{}, err
	}
	defer dir.Close()
	folder := filepath.Join(s.path, id)
	st, err := readHeader(dir, id, folder, buf)
	if err == nil {
		return describe(st), nil
	}
	l, err := load(dir, id, folder)
	if ne, ok := errors.AsType[*NewerError](err); ok {
		return describeNewer(dir, id, folder, ne.Version), nil
	}
	if err != nil {
		var ue *UnreadableError
		if errors.As(err, &ue) {
			return Info{}, fmt.Errorf("%w; see: %s", err, human.Command("sessions show "+id))
		}
		return Info{}, err
	}
	in := describe(l.state)
	in.Report = l.report
	return in, nil
}

// readHeader checks the whole of session.yaml and decodes its header.
func readHeader(dir *os.Root, id, folder string, buf *[]byte) (engine.State, error) {
	var st engine.State
	if err := checkFolder(dir, folder); err != nil {
		return st, err
	}
	b, err := readTrusted(dir, primaryName, folder, *buf)
	if err != nil {
		return st, err
	}
	*buf = b
	body, err := unseal(b)
	if err != nil {
		return st, err
	}
	head, err := headOf(body)
	if err != nil {
		return st, err
	}
	if err := topLevelKeys(body); err != nil {
		return st, err
	}
	var h header
	if err := decodeStrict(head, &h); err != nil {
		return st, err
	}
	if err := h.check(id); err != nil {
		return st, err
	}
	if st, err = h.state(); err != nil {
		return st, err
	}
	if !st.Status.Known() {
		return st, fmt.Errorf("unknown status %q", st.Status)
	}
	if h.partial(st) {
		// The summary itself is not read here: only that it is partial,
		// which is all a listing shows of it (Progress, Info.Partial).
		st.Summary = &engine.Summary{Partial: true}
	}
	return st, nil
}

// topKeys are the keys session.yaml may have at its top level.
var topKeys = func() map[string]bool {
	keys := map[string]bool{}
	for _, t := range []reflect.Type{reflect.TypeFor[header](), reflect.TypeFor[document]()} {
		for f := range t.Fields() {
			if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name != "" {
				keys[name+":"] = true
			}
		}
	}
	return keys
}()

// topLevelKeys checks what List does not decode, cheaply: every line
// that begins at the left margin must begin with a key of the schema.
// lull writes nothing else there (no second document, no comment, no
// extra key), so a file with a good checksum and something else there was
// not written by lull, and is loaded in full to say what is wrong.
func topLevelKeys(body []byte) error {
	for rest := body; len(rest) > 0; {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		rest = next
		if len(line) == 0 || line[0] == ' ' {
			continue
		}
		key, _, _ := bytes.Cut(line, []byte(" "))
		if !topKeys[string(key)] {
			return fmt.Errorf("its line %q is not one lull writes", clip(line, 40))
		}
	}
	return nil
}

// headOf is the lines of body before its phases line.
func headOf(body []byte) ([]byte, error) {
	i := bytes.Index(body[:min(len(body), maxHeader)], []byte("\n"+phasesKey))
	if i < 0 {
		return nil, fmt.Errorf("no %s line in the first %d KiB", phasesKey, maxHeader>>10)
	}
	return body[:i+1], nil
}

// partial reports a completed session summarized before its end, from
// the header alone: its partial key, or — in a file written before the
// key — a completed session that never reached its last phase, which only
// a partial one may be (engine.State.Validate).
func (h header) partial(st engine.State) bool {
	return st.Status == engine.Completed && (h.Partial || st.Phase != engine.Phases[len(engine.Phases)-1])
}

func describe(st engine.State) Info {
	return Info{
		Partial:    st.Status == engine.Completed && st.Summary != nil && st.Summary.Partial,
		ID:         st.ID,
		Intention:  st.Intention,
		Status:     st.Status,
		Phase:      st.Phase,
		Progress:   st.Progress(),
		Length:     st.Length,
		Sleep:      st.Sleep,
		Elapsed:    st.Elapsed,
		Rendered:   st.Rendered,
		MoodBefore: st.MoodBefore,
		MoodAfter:  st.MoodAfter,
		Note:       st.Note,
		MoodAsked:  st.MoodAsked,
		Guide:      st.Guide,
		Model:      st.Model,
		Server:     st.Server,
		Voice:      st.Voice,
		Soundscape: st.Soundscape,
		Practice:   st.Practice,
		Pattern:    st.Pattern,
		ReplayOf:   st.ReplayOf,
		Created:    st.CreatedAt,
		LastActive: st.UpdatedAt,
	}
}
