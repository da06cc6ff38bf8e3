//go:build unix

package cli

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/sys/unix"

	"github.com/lull-dev/lull/internal/tui"
)

// jobControl reports whether lull runs as a job of a shell that does job
// control — in a process group of its own, under a parent in its session
// — so a stopped lull can be brought back with fg. Without one (lull run
// straight by tmux, ssh or a script), nothing would continue it (and in
// an orphaned process group the kernel ignores SIGTSTP altogether).
func jobControl() bool {
	sid, err := unix.Getsid(0)
	if err != nil || unix.Getpgrp() == sid {
		return false
	}
	parent, err := unix.Getsid(os.Getppid())
	return err == nil && parent == sid
}

// stopJob stops lull's job, as Ctrl-Z at a shell stops it, and returns
// once the shell continues it. lull catches SIGTSTP (to pause first), and
// a Go program that has caught SIGTSTP can no longer be stopped by it, so
// the stop is SIGSTOP, sent to the whole job as the terminal sends its own.
func stopJob() error {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	if err := unix.Kill(0, unix.SIGSTOP); err != nil {
		return err
	}
	<-cont
	return nil
}

// forwardStops passes each SIGTSTP (kill -TSTP, or the terminal's own
// when not in raw mode) to the screen, which pauses and suspends as on
// Ctrl-Z. Call the result once the screen has ended.
func forwardStops(p *tea.Program) (stop func()) {
	stops := make(chan os.Signal, 1)
	signal.Notify(stops, syscall.SIGTSTP)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case <-stops:
				p.Send(tui.StopMsg{}) // returns at once once the program has ended
			case <-quit:
				return
			}
		}
	}()
	return func() {
		signal.Stop(stops)
		close(quit)
	}
}
