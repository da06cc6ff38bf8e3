//go:build unix

package sessions

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// faultFS is a session folder on disk whose disk fails one operation.
type faultFS struct {
	fsys
	op   string // "create", "write", "fsync", "rename", "link" or "fsync the folder"
	name string // the file it strikes; for a rename or a link, the one renamed or linked
	err  error
	// Every link is refused (EPERM), as on a file system without them.
	refuseLinks bool
}

func (f *faultFS) create(name string) (file, error) {
	if name == f.name && f.op == "create" {
		return nil, f.err
	}
	w, err := f.fsys.create(name)
	if err != nil || name != f.name {
		return w, err
	}
	return &faultyFile{w, f}, nil
}

func (f *faultFS) rename(from, to string) error {
	if from == f.name && f.op == "rename" {
		return f.err
	}
	return f.fsys.rename(from, to)
}

func (f *faultFS) link(from, to string) error {
	if f.refuseLinks {
		return &os.LinkError{Op: "link", Old: from, New: to, Err: syscall.EPERM}
	}
	if from == f.name && f.op == "link" {
		return f.err
	}
	return f.fsys.link(from, to)
}

func (f *faultFS) syncFolder() error {
	if f.op == "fsync the folder" {
		return f.err
	}
	return f.fsys.syncFolder()
}

type faultyFile struct {
	file
	fault *faultFS
}

// Write fails halfway, as a disk filling up does.
func (w *faultyFile) Write(b []byte) (int, error) {
	if w.fault.op != "write" {
		return w.file.Write(b)
	}
	n, _ := w.file.Write(b[:len(b)/2])
	return n, &fs.PathError{Op: "write", Path: w.fault.name, Err: w.fault.err}
}

func (w *faultyFile) Sync() error {
	if w.fault.op != "fsync" {
		return w.file.Sync()
	}
	return &fs.PathError{Op: "sync", Path: w.fault.name, Err: w.fault.err}
}

// A save the disk fails says what failed and why, leaves the primary as
// it was and no temporary file, and the session goes on: the next save,
// once the disk is well, goes through.
func TestDiskFaultsFailTheSave(t *testing.T) {
	type fault struct {
		op, name string
		want     string
	}
	faults := []fault{
		{"write", tempName, "writing session.yaml.tmp: "},
		{"fsync", tempName, "syncing session.yaml.tmp to disk: "},
		{"rename", tempName, "renaming session.yaml.tmp to session.yaml: "},
		{"rename", backupTempName, "renaming session.yaml.bak.tmp to session.yaml.bak: "},
	}
	// The backup is written only where the folder refuses to link it.
	copied := []fault{
		{"write", backupTempName, "writing session.yaml.bak.tmp: "},
		{"fsync", backupTempName, "syncing session.yaml.bak.tmp to disk: "},
	}
	for _, errno := range []struct {
		name string
		err  syscall.Errno
	}{{"ENOSPC", syscall.ENOSPC}, {"EIO", syscall.EIO}} {
		for _, f := range faults {
			t.Run(errno.name+" "+f.op+" "+f.name, func(t *testing.T) {
				failedSave(t, &faultFS{op: f.op, name: f.name, err: errno.err}, f.want+errno.err.Error(), false)
			})
		}
		for _, f := range copied {
			t.Run(errno.name+" "+f.op+" "+f.name, func(t *testing.T) {
				fault := &faultFS{op: f.op, name: f.name, err: errno.err, refuseLinks: true}
				failedSave(t, fault, f.want+errno.err.Error(), false)
			})
		}
	}
	// A disk that turns itself read-only after an error refuses new files.
	t.Run("EROFS create", func(t *testing.T) {
		failedSave(t, &faultFS{op: "create", name: tempName, err: syscall.EROFS}, "writing session.yaml.tmp: read-only file system", false)
	})
	// The folder's fsync comes after the rename: the new primary may be in
	// place, but nothing is half-written.
	t.Run("EIO fsync the folder", func(t *testing.T) {
		failedSave(t, &faultFS{op: "fsync the folder", err: syscall.EIO}, "syncing the session folder: input/output error", true)
	})
}

// failedSave saves through fault and checks what the failure left.
func failedSave(t *testing.T, fault *faultFS, want string, renamed bool) {
	s, home := openStore(t)
	sess, err := s.Create(newState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	saved := fullState(t, id)
	if err := sess.Save(saved); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, "sessions", id)
	before := read(t, filepath.Join(dir, primaryName))

	fault.fsys = rootFS{sess.dir}
	sess.disk = fault
	next := fullState(t, id)
	next.Elapsed += time.Second
	err = sess.Save(next)
	mustContain(t, err, "saving session "+id+": "+want)
	if !errors.Is(err, fault.err) {
		t.Errorf("the cause is lost: %v", err)
	}
	t.Log(err)
	if after := read(t, filepath.Join(dir, primaryName)); !renamed && !bytes.Equal(before, after) {
		t.Error("a failed save changed the primary")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	got, report, err := s.Load(id)
	if err != nil || report.FromBackup {
		t.Fatalf("after the failed save: %v %+v", err, report)
	}
	if !renamed {
		sameState(t, got, saved)
	}

	sess.disk = nil // the disk is well again
	if err := sess.Transcribe(next.History[1]); err != nil {
		t.Fatal(err)
	}
	if err := sess.Save(next); err != nil {
		t.Fatal(err)
	}
	got, _, err = s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, got, next)
	if bak := read(t, filepath.Join(dir, backupName)); !renamed && !bytes.Equal(bak, before) {
		t.Error("the backup is not the last good primary")
	}
}

// Where the folder will not link the primary to the backup's name, the
// backup is written from memory, as after a recovery, and the save goes
// through; the next one tries the link again.
func TestRefusedLinkCopiesTheBackup(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EPERM, syscall.EXDEV, syscall.EMLINK, syscall.EEXIST, syscall.ENOSPC, syscall.EIO} {
		t.Run(errno.Error(), func(t *testing.T) {
			s, home := openStore(t)
			sess, err := s.Create(newState(t, id))
			if err != nil {
				t.Fatal(err)
			}
			defer sess.Close()
			if err := sess.Save(fullState(t, id)); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(home, "sessions", id)
			before := read(t, filepath.Join(dir, primaryName))
			fault := &faultFS{fsys: rootFS{sess.dir}, op: "link", name: primaryName, err: errno}
			count := &countFS{fsys: fault}
			sess.disk = count
			next := fullState(t, id)
			next.Elapsed += time.Second
			if err := sess.Save(next); err != nil {
				t.Fatalf("with the link refused: %v", err)
			}
			if bak := read(t, filepath.Join(dir, backupName)); !bytes.Equal(bak, before) {
				t.Error("the backup is not the last good primary")
			}
			if count.links != 1 || count.fileSyncs != 2 {
				t.Errorf("%d links tried, %d files synced; want 1 and 2 (the backup written out)", count.links, count.fileSyncs)
			}
			got, report, err := s.Load(id)
			if err != nil || report.FromBackup {
				t.Fatalf("after the save: %v %+v", err, report)
			}
			sameState(t, got, next)
			if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
			// The disk is well again: the next save links.
			count.fsys = rootFS{sess.dir}
			count.links, count.fileSyncs = 0, 0
			next.Elapsed += time.Second
			if err := sess.Save(next); err != nil {
				t.Fatal(err)
			}
			if count.links != 1 || count.fileSyncs != 1 {
				t.Errorf("once links work: %d links, %d files synced; want 1 and 1", count.links, count.fileSyncs)
			}
		})
	}
}

// A real full disk: a tiny tmpfs filled up.
func TestFullDiskFailsTheSave(t *testing.T) {
	home := tmpfs(t, "size=64k")
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sess, err := s.Create(newState(t, id))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	dir := filepath.Join(home, "sessions", id)
	before := read(t, filepath.Join(dir, primaryName))

	filler := filepath.Join(home, "filler")
	fill(t, filler)
	err = sess.Save(longState(t, id, 150))
	mustContain(t, err, "saving session "+id+": writing session.yaml.tmp: no space left on device")
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("the cause is lost: %v", err)
	}
	t.Log(err)
	if after := read(t, filepath.Join(dir, primaryName)); !bytes.Equal(before, after) {
		t.Error("a failed save changed the primary")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if err := sess.Save(longState(t, id, 150)); err != nil {
		t.Fatalf("with room again: %v", err)
	}
}

// fill writes path until the disk is full.
func fill(t *testing.T, path string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); errors.Is(err, syscall.ENOSPC) {
			return
		} else if err != nil {
			t.Fatal(err)
		}
	}
}
