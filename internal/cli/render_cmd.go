package cli

import (
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

var renderHelp = help{
	use:   "render --out FILE.wav",
	short: "Write a whole session to a WAV file, as fast as it can be made",
	long: "Render a session to a 16-bit WAV file instead of playing it: the voice, the\n" +
		"soundscape and the chimes, exactly as they would sound, as fast as the voice\n" +
		"can be synthesized. The session is saved like any other.\n\n" +
		"A file appears only once it is whole. --out - streams the WAV to standard\n" +
		"output, and a named pipe or a device such as /dev/null is written in place;\n" +
		"a folder, a socket or a disk is refused. If writing fails (a full disk), the\n" +
		"render stops at once and the session is saved paused.",
	example: "  lull render --length 10 --out calm.wav\n  lull render --length 20 --seed 7 --voice espeak-ng --soundscape rain --out rain.wav --captions rain.vtt\n  lull render --length 10 --out - | aplay",
}

func (c *cli) renderCmd() *cobra.Command {
	var f newFlags
	var out, captions string
	cmd := renderHelp.command(cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		if out == "" {
			return errors.New("say where to write the file: --out FILE.wav")
		}
		opts, sleep, err := f.options(cmd.Flags())
		if err != nil {
			return err
		}
		return c.withEnv(func(env *environment) error {
			sleep.tail(&opts, env.app.Config())
			return c.render(env, opts, out, captions, sleep.notes())
		})
	})
	fl := cmd.Flags()
	fl.StringVarP(&out, "out", "o", "", "the WAV file to write; - streams it to standard output, and a named pipe or /dev/null is written in place")
	fl.StringVar(&captions, "captions", "", "also write the spoken words, timed, as WebVTT captions to this file (or -)")
	f.addSession(fl)
	c.addGuideFlags(fl)
	return cmd
}

// render writes the session to out (and its captions), each a target:
// a file only ever appears whole under its name, and what is written in
// place (a FIFO, a device, standard output) is streamed. When out or the
// captions go to standard output, everything lull says goes to stderr.
func (c *cli) render(env *environment, opts engine.Options, out, captions string, notes []string) error {
	ends := watchEnding(nil)
	defer ends.stop()
	signals, stop := ends.asContext()
	defer stop()
	if out == captions {
		return errors.New("--out and --captions name the same file: give each its own")
	}
	if out == "-" || captions == "-" {
		// Standard output carries the render alone: all lull says goes to stderr.
		defer func(stdout io.Writer) { c.stdout = stdout }(c.stdout)
		c.stdout = c.stderr
	}
	sound, err := openTarget(signals, out, targetFlag{"--out", "session.wav"}, c.stderr)
	if err != nil {
		return err
	}
	defer sound.discard()
	var vtt *target
	if captions != "" {
		if vtt, err = openTarget(signals, captions, targetFlag{"--captions", "session.vtt"}, c.stderr); err != nil {
			return err
		}
		defer vtt.discard()
	}

	began := time.Now()
	r, err := env.app.Render(opts, sound.writer())
	if err != nil {
		return c.startError(err)
	}
	for _, n := range append(notes, r.Notices()...) {
		c.note(n)
	}
	st := r.Snapshot()
	fprintf(c.stderr, "Rendering session %s · %d min · seed %d → %s\n", st.ID, int(st.Length.Minutes()), st.Seed, sound.name)
	progress := showProgress(c.stderr, st.WithTail(st.Length), r.Played) // the sound after a sleep session's words is in the file too

	select {
	case <-r.Done():
	case <-ends.Done():
		progress.end(false)
		// A reader that stopped reading must not hold the stop up: the
		// output is let go of first, and what it would still say is moot.
		sig, _ := ends.Signal()
		sound.discard()
		vtt.discard()
		if unsaved := new(app.UnsavedError); errors.As(r.Close(), &unsaved) {
			return &exitError{code: exitCode(sig), err: fmt.Errorf("render stopped.\n%v", unsaved)}
		}
		if final := r.Snapshot(); final.Status != engine.Paused {
			return &exitError{code: exitCode(sig), err: fmt.Errorf("render stopped; the session is saved (%s) as %s", final.Status, st.ID)}
		}
		return &exitError{code: exitCode(sig), err: fmt.Errorf("render stopped; the session is saved paused: %s", human.Command("resume "+st.ID))}
	}
	progress.halt()
	runErr := r.Err()
	closeErr := r.Close() // finishes the WAV file; a running session is saved paused
	final := r.Snapshot()
	progress.end(runErr == nil && closeErr == nil && final.Status == engine.Completed)
	if err := outputFailed(sound, runErr, closeErr); err != nil {
		if unsaved := new(app.UnsavedError); errors.As(closeErr, &unsaved) {
			return fmt.Errorf("%w.\n%v", err, unsaved) // never "saved" when it was not
		}
		if final.Status == engine.Paused {
			return fmt.Errorf("%w. The session is saved paused: %s", err, human.Command("resume "+st.ID))
		}
		return fmt.Errorf("%w. The session is saved (%s) as %s", err, final.Status, st.ID)
	}
	if runErr != nil || closeErr != nil || final.Status != engine.Completed {
		return fmt.Errorf("render of session %s failed (%s): %w", st.ID, final.Status, errors.Join(runErr, closeErr))
	}
	if err := sound.commit(); err != nil {
		return fmt.Errorf("writing %s: %w", sound.name, err)
	}
	if vtt != nil {
		err := writeCaptions(vtt.f, r.Timeline())
		if err == nil {
			err = vtt.commit()
		}
		if err != nil {
			return fmt.Errorf("writing captions to %s: %w", vtt.name, human.Bare(err))
		}
	}
	took := time.Since(began)
	// A sleep session's file runs on past its words, by the sound after them.
	heard, after := final.WithTail(final.Elapsed), ""
	if final.Sleep && final.SleepTail > 0 {
		after = fmt.Sprintf(" and %s of sound after them", human.Clock(final.SleepTail))
	}
	fprintf(c.stdout, "Rendered %s · %d sentences%s → %s in %s (%.0f× real time). Saved as %s.\n",
		human.Clock(final.Elapsed), final.Spoken(), after, sound.name, took.Round(100*time.Millisecond),
		heard.Seconds()/took.Seconds(), final.ID)
	return nil
}

// outputFailed explains a render whose sound could not be written (a
// full disk, a reader that went away), or is nil.
func outputFailed(sound *target, errs ...error) error {
	var oe *audio.OutputError
	if !errors.As(errors.Join(errs...), &oe) {
		return nil
	}
	switch {
	case errors.Is(oe.Err, syscall.EPIPE):
		return fmt.Errorf("the program reading %s stopped reading; the render is cut short", sound.name)
	case sound.streamed():
		return fmt.Errorf("writing %s failed: %w", sound.name, oe.Err)
	default:
		return fmt.Errorf("writing %s failed: %w; nothing was left under that name", sound.name, oe.Err)
	}
}
