package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"lull/engine"
	"lull/human"
)

func (c *cli) renderCmd() *cobra.Command {
	var f newFlags
	var out, captions string
	cmd := &cobra.Command{
		Use:   "render --out FILE.wav",
		Short: "Write a whole session to a WAV file, as fast as it can be made",
		Long: "Render a session to a 16-bit WAV file instead of playing it: the voice, the\n" +
			"soundscape and the chimes, exactly as they would sound, as fast as the voice\n" +
			"can be synthesized. The session is saved like any other.",
		Example: "  lull render --length 10 --out calm.wav\n  lull render --length 20 --seed 7 --voice espeak-ng --soundscape rain --out rain.wav --captions rain.vtt",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return errors.New("say where to write the file: --out FILE.wav")
			}
			opts, err := f.options()
			if err != nil {
				return err
			}
			return c.withEnv(func(env *environment) error { return c.render(env, opts, out, captions) })
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&out, "out", "o", "", "the WAV file to write")
	fl.StringVar(&captions, "captions", "", "also write the spoken words, timed, as WebVTT captions to this file")
	fl.StringVarP(&f.length, "length", "l", "", "session length in minutes, 5–60 (10, or 10m)")
	fl.StringVarP(&f.intention, "intention", "i", "", "what you come for: \"sleep\", \"calm before a talk\"")
	fl.Int64Var(&f.seed, "seed", 0, "seed for the built-in guide: the same seed gives the same session")
	fl.StringVar(&f.voice, "voice", "", "voice: auto, a voice's name, or none")
	fl.StringVar(&f.soundscape, "soundscape", "", "soundscape, or none")
	c.addGuideFlags(fl)
	return cmd
}

// render writes the session into a temporary file beside out and moves it
// into place only once it is whole: a cancelled or failed render never
// leaves half a file under the name asked for.
func (c *cli) render(env *environment, opts engine.Options, out, captions string) error {
	signals, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", out, err)
	}
	keep := false
	defer func() {
		if !keep {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	began := time.Now()
	r, err := env.app.Render(opts, tmp)
	if err != nil {
		return c.startError(err)
	}
	for _, n := range r.Notices() {
		c.note(n)
	}
	st := r.Snapshot()
	fmt.Fprintf(c.stderr, "Rendering session %s · %d min · seed %d → %s\n", st.ID, int(st.Length.Minutes()), st.Seed, out)

	select {
	case <-r.Done():
	case <-signals.Done():
		r.Close()
		return &exitError{code: 130, err: fmt.Errorf("render stopped; the session is saved paused: lull resume %s", st.ID)}
	}
	runErr := r.Err()
	closeErr := r.Close() // finishes the WAV file
	final := r.Snapshot()
	if runErr != nil || closeErr != nil || final.Status != engine.Completed {
		return fmt.Errorf("render of session %s failed (%s): %w", st.ID, final.Status, errors.Join(runErr, closeErr))
	}
	if err := errors.Join(tmp.Sync(), tmp.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	keep = true
	if captions != "" {
		if err := writeCaptions(captions, r.Timeline()); err != nil {
			return fmt.Errorf("writing captions to %s: %w", captions, err)
		}
	}
	took := time.Since(began)
	fmt.Fprintf(c.stdout, "Rendered %s · %d sentences → %s in %s (%.0f× real time). Saved as %s.\n",
		human.Clock(final.Elapsed.Round(time.Second)), final.Spoken(), out, took.Round(100*time.Millisecond),
		final.Elapsed.Seconds()/took.Seconds(), final.ID)
	return nil
}
