package app

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// A session whose folder is removed while it runs plays on, and closing
// it says it was not saved and that nothing of it was kept.
func TestCloseSaysWhenTheFolderIsGone(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	r, err := a.Start(engine.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir, err := a.Store().Dir(r.ID())
	if err != nil {
		t.Fatal(err)
	}
	// The session saves as it plays: a file it writes while the folder is
	// being removed leaves it "not empty"; removed again, it is gone (a
	// save does not make the folder again).
	for deadline := time.Now().Add(60 * time.Second); ; {
		err := os.RemoveAll(dir)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.ENOTEMPTY) || time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	select {
	case <-r.Done():
	case <-time.After(5 * time.Minute): // bounds a failure only: a busy machine
		t.Fatal("the session did not end")
	}
	if r.Snapshot().Status != engine.Completed {
		t.Fatalf("the session is %s", r.Snapshot().Status)
	}
	err = r.Close()
	var unsaved *UnsavedError
	if !errors.As(err, &unsaved) || !unsaved.Disk.Gone || unsaved.ID != r.ID() {
		t.Fatalf("Close: %v", err)
	}
	if want := fmt.Sprintf("Its folder %s is gone: nothing of it was kept.", dir); !strings.Contains(err.Error(), want) {
		t.Errorf("Close says %q, want it to say %q", err, want)
	}
	if again := r.Unsaved(); again == nil || again.Error() != unsaved.Error() {
		t.Errorf("Unsaved after Close: %v", again)
	}
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the folder is there again: %v", err)
	}
}

// What the message says for each state of the disk.
func TestUnsavedWords(t *testing.T) {
	t.Parallel()
	at, _ := engine.NewState("20261123-101500-x7kq", engine.Options{Length: 20 * time.Minute}, time.Now())
	at.Status, at.Phase, at.Elapsed = engine.Paused, engine.Breathing, 150*time.Second
	at.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
	at.Phases[engine.Breathing].Status = engine.PhaseActive
	at.Position = engine.Position{Phase: engine.Breathing}
	done := at
	done.Status = engine.Completed
	full := fmt.Errorf("saving session 20261123-101500-x7kq: writing session.yaml.tmp: %w", syscall.ENOSPC)
	cases := []struct {
		err  error
		disk sessions.OnDisk
		want []string
	}{
		{full, sessions.OnDisk{State: at}, []string{
			"session 20261123-101500-x7kq was not saved: saving session 20261123-101500-x7kq: writing session.yaml.tmp: no space left on device.\n" +
				"On disk it is still at Breathing, 2:30 of 20:00.\n" +
				"Free some space on its disk, then resume it with:\n  lull resume 20261123-101500-x7kq"}},
		{fmt.Errorf("writing: %w", syscall.EROFS), sessions.OnDisk{State: at}, []string{"Make its disk writable again, then resume it with:"}},
		{errors.New("the disk is cursed"), sessions.OnDisk{State: at}, []string{"Once the cause is fixed, then resume it with:"}},
		{errors.Join(errors.New("writing the transcript: no space"), full), sessions.OnDisk{State: at},
			[]string{"was not saved: writing the transcript: no space; saving session", "Free some space on its disk"}},
		{full, sessions.OnDisk{Folder: "/x/sessions/20261123-101500-x7kq", Gone: true},
			[]string{"Its folder /x/sessions/20261123-101500-x7kq is gone: nothing of it was kept."}},
		{full, sessions.OnDisk{Err: errors.New("permission denied")},
			[]string{"What its files hold could not be read back either: permission denied."}},
		{full, sessions.OnDisk{Folder: "/x/s", State: done},
			[]string{"On disk it is completed, but its transcript may lack its last lines; they are kept in /x/s."}},
	}
	for _, c := range cases {
		got := (&UnsavedError{ID: "20261123-101500-x7kq", Err: c.err, Disk: c.disk}).Error()
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q\ndoes not say %q", got, w)
			}
		}
		if (c.disk.Gone || c.disk.Err != nil || c.disk.State.Status.Finished()) && strings.Contains(got, "lull resume") {
			t.Errorf("%q offers to resume what cannot be", got)
		}
	}
}
