package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/human"
)

// exportFormats are what lull sessions export writes.
var exportFormats = []string{"md", "txt", "json", "wav"}

var exportHelp = help{
	use:   "export ID --format md|txt|json|wav [--out FILE]",
	short: "Export a session's words as Markdown, text or JSON, or hear them again as a WAV file",
	long: "Write a session out, to standard output or to --out FILE:\n" +
		"  md    clean Markdown: a title, a summary, a heading per phase and its sentences\n" +
		"  txt   plain text, wrapped at 72 columns\n" +
		"  json  the whole session as JSON, its history included (format " + sessionFormat + ")\n" +
		"  wav   its words spoken again, paced afresh, with its voice and soundscape,\n" +
		"        as a WAV file as long as the session (needs --out; - streams it to a pipe)\n\n" +
		"A file appears only once it is whole; an existing file you name is replaced.\n" +
		"A folder, a device, and lull's own files are refused. Exporting makes no\n" +
		"new session.",
	example: "  lull sessions export 20261123-120000-k3f9 --format md\n" +
		"  lull sessions export 20261123-120000-k3f9 --format json --out calm.json\n" +
		"  lull sessions export 20261123-120000-k3f9 --format wav --out calm.wav",
}

func (c *cli) exportCmd() *cobra.Command {
	var format, out string
	cmd := exportHelp.command(cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		format = strings.ToLower(strings.TrimSpace(format))
		switch format {
		case "md", "txt", "json":
		case "wav":
			if out == "" {
				return errors.New("--format wav needs somewhere to write: --out FILE.wav (or --out - into a pipe)")
			}
		case "":
			return fmt.Errorf("say which format: --format %s", strings.Join(exportFormats, ", --format "))
		default:
			return fmt.Errorf("--format %q: choose md, txt, json or wav", format)
		}
		return c.withEnv(func(env *environment) error { return c.export(env, args[0], format, out) })
	})
	cmd.Flags().StringVarP(&format, "format", "f", "", "md, txt, json or wav")
	cmd.Flags().StringVarP(&out, "out", "o", "", "the file to write (default: standard output; required for wav)")
	return cmd
}

// export writes session id in format to out ("" or "-": standard output).
func (c *cli) export(env *environment, id, format, out string) error {
	st, report, err := env.app.Read(id)
	if err != nil {
		return err
	}
	for _, n := range report.Notes {
		c.note(n)
	}
	if out != "" && out != "-" {
		if err := checkExportPath(out, env); err != nil {
			return err
		}
	}
	if format == "wav" {
		return c.exportWAV(env, id, out)
	}
	var data []byte
	switch format {
	case "md":
		data = exportMarkdown(st)
	case "txt":
		data = exportText(st)
	case "json":
		if data, err = exportJSON(st); err != nil {
			return err
		}
	}
	if out == "" || out == "-" {
		_, err := c.stdout.Write(data)
		return err
	}
	t, err := openTarget(context.Background(), out, targetFlag{"--out", "session." + format}, c.stderr)
	if err != nil {
		return err
	}
	defer t.discard()
	if _, err := t.f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", out, human.Bare(err))
	}
	if err := t.commit(); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	fprintf(c.stderr, "Exported session %s as %s → %s\n", human.Line(id), format, human.Line(out))
	return nil
}

// exportWAV speaks the session's words again into a WAV file, as lull
// render does, but makes no session.
func (c *cli) exportWAV(env *environment, id, out string) error {
	ends := watchEnding(nil)
	defer ends.stop()
	ctx, stop := ends.asContext()
	defer stop()
	sound, err := openTarget(ctx, out, targetFlag{"--out", "session.wav"}, c.stderr)
	if err != nil {
		return err
	}
	defer sound.discard()
	fprintf(c.stderr, "Rendering the words of session %s again → %s\n", human.Line(id), sound.name)
	var progress *renderProgress
	final, err := env.app.RenderWords(ctx, id, sound.writer(), func(total time.Duration, written func() time.Duration) {
		progress = showProgress(c.stderr, total, written)
	})
	if progress != nil {
		progress.end(err == nil && ctx.Err() == nil)
	}
	if ctx.Err() != nil {
		sig, _ := ends.Signal()
		return &exitError{code: exitCode(sig), err: errors.New("export stopped; nothing was written")}
	}
	if oerr := outputFailed(sound, err); oerr != nil {
		return oerr
	}
	if err != nil {
		return fmt.Errorf("exporting session %s as WAV: %w", id, err)
	}
	if err := sound.commit(); err != nil {
		return fmt.Errorf("writing %s: %w", sound.name, err)
	}
	heard := final.WithTail(final.Elapsed)
	fprintf(c.stderr, "Exported %s · %d sentences → %s\n", human.Clock(heard.Round(1e9)), final.Spoken(), sound.name)
	return nil
}

// checkExportPath refuses what an export must never write over: a
// device, and lull's own files (its sessions, its config and its log).
// A folder is refused by openTarget, with a file name to suggest.
func checkExportPath(name string, env *environment) error {
	if info, err := os.Stat(name); err == nil && info.Mode()&(fs.ModeDevice|fs.ModeCharDevice) != 0 {
		return fmt.Errorf("--out %s is a device: an export is written to a file; name one, like --out session.md", name)
	}
	path := resolved(name)
	own := []string{resolved(env.paths.Config), resolved(env.paths.Log)}
	dirs := []string{resolved(filepath.Join(env.paths.Data, "sessions"))}
	if os.Getenv("LULL_HOME") == "" {
		dirs = append(dirs, resolved(env.paths.Data)) // the XDG data folder is lull's alone
	}
	for _, o := range own {
		if path == o {
			return fmt.Errorf("--out %s is lull's own file: name another file for the export", name)
		}
	}
	for _, d := range dirs {
		if path == d || strings.HasPrefix(path, d+string(filepath.Separator)) {
			return fmt.Errorf("--out %s is inside lull's own folder %s: name a file elsewhere for the export", name, d)
		}
	}
	return nil
}

// resolved is path made absolute, links followed as far as it exists.
func resolved(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}
