//go:build unix

package sessions

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A session closed here and opened again at once opens, though a copy of
// its lock lives on for a moment — as in a process this one forked while
// it was open (a voice starting), which holds the lock until it runs its
// program. It was refused as "open in another lull" with lull's own pid.
func TestReopenWaitsForAForkedCopyOfItsOwnLock(t *testing.T) {
	s, _ := openStore(t)
	create(t, s, newState(t, id))
	first, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := first.lock.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	copyFD := -1
	if err := raw.Control(func(fd uintptr) { copyFD, err = unix.Dup(int(fd)) }); err != nil || copyFD < 0 {
		t.Fatalf("dup: %v", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(200 * time.Millisecond) // the child runs its program
		_ = unix.Close(copyFD)
	}()
	again, err := s.Resume(id)
	if err != nil {
		t.Fatalf("reopened while a forked copy of its own lock lived on: %v", err)
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
}
