// Package awake asks the operating system not to sleep while a session
// plays: systemd-inhibit on Linux, caffeinate on macOS, where they are
// installed; elsewhere nothing. The tool runs as a child that cannot
// outlive lull: systemd-inhibit holds its lock for as long as the command
// it runs, here a cat reading a pipe only lull writes to, which ends when
// lull closes it or dies; caffeinate -w watches lull's pid.
package awake

import (
	"bytes"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Keeper is what a run asks to keep the machine awake. Both calls are
// cheap, idempotent and never fail: a machine that cannot be kept awake
// just sleeps as it would have, and the log says why.
type Keeper interface {
	Hold()    // a session plays
	Release() // it paused, stopped or ended
}

// Options choose the tool. The zero value looks on PATH for the
// platform's own.
type Options struct {
	Why    string // shown by systemd-inhibit --list
	Logger *slog.Logger
	// OS and LookPath stand in for runtime.GOOS and exec.LookPath.
	OS       string
	LookPath func(string) (string, error)
}

// New returns the platform's keeper, or one that does nothing when its
// tool is not installed.
func New(o Options) Keeper {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.OS == "" {
		o.OS = runtime.GOOS
	}
	if o.LookPath == nil {
		o.LookPath = exec.LookPath
	}
	if o.Why == "" {
		o.Why = "a relaxation session is playing"
	}
	var argv func() ([]string, bool)
	switch o.OS {
	case "linux":
		tool, err1 := o.LookPath("systemd-inhibit")
		cat, err2 := o.LookPath("cat")
		if err1 != nil || err2 != nil {
			o.Logger.Debug("keep awake: no systemd-inhibit (or cat) on PATH; the machine may sleep mid-session")
			return Off{}
		}
		argv = func() ([]string, bool) {
			return []string{tool, "--what=sleep:idle", "--who=lull", "--why=" + o.Why, "--mode=block", cat}, true
		}
	case "darwin":
		tool, err := o.LookPath("caffeinate")
		if err != nil {
			o.Logger.Debug("keep awake: no caffeinate on PATH; the machine may sleep mid-session")
			return Off{}
		}
		argv = func() ([]string, bool) {
			return []string{tool, "-i", "-w", strconv.Itoa(os.Getpid())}, false
		}
	default:
		return Off{}
	}
	return &child{argv: argv, log: o.Logger}
}

// Off keeps nothing awake: keep_awake: false, or no tool.
type Off struct{}

func (Off) Hold()    {}
func (Off) Release() {}

// child runs the tool while held.
type child struct {
	argv func() (args []string, piped bool) // piped: it lives as long as its stdin is open
	log  *slog.Logger

	mu     sync.Mutex
	held   *holding
	broken bool // the tool failed on its own: it is not asked again
}

// holding is one run of the tool.
type holding struct {
	cmd      *exec.Cmd
	pipe     *os.File // lull's end of the child's stdin; nil for caffeinate
	released bool     // lull let it go (under child.mu)
	done     chan struct{}
}

func (c *child) Hold() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held != nil || c.broken {
		return
	}
	args, piped := c.argv()
	cmd := exec.Command(args[0], args[1:]...)
	stderr := &capped{max: 512}
	cmd.Stderr = stderr
	var w *os.File
	if piped {
		r, pw, err := os.Pipe() // close-on-exec: no other child keeps it open
		if err != nil {
			c.log.Warn("keep awake: no pipe", "err", err)
			return
		}
		cmd.Stdin = r
		defer r.Close() // the child has its own copy once started
		w = pw
	}
	if err := cmd.Start(); err != nil {
		if w != nil {
			w.Close()
		}
		c.broken = true
		c.log.Warn("keep awake: could not start "+args[0], "err", err)
		return
	}
	h := &holding{cmd: cmd, pipe: w, done: make(chan struct{})}
	c.held = h
	c.log.Debug("keep awake: holding", "pid", cmd.Process.Pid, "tool", args[0])
	go c.wait(h, stderr)
}

// wait reaps the tool; one that ends before it was let go failed (no
// logind, say, in a container) and is not started again.
func (c *child) wait(h *holding, stderr *capped) {
	err := h.cmd.Wait()
	c.mu.Lock()
	released := h.released
	if c.held == h {
		c.held = nil
	}
	if !released {
		// Said before it is marked broken, under the lock: whoever sees it
		// broken can read why in the log.
		c.log.Warn("keep awake: the tool stopped on its own; the machine may sleep mid-session",
			"err", err, "stderr", strings.TrimSpace(stderr.String()))
		c.broken = true
		if h.pipe != nil {
			h.pipe.Close()
		}
	}
	c.mu.Unlock()
	close(h.done)
}

func (c *child) Release() {
	c.mu.Lock()
	h := c.held
	c.held = nil
	if h != nil {
		h.released = true
	}
	c.mu.Unlock()
	if h == nil {
		return
	}
	if h.pipe != nil {
		h.pipe.Close() // cat reads the end of its input and the lock goes with it
	} else {
		_ = h.cmd.Process.Kill()
	}
	go func() {
		select {
		case <-h.done:
		case <-time.After(10 * time.Second):
			_ = h.cmd.Process.Kill() // a tool that does not notice: no lock outlives the session
		}
	}()
}

// capped keeps the first max bytes written: enough of a tool's complaint
// for the log.
type capped struct {
	mu  sync.Mutex
	b   bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.b.String()
}

// isBroken is for tests.
func (c *child) isBroken() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broken
}
