package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/sessions"
)

// target is a file lull render writes: the sound or the captions. A new
// or regular file is written as a hidden temporary file beside it and
// renamed over it once whole, so a render that fails or is stopped never
// leaves half a file under the name asked for. What the user meant to be
// written into as it is — a named pipe (FIFO), a character device such as
// /dev/null, or standard output ("-") — is written in place, streamed.
// Nothing else is ever replaced: a folder, a socket or a block device is
// refused.
type target struct {
	name string   // as the user gave it, for messages
	f    *os.File // what is written
	// tmp is the hidden file renamed to path once whole; "" when the
	// target is written in place.
	tmp, path string
}

// streamed reports whether the target is written in place.
func (t *target) streamed() bool { return t.tmp == "" }

// writer is what to write the sound into: a file that can seek for a
// temporary file (its WAV header gets its real sizes), a plain stream
// otherwise (a pipe cannot seek, and a device must not be sought).
func (t *target) writer() io.Writer {
	if t.streamed() {
		return struct{ io.Writer }{t.f}
	}
	return t.f
}

// commit puts a whole file in place: fsynced, renamed over the target,
// and the rename made durable. A streamed target is only closed.
func (t *target) commit() error {
	f := t.f
	t.f = nil
	if t.streamed() {
		return f.Close()
	}
	if err := errors.Join(f.Sync(), f.Close()); err != nil {
		os.Remove(t.tmp)
		return human.Bare(err)
	}
	if err := os.Rename(t.tmp, t.path); err != nil {
		os.Remove(t.tmp)
		return human.Bare(err)
	}
	if dir, err := os.Open(filepath.Dir(t.path)); err == nil {
		_ = dir.Sync() // the rename survives a power cut; a folder that cannot sync is no error
		dir.Close()
	}
	return nil
}

// discard drops what was written, unless it was committed.
func (t *target) discard() {
	if t == nil || t.f == nil {
		return
	}
	t.f.Close()
	if !t.streamed() {
		os.Remove(t.tmp)
	}
	t.f = nil
}

// what the flags name, for messages.
type targetFlag struct {
	flag    string // "--out"
	example string // a file name to suggest: "session.wav"
}

// writableKinds is what lull render writes to, for messages.
const writableKinds = "a file, a named pipe (FIFO), a character device such as /dev/null, or - for standard output"

// openTarget opens what name names for writing, by the rules of target.
// A FIFO with no reader yet is waited for, until ctx is done; notes says
// so meanwhile.
func openTarget(ctx context.Context, name string, fl targetFlag, notes io.Writer) (*target, error) {
	if name == "-" {
		return openStdout(fl)
	}
	info, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return openTemp(name, name)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", fl.flag, name, human.Bare(err))
	}
	path := name
	if info.Mode()&fs.ModeSymlink != 0 {
		// Followed as cp follows it: the user's own link to where the file
		// lives. A link someone else made is not: that is how a shared
		// folder like /tmp turns a write into someone else's file.
		if err := ownLink(info, name); err != nil {
			return nil, fmt.Errorf("%s %s: %w", fl.flag, name, err)
		}
		if path, err = filepath.EvalSymlinks(name); err != nil {
			to, _ := os.Readlink(name)
			return nil, fmt.Errorf("%s %s is a symbolic link to %q, which is not there: lull does not write through a dangling link; name the file itself", fl.flag, name, to)
		}
		if info, err = os.Lstat(path); err != nil {
			return nil, fmt.Errorf("%s %s: %w", fl.flag, name, human.Bare(err))
		}
	}
	m := info.Mode()
	switch {
	case m.IsRegular():
		return openTemp(name, path)
	case m&fs.ModeNamedPipe != 0:
		return openFIFO(ctx, name, path, info, notes)
	case m&fs.ModeCharDevice != 0:
		return openDevice(name, path, info, fl)
	case m.IsDir():
		return nil, fmt.Errorf("%s %s is a folder: name a file in it, like %s %s", fl.flag, name, fl.flag, filepath.Join(name, fl.example))
	case m&fs.ModeDevice != 0:
		return nil, fmt.Errorf("%s %s is a block device (a disk): lull will not write over it; give %s", fl.flag, name, writableKinds)
	case m&fs.ModeSocket != 0:
		return nil, fmt.Errorf("%s %s is a socket: lull does not write to one; give %s", fl.flag, name, writableKinds)
	default:
		return nil, fmt.Errorf("%s %s is not a file lull can write (%s); give %s", fl.flag, name, m.Type(), writableKinds)
	}
}

// openStdout writes to standard output, which must not be a terminal.
// The descriptor is a copy: a write to a closed pipe then fails with an
// error lull can report, where on fd 1 itself Go would kill the process
// with SIGPIPE and leave the session running.
func openStdout(fl targetFlag) (*target, error) {
	if isTerminal(os.Stdout) {
		return nil, fmt.Errorf("%s -: standard output is a terminal, and a WAV file is no text: pipe it to a player (%s - | aplay) or name a file: %s %s", fl.flag, human.Command("render "+fl.flag), fl.flag, fl.example)
	}
	f, err := dupStdout()
	if err != nil {
		return nil, fmt.Errorf("%s -: standard output: %w", fl.flag, err)
	}
	return &target{name: "standard output", f: f}, nil
}

// openDevice writes into a character device in place (/dev/null, say),
// never into a terminal.
func openDevice(name, path string, info fs.FileInfo, fl targetFlag) (*target, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|oNofollow|oNoctty, 0)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", fl.flag, name, human.Bare(err))
	}
	if err := sameFile(f, info); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s %s: %w", fl.flag, name, err)
	}
	if isTerminal(f) {
		f.Close()
		return nil, fmt.Errorf("%s %s is a terminal, and a WAV file is no text: name a file, or pipe standard output (%s -) to a player", fl.flag, name, fl.flag)
	}
	return &target{name: name, f: f}, nil
}

// openedFIFO is the target a named pipe's open gave, when the pipe opened
// is still the one lull looked at.
func openedFIFO(name string, f *os.File, err error, info fs.FileInfo) (*target, error) {
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, human.Bare(err))
	}
	if err := sameFile(f, info); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &target{name: name, f: f}, nil
}

func sameFile(f *os.File, info fs.FileInfo) error {
	opened, err := f.Stat()
	if err != nil {
		return human.Bare(err)
	}
	if !os.SameFile(info, opened) {
		return errors.New("it was replaced while lull opened it")
	}
	return nil
}

// openTemp begins a hidden temporary file beside path, locked for as long
// as this render writes it, after removing what earlier renders of the
// same target left when they were killed.
func openTemp(name, path string) (*target, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	removeStaleTemps(dir, base)
	for range 10 {
		f, err := os.CreateTemp(dir, "."+base+".*.tmp")
		if err != nil {
			return nil, fmt.Errorf("cannot write %s: %w", name, human.Bare(err))
		}
		if err := lockTemp(f); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, fmt.Errorf("cannot write %s: locking %s: %w", name, f.Name(), err)
		}
		// Another render's cleanup may have locked and removed it in the
		// moment before the lock was ours: then begin another.
		if stillNamed(f) {
			return &target{name: name, f: f, tmp: f.Name(), path: path}, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("cannot write %s: its temporary file kept disappearing", name)
}

// stillNamed reports whether f is still the file its name leads to.
func stillNamed(f *os.File) bool {
	opened, err := f.Stat()
	if err != nil {
		return false
	}
	named, err := os.Lstat(f.Name())
	return err == nil && os.SameFile(opened, named)
}

// removeStaleTemps removes the temporary files that killed renders of
// base left in dir: only lull's (named exactly as openTemp names them, a
// regular file the user alone can write) and only those no render is
// writing (a running render holds the lock on its own). Whatever cannot
// be removed is left: it is no reason not to render.
func removeStaleTemps(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	pattern := regexp.MustCompile(`^\.` + regexp.QuoteMeta(base) + `\.[0-9]+\.tmp$`)
	for _, e := range entries {
		if !pattern.MatchString(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		info, err := os.Lstat(path)
		if err != nil || !info.Mode().IsRegular() || sessions.CheckTrusted(info, path) != nil {
			continue
		}
		removeUnused(path, info)
	}
}
