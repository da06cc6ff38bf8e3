package sessions

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// lockTable is the pid of the process that holds an flock on folder, as
// Linux's table of locks gives it (/proc/locks); 0 when it does not say.
// It names the holder even when the lock file is gone.
func lockTable(folder *os.File) int {
	info, err := folder.Stat()
	if err != nil {
		return 0
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	// "1: FLOCK  ADVISORY  WRITE 1234 fe:00:9977923 0 EOF": the device's
	// major and minor in hex, the inode in decimal.
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(uint64(st.Dev)), unix.Minor(uint64(st.Dev)), st.Ino)
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		// A process waiting for a lock is listed with "->" after the number.
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[3] != "WRITE" || fields[5] != want {
			continue
		}
		if pid, err := strconv.Atoi(fields[4]); err == nil && pid > 0 {
			return pid
		}
	}
	return 0
}
