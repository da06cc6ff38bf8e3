package sessions

import (
	"cmp"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// Heard is what the listener heard before a moment: the guide's sentences
// of each session created in the window before it, the most recent session
// first, at most most sessions. Only what was spoken before the moment
// counts, so a session asked again later — resumed tomorrow, in another
// lull — gets the same answer, whatever the earlier sessions did since.
//
// It is cheap with thousands of sessions: a session's folder is named by
// when it was created (NewID), so the candidates are picked from the
// folder names and only they are read, newest first, and no more than
// readsPerSession for each session wanted. A session that cannot be read
// is skipped and becomes one problem; it never hides the others. A folder
// lull did not name is not a session lull made, and is left alone.
func (s *Store) Heard(before time.Time, window time.Duration, most int) (heard [][]string, problems []error) {
	if most <= 0 {
		return nil, nil
	}
	entries, err := s.readFolder()
	if err != nil {
		return nil, []error{fmt.Errorf("the sessions folder %s: %w", s.path, err)}
	}
	since := before.Add(-window)
	var ids []string
	for _, e := range entries {
		name := e.Name()
		created, ok := createdAt(name)
		// The name keeps the second: the session was created within the
		// second after it.
		if !ok || !e.IsDir() || !created.Before(before) || !created.Add(time.Second).After(since) {
			continue
		}
		ids = append(ids, name)
	}
	slices.Reverse(ids) // folder names sort as their times: newest first

	type earlier struct {
		created time.Time
		said    []string
	}
	var found []earlier
	// Read in batches of the sessions still wanted, on every core, then
	// taken in order: the answer is the one reading them one by one gives.
	limit := min(len(ids), most*readsPerSession)
	for next := 0; next < limit && len(found) < most; {
		batch := ids[next:min(next+most-len(found), limit)]
		next += len(batch)
		states, errs := s.loadAll(batch)
		for i, st := range states {
			if errs[i] != nil {
				problems = append(problems, errs[i])
				continue
			}
			if !st.CreatedAt.Before(before) || st.CreatedAt.Before(since) {
				continue
			}
			var said []string
			for _, e := range st.History {
				if e.Role == engine.RoleGuide && e.At.Before(before) {
					said = append(said, e.Text)
				}
			}
			if len(said) > 0 {
				found = append(found, earlier{st.CreatedAt, said})
			}
		}
	}
	slices.SortStableFunc(found, func(a, b earlier) int { return cmp.Compare(b.created.UnixNano(), a.created.UnixNano()) })
	for _, f := range found {
		heard = append(heard, f.said)
	}
	return heard, problems
}

// readsPerSession bounds the sessions Heard reads for each one it wants:
// a run of sessions begun and cancelled before a word says nothing, and
// must not make the next session read thousands.
const readsPerSession = 4

// loadAll reads sessions for their words, on every core: decoding a long
// history is most of the work.
func (s *Store) loadAll(ids []string) ([]engine.State, []error) {
	states, errs := make([]engine.State, len(ids)), make([]error, len(ids))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(ids)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(ids); i = int(next.Add(1) - 1) {
				states[i], errs[i] = s.words(ids[i])
			}
		})
	}
	wg.Wait()
	return states, errs
}

// createdAt reads the creation time, to the second, an id made by NewID
// begins with.
func createdAt(id string) (time.Time, bool) {
	if len(id) < len(idTime) || (len(id) > len(idTime) && id[len(idTime)] != '-') || CheckID(id) != nil {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation(idTime, id[:len(idTime)], time.UTC)
	return t, err == nil
}

// words reads a session for what was said in it: its session.yaml, checked
// as Load checks it; else whatever Load can make of the folder (the
// backup, the transcript). Its transcript is not read when session.yaml
// will do: only the words are wanted, not what the folder agrees on.
func (s *Store) words(id string) (engine.State, error) {
	dir, err := s.openFolder(id)
	if err != nil {
		return engine.State{}, err
	}
	defer dir.Close()
	folder := filepath.Join(s.path, id)
	if err := checkFolder(dir, folder); err == nil {
		if st, _, err := readState(dir, primaryName, id, folder); err == nil {
			return st, nil
		}
	}
	l, err := load(dir, id, folder)
	return l.state, err
}
