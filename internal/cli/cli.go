// Package cli is lull's command line: one file per command. It wires
// flags and config to the store, the sound and an engine per session,
// then hands over to the TUI or the headless runner.
package cli

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/redact"
	"github.com/lull-dev/lull/internal/sessions"
)

// version is what lull version says: the build's (see Main).
var version = "dev"

// Main runs lull with args and returns its exit code. built is the version
// a release build was given; without it, the module's version when lull
// was built with go install, else "dev".
func Main(built string, args []string, stdout, stderr io.Writer) int {
	version = buildVersion(built)
	return run(args, stdout, stderr)
}

// buildVersion is built, or the version go install recorded, or "dev".
func buildVersion(built string) string {
	if built != "" {
		return built
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

// exitError carries an exit code other than 1.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func run(args []string, stdout, stderr io.Writer) int {
	// The keys are known to the redactor before anything can print or
	// log them.
	for _, name := range keyVariables {
		redact.Key(os.Getenv(name))
	}
	root := newRoot(&cli{stdout: stdout, stderr: stderr})
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fprint(stderr, "lull: "+human.Lines(ee.err.Error())+"\n")
		}
		return ee.code
	}
	// An error may quote an id, an intention, a path or a provider's words.
	fprint(stderr, "lull: "+human.Lines(err.Error())+"\n")
	return 1
}

// environment is what every command needs: paths, config, log, the app.
type environment struct {
	paths app.Paths
	log   *slog.Logger
	logf  *os.File
	app   *app.App
}

func (c *cli) open() (*environment, error) {
	data, err := sessions.Home()
	if err != nil {
		return nil, err
	}
	paths, err := app.ResolvePaths(data)
	if err != nil {
		return nil, err
	}
	scale, err := timeScale()
	if err != nil {
		return nil, err
	}
	cfg, err := app.LoadConfig(paths.Config)
	if err != nil {
		return nil, fmt.Errorf("%w\nMend it with: lull config edit", err)
	}
	choice, err := app.ChooseGuide(cfg, c.guide, os.Getenv)
	if err != nil {
		return nil, err
	}
	level, err := logLevel()
	if err != nil {
		return nil, err
	}
	env := &environment{paths: paths}
	var logErr error
	env.log, env.logf, logErr = openLog(paths.Log, level)
	env.log = redacted(env.log)
	env.app, err = app.New(app.Options{Paths: paths, Config: cfg, Voices: cfg.Voices(os.Getenv), Guide: choice, TimeScale: scale, Logger: env.log,
		Quiet: func() func() { return redirectStderr(env.logf) }})
	if err != nil {
		env.close()
		return nil, err
	}
	if logErr != nil {
		// Said once the run is sure to go on: a data folder refused says enough.
		fprintf(c.stderr, "lull: not logging to %s: %v. This run goes on without a log.\n", paths.Log, logErr)
	}
	return env, nil
}

func (e *environment) close() {
	if e.app != nil {
		e.app.Close()
	}
	if e.logf != nil {
		e.logf.Close()
	}
}

// logMost is the size past which the log is moved aside (to lull.log.1)
// when lull starts: a log never fills a disk.
const logMost = 5 << 20

// openLog sets up logging to a file before anything else runs. The log
// gets a session file's trust rules (sessions.OpenLog): a log that is
// a link, someone else's, or writable by others is left alone, never
// appended to, moved or chmod-ed. A log that cannot be used must not stop
// a session: lull goes on without one, and err says why, to tell once.
func openLog(path string, level slog.Level) (*slog.Logger, *os.File, error) {
	f, err := sessions.OpenLog(path, logMost)
	if err != nil {
		return slog.New(slog.DiscardHandler), nil, err
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level})), f, nil
}

// logLevel reads LULL_LOG_LEVEL: debug, info (the default), warn or error.
func logLevel() (slog.Level, error) {
	v := strings.TrimSpace(os.Getenv("LULL_LOG_LEVEL"))
	if v == "" {
		return slog.LevelInfo, nil
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(v)); err != nil || strings.ContainsAny(v, "+-") {
		return 0, fmt.Errorf("LULL_LOG_LEVEL=%q: want debug, info, warn or error", v)
	}
	return l, nil
}

// redacted wraps the log so that nothing reaches it unredacted: a
// provider's error that echoes a key, a URL with a token.
func redacted(log *slog.Logger) *slog.Logger {
	return slog.New(redact.Handler(log.Handler()))
}

// LULL_TIME_SCALE's bounds. Above 10000 a 60-minute session would pass
// in a third of a second: no pacing is left to speed up, only the voice's
// synthesis, so larger numbers say nothing more. Below 0.1 (ten times
// slower) a session would last up to ten hours: nobody's demo.
const (
	minTimeScale = 0.1
	maxTimeScale = 10000
)

// timeScale reads LULL_TIME_SCALE: all pacing runs N times faster.
func timeScale() (float64, error) {
	v := os.Getenv("LULL_TIME_SCALE")
	if v == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	// NaN compares false with everything: it must be refused by name.
	if err != nil || math.IsNaN(f) || f < minTimeScale || f > maxTimeScale {
		return 0, fmt.Errorf("LULL_TIME_SCALE=%q: want a number from %g to %g (1 is real time; 100 runs a session 100 times faster)",
			v, float64(minTimeScale), float64(maxTimeScale))
	}
	return f, nil
}
