//go:build unix

package e2e

// Issue 9, files that are not lull's: what lull render does with a target
// that is not a plain new file, and with an output that fails.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lull-dev/lull/internal/engine"
)

// runDeadline bounds a lull that should end: a hang fails the test
// instead of stalling the suite. It measures nothing.
const runDeadline = 90 * time.Second

// lullIn runs lull in folder dir (a relative --out lands there) with
// LULL_HOME=home (none when "") and env added, and returns stdout as
// bytes: a render may stream a WAV there.
func lullIn(t *testing.T, dir, home string, env []string, args ...string) (stdout []byte, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, lullBin, args...)
	cmd.Dir = dir
	cmd.Env = append(hermeticEnv(), "LULL_TIME_SCALE=100")
	if home != "" {
		cmd.Env = append(cmd.Env, "LULL_HOME="+home)
	}
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Errorf("lull %s was still running after %v: killed", strings.Join(args, " "), runDeadline)
	}
	return out.Bytes(), errOut.String(), err
}

// renderArgs is a short render with no voice engine: the mixer, the
// engine and the file, nothing else.
func renderArgs(out string, more ...string) []string {
	return append([]string{"render", "--length", "5", "--seed", "3", "--voice", "none", "--out", out}, more...)
}

func needRoot(t *testing.T, what string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("%s needs root", what)
	}
}

// mknod makes a character device node in a test's folder: c 1 3 is a
// null device, c 1 7 a full one. The real /dev is never touched.
func mknod(t *testing.T, path string, mode uint32, major, minor uint32) {
	t.Helper()
	needRoot(t, "mknod")
	if err := makeNode(path, mode|0o666, major, minor); err != nil {
		t.Skipf("mknod %s was refused: %v", path, err)
	}
}

// sameNode fails unless path is still the node it was: same type, same
// device numbers, same inode.
func sameNode(t *testing.T, path string, before os.FileInfo) {
	t.Helper()
	after, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, a := before.Sys().(*syscall.Stat_t), after.Sys().(*syscall.Stat_t)
	if after.Mode().Type() != before.Mode().Type() || a.Rdev != b.Rdev || !os.SameFile(before, after) {
		t.Errorf("%s was replaced: it was %v (rdev %d), it is %v (rdev %d)", path, before.Mode(), b.Rdev, after.Mode(), a.Rdev)
	}
}

func lstat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// noTemps fails if a hidden temporary file of a render is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// sessionStatus is the status of the one session in home.
func sessionStatus(t *testing.T, home string) (string, engine.Status) {
	t.Helper()
	id, _ := onlySession(t, home)
	return id, load(t, home, id).Status
}

// A null device is written into in place, streamed, and stays a device.
func TestRenderIntoANullDevice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	null := filepath.Join(dir, "null")
	mknod(t, null, unix.S_IFCHR, 1, 3)
	before := lstat(t, null)
	home := filepath.Join(dir, "home")
	out, errOut, err := lullIn(t, dir, home, nil, renderArgs("null")...)
	if err != nil {
		t.Fatalf("render into a null device: %v\n%s%s", err, out, errOut)
	}
	sameNode(t, null, before)
	noTemps(t, dir)
	if _, st := sessionStatus(t, home); st != engine.Completed {
		t.Errorf("the session is %s, want completed", st)
	}
}

// A full device is written into in place; its error ends the render at
// once, non-zero, with the session saved paused and resumable.
func TestRenderIntoAFullDeviceFailsAndSavesPaused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	mknod(t, full, unix.S_IFCHR, 1, 7)
	before := lstat(t, full)
	home := filepath.Join(dir, "home")
	start := time.Now()
	out, errOut, err := lullIn(t, dir, home, nil, renderArgs("full")...)
	t.Logf("failed in %v: %s", time.Since(start).Round(time.Millisecond), errOut)
	if err == nil {
		t.Fatalf("a render into a full device succeeded:\n%s%s", out, errOut)
	}
	sameNode(t, full, before)
	noTemps(t, dir)
	mustSay(t, errOut, "writing full failed: no space left on device", "saved paused: lull resume ")
	resumeAfterFailedRender(t, home, errOut)
}

// resumeAfterFailedRender checks the session a failed render saved is
// paused, and that lull resume plays it to its end.
func resumeAfterFailedRender(t *testing.T, home, said string) {
	t.Helper()
	id, st := sessionStatus(t, home)
	if st != engine.Paused {
		t.Errorf("the session is %s, want paused", st)
	}
	if !strings.Contains(said, "lull resume "+id) {
		t.Errorf("the message does not say how to resume %s", id)
	}
	out, errOut, err := lull(t, home, "100", "resume", "--no-tui", id)
	if err != nil {
		t.Fatalf("resume after the failed render: %v\n%s%s", err, out, errOut)
	}
	if st := load(t, home, id).Status; st != engine.Completed {
		t.Errorf("after resume the session is %s, want completed", st)
	}
}

func mustSay(t *testing.T, said string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(said, w) {
			t.Errorf("lull did not say %q:\n%s", w, said)
		}
	}
}

// A disk that fills up mid-render: the render ends with the error, leaves
// nothing under the target's name, and the session is saved paused.
func TestRenderOntoAFullDisk(t *testing.T) {
	t.Parallel()
	disk := smallTmpfs(t, "size=2m")
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	wav := filepath.Join(disk, "calm.wav")
	out, errOut, err := lullIn(t, dir, home, nil, renderArgs(wav)...)
	t.Logf("%s", errOut)
	if err == nil {
		t.Fatalf("a render onto a full disk succeeded:\n%s%s", out, errOut)
	}
	if _, err := os.Lstat(wav); err == nil {
		t.Errorf("half a file was left as %s", wav)
	}
	noTemps(t, disk)
	mustSay(t, errOut, "writing "+wav+" failed: no space left on device; nothing was left under that name", "saved paused")
	resumeAfterFailedRender(t, home, errOut)
}

// A named pipe is written into in place: whoever reads it gets the whole
// render as a streamed WAV, and the pipe stays a pipe.
func TestRenderIntoANamedPipe(t *testing.T) {
	t.Parallel() // its own folder and files: nothing shared
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	before := lstat(t, fifo)
	ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
	defer cancel()
	reader := exec.CommandContext(ctx, "cat", fifo) // killed if nothing ever writes
	var got bytes.Buffer
	reader.Stdout = &got
	if err := reader.Start(); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lullIn(t, dir, filepath.Join(dir, "home"), nil, renderArgs("fifo")...)
	if err != nil {
		t.Fatalf("render into a named pipe: %v\n%s%s", err, out, errOut)
	}
	if err := reader.Wait(); err != nil {
		t.Fatalf("reading the pipe: %v (%d bytes read)", err, got.Len())
	}
	sameNode(t, fifo, before)
	noTemps(t, dir)
	streamedLasts(t, "the pipe", got.Bytes(), 5*time.Minute)
}

// streamedLasts checks b is a streamed WAV of about d.
func streamedLasts(t *testing.T, what string, b []byte, d time.Duration) {
	t.Helper()
	if len(b) < 44 {
		t.Fatalf("%s carried %d bytes", what, len(b))
	}
	if size := binary.LittleEndian.Uint32(b[40:44]); size != streamedSize {
		t.Errorf("%s: the data size says %#x, want the streamed %#x", what, size, streamedSize)
	}
	w := parseWAV(t, what, b, true)
	if got := w.duration(); (got - d).Abs() > d/100 {
		t.Errorf("%s carried %v of sound, want %v", what, got, d)
	}
}

// --out - streams the WAV to standard output, and nothing else goes there.
func TestRenderToStandardOutput(t *testing.T) {
	t.Parallel() // its own folder and files: nothing shared
	dir := t.TempDir()
	out, errOut, err := lullIn(t, dir, filepath.Join(dir, "home"), nil, renderArgs("-")...)
	if err != nil {
		t.Fatalf("render to standard output: %v\n%s", err, errOut)
	}
	streamedLasts(t, "standard output", out, 5*time.Minute)
	mustSay(t, errOut, "Rendering session", "Rendered 5:00")
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want only home: a file was made", len(entries))
	}
}

// What must never be replaced is refused before a session is made: a
// folder, a socket, a block device, and a link someone else made.
func TestRenderRefusesWhatItMustNotReplace(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "socket")
	l, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cases := map[string]string{
		"folder": "--out folder is a folder: name a file in it, like --out folder/session.wav",
		"socket": "--out socket is a socket: lull does not write to one",
	}
	if os.Geteuid() == 0 {
		// A loop device's node, never opened: lull must refuse it by its type.
		if err := makeNode(filepath.Join(dir, "disk"), unix.S_IFBLK|0o600, 7, 0); err == nil {
			cases["disk"] = "--out disk is a block device (a disk): lull will not write over it"
		}
		victim := filepath.Join(dir, "victim.wav")
		if err := os.WriteFile(victim, []byte("not lull's"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, filepath.Join(dir, "planted")); err != nil {
			t.Fatal(err)
		}
		if err := os.Lchown(filepath.Join(dir, "planted"), 65534, 65534); err != nil {
			t.Fatal(err)
		}
		cases["planted"] = "--out planted: it is a symbolic link that belongs to uid 65534"
	}
	if err := os.Symlink(filepath.Join(dir, "gone.wav"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	cases["dangling"] = "is a symbolic link to \"" + filepath.Join(dir, "gone.wav") + "\", which is not there"
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			home := filepath.Join(dir, "home-"+name)
			before := lstat(t, filepath.Join(dir, name))
			out, errOut, err := lullIn(t, dir, home, nil, renderArgs(name)...)
			if err == nil {
				t.Errorf("rendered into %s:\n%s%s", name, out, errOut)
			}
			t.Log(strings.TrimSpace(errOut))
			mustSay(t, errOut, want)
			sameNode(t, filepath.Join(dir, name), before)
			noTemps(t, dir)
			if entries, _ := os.ReadDir(filepath.Join(home, "sessions")); len(entries) != 0 {
				t.Errorf("a session was made before the target was refused")
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(dir, "victim.wav")); err == nil && string(b) != "not lull's" {
		t.Error("the file behind a planted link was written")
	}
	if _, err := os.Lstat(filepath.Join(dir, "gone.wav")); err == nil {
		t.Error("a dangling link's target was created")
	}
}

// The user's own link is followed as cp follows it: the file it leads to
// gets the render, and the link stays a link.
func TestRenderThroughTheUsersOwnLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	music := filepath.Join(dir, "music")
	if err := os.Mkdir(music, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(music, "latest.wav")
	if err := os.WriteFile(file, []byte("last week's"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "latest.wav")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lullIn(t, dir, filepath.Join(dir, "home"), nil, renderArgs("latest.wav")...)
	if err != nil {
		t.Fatalf("render through a link: %v\n%s%s", err, out, errOut)
	}
	if info := lstat(t, link); info.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by %v", info.Mode())
	}
	if w := readWAV(t, file); (w.duration() - 5*time.Minute).Abs() > 3*time.Second {
		t.Errorf("the linked file holds %v of sound", w.duration())
	}
	noTemps(t, dir)
	noTemps(t, music)
}

// A killed render's hidden temporary file is removed by the next render of
// the same target; one a running render holds, or that is not lull's, is
// left alone.
func TestRenderCleansUpAfterAKilledRender(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	put := func(name string, mode os.FileMode) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("part of a WAV"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil { // whatever the umask
			t.Fatal(err)
		}
		return path
	}
	killed := put(".calm.wav.123.tmp", 0o600)
	running := put(".calm.wav.456.tmp", 0o600)
	held, err := os.Open(running)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := unix.Flock(int(held.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	kept := []string{
		running,
		put(".calm.wav.abc.tmp", 0o600),   // not the pattern lull names them by
		put(".other.wav.789.tmp", 0o600),  // another target's
		put(".calm.wav.321.tmp", 0o666),   // writable by others: not lull's
		put("calm.wav.654.tmp", 0o600),    // not hidden
		put(".calm.wav.987.tmp.x", 0o600), // not the pattern
	}
	outside := put("outside", 0o600)
	if err := os.Symlink(outside, filepath.Join(dir, ".calm.wav.111.tmp")); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, filepath.Join(dir, ".calm.wav.111.tmp"), outside)
	if os.Geteuid() == 0 {
		foreign := put(".calm.wav.222.tmp", 0o600)
		if err := os.Chown(foreign, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, foreign)
	}
	out, errOut, err := lullIn(t, dir, filepath.Join(dir, "home"), nil, renderArgs("calm.wav")...)
	if err != nil {
		t.Fatalf("render: %v\n%s%s", err, out, errOut)
	}
	if _, err := os.Lstat(killed); err == nil {
		t.Errorf("the killed render's %s is still there", filepath.Base(killed))
	}
	for _, path := range kept {
		if _, err := os.Lstat(path); err != nil {
			t.Errorf("%s was removed: it was not lull's to remove", filepath.Base(path))
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "part of a WAV" {
		t.Error("the file behind a link was touched")
	}
	readWAV(t, filepath.Join(dir, "calm.wav"))
}

// A signal stops a render at once even when the program reading its pipe
// has stopped reading: the session is saved paused, and lull exits
// 128 + the signal.
func TestRenderStopsOnASignalWhileItsReaderStalls(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			fifo := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			// A reader that opens the pipe and never reads: the render fills
			// the pipe and then waits in write.
			stalled, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer stalled.Close()
			home := filepath.Join(dir, "home")
			ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
			defer cancel()
			cmd := exec.CommandContext(ctx, lullBin, renderArgs("fifo")...)
			cmd.Dir = dir
			cmd.Env = append(hermeticEnv(), "LULL_TIME_SCALE=100", "LULL_HOME="+home)
			var errOut lockedBuffer
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Full: the pipe holds what it can, and nothing more is read.
			for deadline := time.Now().Add(runDeadline); pipeHolds(t, stalled) < 60<<10; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the render never filled the pipe:\n%s", errOut.String())
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			if ctx.Err() != nil {
				t.Fatalf("still rendering %v after the signal", runDeadline)
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 128+int(sig) {
				t.Errorf("exit %v, want %d\n%s", err, 128+int(sig), errOut.String())
			}
			if !strings.Contains(errOut.String(), "the session is saved paused: lull resume ") {
				t.Errorf("stderr does not say the session is saved paused:\n%s", errOut.String())
			}
			id, _ := onlySession(t, home)
			if st := load(t, home, id); st.Status != engine.Paused {
				t.Errorf("the session is saved %s, want paused", st.Status)
			}
		})
	}
}
