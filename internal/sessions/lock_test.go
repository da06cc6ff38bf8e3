package sessions

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestOneLullPerSession(t *testing.T) {
	s, home := openStore(t)
	create(t, s, newState(t, id))
	first, err := s.Resume(id)
	if err != nil {
		t.Fatal(err)
	}
	var locked *LockedError
	_, err = s.Resume(id)
	if !errors.As(err, &locked) || locked.ID != id || locked.PID != os.Getpid() {
		t.Fatalf("second Resume: %v", err)
	}
	mustContain(t, err, fmt.Sprintf("session %s is open in another lull (pid %d); close it there first", id, os.Getpid()))
	if err := s.Delete(id); !errors.As(err, &locked) {
		t.Fatalf("Delete of an open session: %v", err)
	}
	if _, _, err := s.Load(id); err != nil {
		t.Fatalf("Load needs no lock: %v", err)
	}

	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	mustContain(t, first.Save(newState(t, id)), "closed")
	mustContain(t, first.Transcribe(fullState(t, id).History[1]), "closed")
	if _, err := os.Stat(filepath.Join(home, "sessions", id, lockName)); err != nil {
		t.Errorf("Close removed the lock file: %v", err)
	}
	again, err := s.Resume(id)
	if err != nil {
		t.Fatalf("Resume after Close: %v", err)
	}
	again.Close()
	if err := s.Delete(id); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Load(id); !errors.Is(err, ErrNotFound) {
		t.Errorf("after Delete: %v", err)
	}
}

// A lull that is killed holding a session frees it at once.
func TestKilledHolderFreesTheLock(t *testing.T) {
	s, home := openStore(t)
	create(t, s, newState(t, id))
	holder := exec.Command(os.Args[0], "-test.run=^TestHoldLock$")
	holder.Env = append(os.Environ(), "LULL_TEST_HOLD="+home)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "holding\n" {
		t.Fatalf("the holder said %q, %v", line, err)
	}
	var locked *LockedError
	if _, err := s.Resume(id); !errors.As(err, &locked) || locked.PID != holder.Process.Pid {
		t.Fatalf("Resume while another process holds it: %v (holder pid %d)", err, holder.Process.Pid)
	}
	holder.Process.Kill()
	holder.Wait()
	sess, err := s.Resume(id)
	if err != nil {
		t.Fatalf("Resume after the holder was killed: %v", err)
	}
	sess.Close()
}

// TestHoldLock is the holder process of TestKilledHolderFreesTheLock.
func TestHoldLock(t *testing.T) {
	home := os.Getenv("LULL_TEST_HOLD")
	if home == "" {
		t.Skip("run by TestKilledHolderFreesTheLock")
	}
	s, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resume(id); err != nil {
		t.Fatal(err)
	}
	fmt.Println("holding")
	time.Sleep(time.Minute)
}
