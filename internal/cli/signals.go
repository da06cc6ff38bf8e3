package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/lull-dev/lull/internal/human"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/tui"
)

// What ends a session from outside lull — SIGINT (Ctrl-C, kill -INT),
// SIGTERM (kill), SIGHUP (the terminal closed) and an output nobody reads
// any more (SIGPIPE) — ends it as q does: paused and saved, with one line
// saying where it stopped and how to resume. lull then exits 128+n, the
// code a shell gives a process that signal ended, so a script can tell
// what happened, while the session is safe.
var endingSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// ending watches for what ends a session from outside. The first reason
// stands.
type ending struct {
	signals chan os.Signal
	quit    chan struct{}
	done    chan struct{}
	once    sync.Once
	sig     syscall.Signal // set before done closes
}

// watchEnding starts watching. Each signal is passed on to on as well
// (when it is not nil), with whether it is the first.
func watchEnding(on func(first bool)) *ending {
	e := &ending{signals: make(chan os.Signal, 4), quit: make(chan struct{}), done: make(chan struct{})}
	signal.Notify(e.signals, endingSignals...)
	go func() {
		for {
			select {
			case s := <-e.signals:
				first := e.end(s.(syscall.Signal))
				if on != nil {
					on(first)
				}
			case <-e.quit:
				return
			}
		}
	}()
	return e
}

// end records why the session ends, unless something already did.
func (e *ending) end(sig syscall.Signal) (first bool) {
	e.once.Do(func() {
		e.sig = sig
		first = true
		close(e.done)
	})
	return first
}

// Done is closed when something has ended the session.
func (e *ending) Done() <-chan struct{} { return e.done }

// Signal is what ended the session, if anything did.
func (e *ending) Signal() (syscall.Signal, bool) {
	select {
	case <-e.done:
		return e.sig, true
	default:
		return 0, false
	}
}

// asContext is a context cancelled once something ends the run, for work
// that takes a context (a render, an export); call stop when done.
func (e *ending) asContext() (ctx context.Context, stop context.CancelFunc) {
	ctx, stop = context.WithCancel(context.Background())
	go func() {
		select {
		case <-e.done:
			stop()
		case <-ctx.Done():
		}
	}()
	return ctx, stop
}

// exitCode is the code lull exits with after sig ended it.
func exitCode(sig syscall.Signal) int { return 128 + int(sig) }

// stop stops watching: from here on the signals act as they would
// without lull's handling.
func (e *ending) stop() {
	signal.Stop(e.signals)
	close(e.quit)
}

// stoppedNote says where a session that something ended stopped, and how
// to go on; empty when it is not left to resume (it completed meanwhile).
func stoppedNote(st engine.State) string {
	at := tui.StoppedAt(st)
	if at == "" {
		return ""
	}
	return at + ". " + unbroken("Resume with: "+human.Command("resume "+st.ID))
}

// readerGone watches writes to w and ends the session (as SIGPIPE) once
// nobody reads them any more: lull new --no-tui | head -2.
type readerGone struct {
	w   io.Writer
	end *ending
}

// Unwrap is the writer watched: its width is the output's (columns).
func (o readerGone) Unwrap() io.Writer { return o.w }

func (o readerGone) Write(b []byte) (int, error) {
	n, err := o.w.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		o.end.end(syscall.SIGPIPE)
	}
	return n, err
}

// catchBrokenPipe makes a write to a pipe whose reader has gone fail with
// EPIPE, where Go would otherwise kill lull with SIGPIPE on the first
// write to stdout, with the session unsaved. The signals themselves are
// dropped: the failed write is what counts, and a voice engine's broken
// pipe is no reason to end a session. Call the result to stop.
func catchBrokenPipe() (stop func()) {
	ignored := make(chan os.Signal, 1)
	signal.Notify(ignored, syscall.SIGPIPE)
	return func() { signal.Stop(ignored) }
}
