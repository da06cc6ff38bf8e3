package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// childNamed is the pid of the process running exe whose parent is ppid,
// or 0.
func childNamed(t testing.TB, ppid int, exe string) int {
	t.Helper()
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc to find lull in: %v", err)
	}
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		if parent, _ := procStat(pid); parent != ppid {
			continue
		}
		if path, err := os.Readlink(filepath.Join("/proc", d.Name(), "exe")); err == nil && path == exe {
			return pid
		}
	}
	return 0
}

// procStat is a process's parent and state (R, S, T for stopped, Z for a
// zombie); state is 0 when the process is gone.
func procStat(pid int) (ppid int, state byte) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, 0
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, 0
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[0][0]
}

// procState is a process's state: 'T' stopped, 'Z' a zombie, 0 gone.
func procState(pid int) byte {
	_, state := procStat(pid)
	return state
}

// cookedMode reports whether the terminal tty reads lines (canonical
// input), echoes and turns Ctrl-C into a signal: the mode a shell expects
// after a full-screen program has gone.
func cookedMode(t testing.TB, tty string) bool {
	t.Helper()
	fd, err := unix.Open(tty, unix.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatalf("opening the pane's terminal %s: %v", tty, err)
	}
	defer unix.Close(fd)
	tio, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		t.Fatalf("reading the mode of %s: %v", tty, err)
	}
	const want = unix.ICANON | unix.ECHO | unix.ISIG
	return tio.Lflag&want == want
}

// pipeHolds is how many bytes wait unread in the pipe f reads.
func pipeHolds(t testing.TB, f *os.File) int {
	n, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCINQ) // FIONREAD
	if err != nil {
		t.Fatalf("asking the pipe what it holds: %v", err)
	}
	return n
}
