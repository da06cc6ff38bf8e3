package sessions

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// countFS counts what saves ask of the disk beneath it.
type countFS struct {
	fsys
	written, fileSyncs, folderSyncs, links int
}

func (c *countFS) create(name string) (file, error) {
	f, err := c.fsys.create(name)
	if err != nil {
		return nil, err
	}
	return &countFile{f, c}, nil
}

func (c *countFS) link(from, to string) error {
	c.links++
	return c.fsys.link(from, to)
}

func (c *countFS) syncFolder() error {
	c.folderSyncs++
	return c.fsys.syncFolder()
}

type countFile struct {
	file
	c *countFS
}

func (f *countFile) Write(b []byte) (int, error) {
	n, err := f.file.Write(b)
	f.c.written += n
	return n, err
}

func (f *countFile) Sync() error {
	f.c.fileSyncs++
	return f.file.Sync()
}

// A checkpoint save writes its bytes once and syncs one file and the
// folder: the backup, the last save, is the file already on the disk,
// given a second name. No file is left with two names once it returns.
// After a recovery, when session.yaml is the damaged file, the backup is
// written out from what loaded, once; then saves link again.
func TestCheckpointWritesOnce(t *testing.T) {
	s, home := openStore(t)
	dir := filepath.Join(home, "sessions", id)
	sess, err := s.Create(newState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	st := fullState(t, id)
	saves := func(sess *Session, n int, backupWritten bool) {
		t.Helper()
		for i := range n {
			before := read(t, filepath.Join(dir, primaryName))
			st, _ = spokenOn(st, engine.Breathing, "Breathe in, slow.")
			st.Elapsed += time.Second
			count := &countFS{fsys: rootFS{sess.dir}}
			sess.disk = count
			if err := sess.Save(st); err != nil {
				t.Fatal(err)
			}
			after := read(t, filepath.Join(dir, primaryName))
			bak := read(t, filepath.Join(dir, backupName))
			want := countFS{written: len(after), fileSyncs: 1, folderSyncs: 1, links: 1}
			if backupWritten && i == 0 {
				want.written, want.fileSyncs, want.links = len(after)+len(bak), 2, 0
			}
			if count.fsys = nil; *count != want {
				t.Errorf("save %d wrote %d bytes, synced %d files and the folder %d times, made %d links; want %d, %d, %d, %d",
					i, count.written, count.fileSyncs, count.folderSyncs, count.links, want.written, want.fileSyncs, want.folderSyncs, want.links)
			}
			if !backupWritten && !bytes.Equal(bak, before) {
				t.Errorf("save %d: the backup is not the primary it replaced", i)
			}
			for _, name := range []string{primaryName, backupName} {
				if n := links(t, filepath.Join(dir, name)); n != 1 {
					t.Errorf("save %d: %s has %d names", i, name, n)
				}
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
				t.Errorf("save %d left %v", i, left)
			}
		}
	}
	saves(sess, 3, false)
	sess.Close()

	sess, err = s.Resume(id) // loaded from session.yaml: it is the backup-to-be
	if err != nil {
		t.Fatal(err)
	}
	saves(sess, 2, false)
	sess.Close()

	good := read(t, filepath.Join(dir, backupName))
	torn := read(t, filepath.Join(dir, primaryName))
	write(t, home, id, primaryName, torn[:len(torn)/2])
	sess, err = s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if !sess.Report().FromBackup {
		t.Fatalf("a torn primary did not load from the backup: %+v", sess.Report())
	}
	st = sess.State()
	saves(sess, 1, true)
	if bak := read(t, filepath.Join(dir, backupName)); !bytes.Equal(bak, good) {
		t.Error("after a recovery the backup is not what loaded")
	}
	saves(sess, 2, false)
}

// What a save costs does not grow with the history: a session an hour
// in allocates as few times per save as one minutes in, each save adding
// a sentence to the one before. (Allocations stand in for time, which a
// busy machine makes useless in a test; BenchmarkSaveFlat times it.)
func TestSaveCostIsFlat(t *testing.T) {
	allocs := func(n int) float64 {
		s, _ := openStore(t)
		sess, err := s.Create(newState(t, id))
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		states := [2]engine.State{longState(t, id, n-1), longState(t, id, n)}
		i := 0
		save := func() {
			i++
			states[i%2].Elapsed += time.Millisecond
			if err := sess.Save(states[i%2]); err != nil {
				t.Fatal(err)
			}
		}
		save() // the first save encodes every entry
		return testing.AllocsPerRun(20, save)
	}
	short, long := allocs(50), allocs(600)
	t.Logf("allocations per save: %.0f with 50 entries, %.0f with 600", short, long)
	if long > short+2 {
		t.Errorf("a save with 600 entries allocates %.0f times, with 50 %.0f: its cost grows with the history", long, short)
	}
}
