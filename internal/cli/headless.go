package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/tui"
)

// addNoTUI adds --no-tui to a command that plays a session: headless
// instead of the screen.
func addNoTUI(fl *pflag.FlagSet, noTUI *bool) {
	fl.BoolVar(noTUI, "no-tui", false, "print each sentence as it is spoken, no screen")
}

// headless runs a session without a screen: each sentence is printed as it
// is spoken, with a line naming each phase as it begins — for scripts,
// screen readers and SSH. Ctrl-C, kill, a closed terminal and a reader that
// went away pause and save (see ending); the watch is in place before
// start opens the session, so no moment is left where they kill lull.
// Once a sleep session's words have ended and its sound plays on, Ctrl-C
// stops the sound: the session is complete.
// notes are said first, with the run's own notices.
func (c *cli) headless(start func() (*app.Run, error), notes ...string) error {
	ends := watchEnding(nil)
	defer ends.stop()
	defer catchBrokenPipe()()
	defer func(w io.Writer) { c.stdout = w }(c.stdout)
	c.stdout = readerGone{w: c.stdout, end: ends}
	r, err := start()
	if err != nil {
		return err
	}
	st := r.AtStart()
	switch st.Practice {
	case engine.PracticeBreathe:
		practiceHeader(c.stdout, st)
	case engine.PracticeSit:
		sitHeader(c.stdout, st)
	default:
		head := fmt.Sprintf("lull · session %s · %d min · seed %d", human.Line(st.ID), int(st.Length.Minutes()), st.Seed)
		if st.Intention != "" {
			head += " · intention: " + human.Line(st.Intention)
		}
		fprintln(c.stdout, head)
	}
	if st.Status != engine.Created && st.Practice == "" {
		fprintf(c.stdout, "\nPhase %d of 5: %s (resumed at sentence %d)\n", int(st.Phase)+1, st.Phase.Title(), st.Position.Sentence+1)
	}
	for _, n := range append(notes, r.Notices()...) {
		c.note(n)
	}

	follow, cancelFollow := context.WithCancel(context.Background())
	defer cancelFollow()
	go func() {
		select {
		case <-r.Done():
		case <-ends.Done():
		}
		cancelFollow()
	}()

	sub := r.Subscribe()
	defer sub.Close()
	for {
		evs, err := sub.Next(follow)
		for _, ev := range evs {
			c.print(ev)
		}
		if err == nil {
			continue
		}
		// The engine stopped or a signal came: print what is left, then say how it ended.
		for {
			evs, err := sub.Next(follow)
			if err != nil {
				break
			}
			for _, ev := range evs {
				c.print(ev)
			}
		}
		break
	}

	if sig, ok := ends.Signal(); ok {
		if err := r.Close(); err != nil {
			return &exitError{code: exitCode(sig), err: err}
		}
		final := r.Snapshot()
		if sig == syscall.SIGINT && final.Status == engine.Completed {
			// Ctrl-C while the sound plays on after a sleep session's
			// words stops the sound: the session is complete.
			return c.completed(final, nil)
		}
		if note := stoppedNote(final); note != "" {
			fprint(c.stderr, "\n"+note+"\n")
		}
		return &exitError{code: exitCode(sig)}
	}
	runErr := r.Err()
	closeErr := r.Close() // an *app.UnsavedError when the last save did not reach the disk
	final := r.Snapshot()
	switch {
	case final.Status == engine.Completed:
		return c.completed(final, closeErr)
	case errors.Is(runErr, engine.ErrAbandoned):
		return &exitError{code: 1, err: errors.Join(fmt.Errorf("session %s was cancelled", final.ID), closeErr)}
	case final.Status == engine.Interrupted && closeErr != nil:
		return &exitError{code: 1, err: fmt.Errorf("session %s is interrupted. %s\n%w", final.ID, llm.Explain(runErr), closeErr)}
	case final.Status == engine.Interrupted:
		return &exitError{code: 1, err: fmt.Errorf("session %s is interrupted. %s\nRetry with: %s\nOr try another model: %s\nOr carry on with the built-in guide: %s",
			final.ID, llm.Explain(runErr), human.Command("resume "+final.ID), human.Command("resume "+final.ID+" --model NAME"), human.Command("resume "+final.ID+" --guide builtin"))}
	default:
		return errors.Join(runErr, closeErr)
	}
}

// completed says a session is complete, and saved unless closeErr says
// what was not.
func (c *cli) completed(final engine.State, closeErr error) error {
	if final.Practice == engine.PracticeBreathe {
		return c.practiceCompleted(final, closeErr)
	}
	if final.Practice == engine.PracticeSit {
		return c.sitCompleted(final, closeErr)
	}
	done := fmt.Sprintf("\nSession complete · %s · %d sentences", human.Clock(final.Elapsed), final.Spoken())
	if s := final.Summary; s != nil && s.Tokens != (engine.Tokens{}) {
		done += " · " + human.Tokens(s.Tokens.In, s.Tokens.Out, s.Cost)
	}
	if closeErr != nil {
		fprintln(c.stdout, done+".") // and the error says what was not saved
		return closeErr
	}
	fprintf(c.stdout, "%s. Saved as %s.\n", done, final.ID)
	return nil
}

// print writes one event as a line. Its text came from a model, a
// provider or a file: it is made printable and redacted first.
func (c *cli) print(ev engine.Event) {
	switch ev.Kind {
	case engine.EventPhaseStarted:
		fprintf(c.stdout, "\nPhase %d of 5: %s\n", int(ev.Phase)+1, ev.Phase.Title())
	case engine.EventSentence:
		fprint(c.stdout, human.Line(ev.Text)+"\n")
	case engine.EventBreath:
		fmt.Fprintln(c.stdout, breathLine(ev))
	case engine.EventBell:
		fmt.Fprintln(c.stdout, bellLine(ev))
	case engine.EventNotice:
		c.note(ev.Text)
	case engine.EventError:
		if tui.GuideFailed(ev) {
			// Its text quotes the server's error: the log has it; the end
			// of the run, or the notice of the guide that carries on, says
			// it plainly.
			fprintln(c.stderr, "lull: the guide failed (the details are in lull's log)")
			break
		}
		fprintln(c.stderr, "lull: error:", human.Line(ev.Text))
	}
	if left, ok := tui.Drifting(ev); ok && ev.Status != engine.Paused {
		fprintf(c.stdout, "\n%s\n", tui.DriftLine(left, "Ctrl-C"))
	}
}
