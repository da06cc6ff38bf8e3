package awake

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// tool writes a script named name that logs its start and end to a file,
// running its command (or sleeping) in between.
func tool(t *testing.T, name, body string) (path, log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "log")
	path = filepath.Join(dir, name)
	script := fmt.Sprintf("#!/bin/sh\necho \"start $*\" >> %[1]s\n%[2]s\necho end >> %[1]s\n", log, body)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, log
}

func lookIn(paths map[string]string) func(string) (string, error) {
	return func(name string) (string, error) {
		if p, ok := paths[name]; ok {
			return p, nil
		}
		if name == "cat" {
			return exec.LookPath("cat")
		}
		return "", exec.ErrNotFound
	}
}

// until polls the log until it has lines equal to want.
func until(t *testing.T, log string, want ...string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(log)
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				got = append(got, strings.Fields(l)[0])
			}
		}
		if strings.Join(got, " ") == strings.Join(want, " ") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("log %q, want %q", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestSystemdInhibitHeldWhileHeld(t *testing.T) {
	path, log := tool(t, "systemd-inhibit", `while [ $# -gt 0 ]; do case "$1" in --*) shift ;; *) break ;; esac; done; "$@"`)
	k := New(Options{OS: "linux", LookPath: lookIn(map[string]string{"systemd-inhibit": path}), Why: "testing"})
	k.Hold()
	k.Hold() // once is enough
	until(t, log, "start")
	b, _ := os.ReadFile(log)
	if !strings.Contains(string(b), "--what=sleep:idle --who=lull --why=testing --mode=block /") {
		t.Errorf("systemd-inhibit ran as %q", b)
	}
	k.Release()
	until(t, log, "start", "end")
	k.Release()
	k.Hold()
	until(t, log, "start", "end", "start")
	k.Release()
	until(t, log, "start", "end", "start", "end")
}

func TestCaffeinateWatchesLull(t *testing.T) {
	path, log := tool(t, "caffeinate", "exec sleep 600")
	k := New(Options{OS: "darwin", LookPath: lookIn(map[string]string{"caffeinate": path})})
	k.Hold()
	until(t, log, "start")
	b, _ := os.ReadFile(log)
	if want := fmt.Sprintf("start -i -w %d", os.Getpid()); strings.TrimSpace(string(b)) != want {
		t.Errorf("caffeinate ran as %q, want %q", b, want)
	}
	c := k.(*child)
	c.mu.Lock()
	h := c.held
	c.mu.Unlock()
	k.Release() // killed: the script never writes its end
	select {
	case <-h.done:
	case <-time.After(30 * time.Second):
		t.Error("caffeinate still runs after Release")
	}
}

// A tool that fails on its own (no logind in a container) is logged once
// and not started again; a missing one is nothing at all.
func TestFailingOrMissingTool(t *testing.T) {
	path, log := tool(t, "systemd-inhibit", "echo 'Failed to connect to bus' >&2; exit 1")
	var out lockedBuffer
	k := New(Options{OS: "linux", LookPath: lookIn(map[string]string{"systemd-inhibit": path}), Logger: slog.New(slog.NewTextHandler(&out, nil))})
	k.Hold()
	until(t, log, "start")
	c := k.(*child)
	deadline := time.Now().Add(30 * time.Second)
	for !c.isBroken() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	k.Release()
	k.Hold()
	k.Release()
	until(t, log, "start")
	if !strings.Contains(out.String(), "Failed to connect to bus") {
		t.Errorf("the log does not say why: %s", out.String())
	}
	if _, ok := New(Options{OS: "linux", LookPath: func(string) (string, error) { return "", errors.New("no") }}).(Off); !ok {
		t.Error("no systemd-inhibit, and the keeper is not Off")
	}
	if _, ok := New(Options{OS: "plan9"}).(Off); !ok {
		t.Error("no tool for the platform, and the keeper is not Off")
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
