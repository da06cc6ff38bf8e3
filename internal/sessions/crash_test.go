package sessions

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// A power cut at any step of any save leaves a session that loads, and
// what loads is the last save that returned or the one under way.
// Without either fsync that no longer holds, and the test must say so.
func TestPowerCutAtEveryStep(t *testing.T) {
	states := powerCutStates(t)
	for _, c := range []struct {
		name   string
		mutate func(*powerFS)
		start  start // how the folder is before the first save
		caught bool  // violations expected
	}{
		{"every fsync", func(*powerFS) {}, fresh, false},
		{"after a recovery", func(*powerFS) {}, recovered, false},
		{"after a crash left a link", func(*powerFS) {}, leftLink, false},
		{"links refused", func(p *powerFS) { p.noLinks = true }, fresh, false},
		{"no file fsync", func(p *powerFS) { p.noFileSync = true }, fresh, true},
		{"no folder fsync", func(p *powerFS) { p.noFolderSync = true }, fresh, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := cutEverywhere(t, states, c.mutate, c.start)
			t.Logf("%d saves, %d crash points, %d folders a cut can leave, %d loaded from the backup, %d violations",
				r.saves, r.points, r.folders, r.fromBackup, r.violations)
			for _, v := range r.examples {
				t.Log(v)
			}
			switch {
			case c.caught && r.violations == 0:
				t.Error("the mutation went unnoticed: the test cannot tell a missing fsync")
			case !c.caught && r.violations > 0:
				t.Errorf("%d violations", r.violations)
			case !c.caught && c.start != recovered && r.fromBackup > 0:
				// session.yaml is replaced only by a file already on the
				// disk: a cut never leaves the listener told that it could
				// not be read.
				t.Errorf("%d folders a cut can leave load from the backup", r.fromBackup)
			}
		})
	}
}

// powerCutStates are saves as a session makes them: created, then each
// state twice, a second apart, its history growing to a quarter hour's.
func powerCutStates(t *testing.T) []engine.State {
	states := []engine.State{newState(t, id)}
	for _, st := range []engine.State{fullState(t, id), longState(t, id, 50), longState(t, id, 150)} {
		next := st.Clone()
		next.Elapsed += time.Second
		next.UpdatedAt = next.UpdatedAt.Add(time.Second)
		states = append(states, st, next)
	}
	return states
}

type powerCutReport struct {
	saves, points, folders, fromBackup, violations int
	examples                                       []string
}

// start is how a session folder is before the saves of a power-cut test.
type start int

const (
	fresh     start = iota // nothing: the first save creates it
	recovered              // a torn primary; the first state loads from the backup
	leftLink               // a crash left the backup's temporary name on the primary's file
)

// cutEverywhere saves states in turn through a powerFS, and before each
// save goes on, cuts the power at each of its steps in a copy, and after
// it returned; every folder that can be left is loaded and judged.
func cutEverywhere(t *testing.T, states []engine.State, mutate func(*powerFS), from start) powerCutReport {
	l := newRemainsLoader(t, states)
	live := newPowerFS()
	var good []byte  // the Session's memory of the last good primary
	inPlace := false // and whether session.yaml holds it
	first := 0
	switch from {
	case recovered:
		live, good = l.recovered(states[0])
		first = 1
	case leftLink:
		live, good = l.leftLink(states[0])
		inPlace, first = true, 1
	}
	mutate(live)
	r := powerCutReport{saves: len(states) - first}
	for k := first; k < len(states); k++ {
		st := states[k]
		for cutAt := 0; ; cutAt++ {
			p := live.clone()
			p.cutAt = cutAt
			sess := &Session{id: id, disk: p, good: good, goodInPlace: inPlace}
			err := sess.Save(st)
			acked, inFlight := k-1, k
			switch {
			case p.cut == "" && err != nil:
				t.Fatalf("save %d: %v", k, err)
			case p.cut == "":
				acked, inFlight = k, -1
			case !errors.Is(err, errPowerCut):
				t.Fatalf("save %d, power cut at %s: Save returned %v", k, p.cut, err)
			}
			moment := fmt.Sprintf("save %d, power cut at %s", k, p.cut)
			if p.cut == "" {
				moment = fmt.Sprintf("save %d, power cut after it returned", k)
			}
			r.points++
			for _, left := range p.leftovers() {
				r.folders++
				got, fromBackup, err := l.load(left)
				if fromBackup {
					r.fromBackup++
				}
				var wrong string
				switch {
				case err != nil && acked >= 0:
					wrong = fmt.Sprintf("nothing loads: %v", err)
				case err == nil && got != acked && got != inFlight:
					wrong = fmt.Sprintf("save %d loaded, not %d", got, acked)
				}
				if wrong != "" {
					r.violations++
					if len(r.examples) < 3 {
						r.examples = append(r.examples, moment+": "+wrong)
					}
				}
			}
			if p.cut == "" {
				break
			}
		}
		sess := &Session{id: id, disk: live, good: good, goodInPlace: inPlace}
		if err := sess.Save(st); err != nil {
			t.Fatal(err)
		}
		good, inPlace = sess.good, sess.goodInPlace
	}
	return r
}

// remainsLoader lays out what a power cut left in a real folder and
// reads it with the package's own load, once for each distinct folder.
type remainsLoader struct {
	t     *testing.T
	dir   string
	root  *os.Root
	saves map[string]int // a save's bytes → its number
	done  map[[2][32]byte]loadResult
}

type loadResult struct {
	save       int
	fromBackup bool
	err        error
}

func newRemainsLoader(t *testing.T, states []engine.State) *remainsLoader {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	l := &remainsLoader{t: t, dir: dir, root: root, saves: map[string]int{}, done: map[[2][32]byte]loadResult{}}
	for i, st := range states {
		b, err := encode(st)
		if err != nil {
			t.Fatal(err)
		}
		l.saves[string(b)] = i
	}
	if len(l.saves) != len(states) {
		t.Fatal("two saves with the same bytes cannot be told apart")
	}
	return l
}

// recovered is a folder whose primary a crash tore, its backup holding
// st, and what the loader keeps of it as the next backup.
func (l *remainsLoader) recovered(st engine.State) (*powerFS, []byte) {
	b, err := encode(st)
	if err != nil {
		l.t.Fatal(err)
	}
	p := newPowerFS()
	p.names[primaryName] = &inode{data: b[:len(b)/2], synced: b[:len(b)/2]}
	p.names[backupName] = &inode{data: b, synced: b}
	p.durable = maps.Clone(p.names)
	l.place(primaryName, b[:len(b)/2])
	l.place(backupName, b)
	got, err := load(l.root, id, l.dir)
	if err != nil || !got.report.FromBackup {
		l.t.Fatalf("the backup did not load: %v %+v", err, got.report)
	}
	return p, got.good
}

// leftLink is a folder whose primary holds st and, as a crash between
// a save's link and its rename leaves it, also has the backup's
// temporary name; and what the loader keeps of it.
func (l *remainsLoader) leftLink(st engine.State) (*powerFS, []byte) {
	b, err := encode(st)
	if err != nil {
		l.t.Fatal(err)
	}
	p := newPowerFS()
	p.names[primaryName] = &inode{data: b, synced: b}
	p.names[backupTempName] = p.names[primaryName]
	p.durable = maps.Clone(p.names)
	l.place(primaryName, b)
	l.place(backupName, nil)
	got, err := load(l.root, id, l.dir)
	if err != nil || !got.primary {
		l.t.Fatalf("the primary did not load: %v %+v", err, got.report)
	}
	return p, got.good
}

// load says which save the folder holds, or why none loads.
func (l *remainsLoader) load(r remains) (int, bool, error) {
	key := [2][32]byte{fingerprint(r.primary), fingerprint(r.backup)}
	if res, ok := l.done[key]; ok {
		return res.save, res.fromBackup, res.err
	}
	l.place(primaryName, r.primary)
	l.place(backupName, r.backup)
	res := loadResult{save: -1}
	got, err := load(l.root, id, l.dir)
	switch n, known := l.saves[string(got.good)]; {
	case err != nil:
		res.err = err
	case !known:
		res.err = errors.New("it loaded bytes no save wrote")
	default:
		res.save, res.fromBackup = n, got.report.FromBackup
	}
	l.done[key] = res
	return res.save, res.fromBackup, res.err
}

// fingerprint tells an absent file from an empty one.
func fingerprint(b []byte) [32]byte {
	if b == nil {
		return [32]byte{}
	}
	h := sha256.New()
	h.Write([]byte{1})
	h.Write(b)
	return [32]byte(h.Sum(nil))
}

func (l *remainsLoader) place(name string, b []byte) {
	path := filepath.Join(l.dir, name)
	if b == nil {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			l.t.Fatal(err)
		}
		return
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		l.t.Fatal(err)
	}
}
