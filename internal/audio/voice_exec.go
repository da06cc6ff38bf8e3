package audio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/gopxl/beep/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// voiceError is a voice's failure, named after the voice, so the fallback
// can tell the listener what happened without repeating the name.
type voiceError struct {
	voice string
	err   error
}

func (e *voiceError) Error() string { return e.voice + ": " + e.err.Error() }
func (e *voiceError) Unwrap() error { return e.err }

// failed wraps what went wrong with a voice.
func failed(voice string, format string, args ...any) error {
	return &voiceError{voice: voice, err: fmt.Errorf(format, args...)}
}

// localTimeout bounds one sentence from a local engine: they take well
// under a second, and one that hangs must not stall the session.
const localTimeout = 20 * time.Second

// maxClipBytes bounds what a voice engine may hand back: a sentence is a
// few hundred kilobytes.
const maxClipBytes = 32 << 20

// Files a local engine works with, inside its private directory.
const (
	textFile = "text.txt"
	wavFile  = "out.wav"
)

// localEngine is a voice program on this machine that writes a sentence as
// a WAV file. Text reaches it through a file or stdin, never as an
// argument, so no sentence can read as an option.
type localEngine struct {
	name    string
	timeout time.Duration // 0: localTimeout
	// command builds the run for one line; dir holds textFile (the
	// line's text) and receives wavFile.
	command func(ctx context.Context, l engine.Line, dir string) *exec.Cmd
	// shape, when set, reworks the engine's samples at its own rate with
	// what it printed on stdout (flite's pauses).
	shape func(mono []float32, rate int, stdout []byte) []float32
}

// speak runs the engine in a private temporary directory, removed after.
// The sentence reaches the engine on standard input where it reads it
// there, and is written to a file only for one that reads files alone: a
// process killed mid-sentence leaves no private text behind it.
func (l *localEngine) speak(ctx context.Context, line engine.Line, rate beep.SampleRate) ([]float32, error) {
	text := line.Text
	timeout := l.timeout
	if timeout <= 0 {
		timeout = localTimeout
	}
	run, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	removeStaleVoiceDirs()
	dir, err := os.MkdirTemp("", voiceDirPrefix())
	if err != nil {
		return nil, failed(l.name, "no room for its files: %w", err)
	}
	defer os.RemoveAll(dir)

	cmd := l.command(run, line, dir)
	if cmd.Stdin == nil {
		if err := os.WriteFile(filepath.Join(dir, textFile), []byte(text+"\n"), 0o600); err != nil {
			return nil, failed(l.name, "no room for its files: %w", err)
		}
	}
	cmd.Dir = dir // anything else it writes goes where it is removed
	cmd.Env = voiceEnv(cmd.Environ(), dir)
	stderr := &cappedBuffer{max: 64 << 10}
	cmd.Stderr = stderr
	stdout := &cappedBuffer{max: 256 << 10}
	if l.shape != nil {
		cmd.Stdout = stdout
	}
	killGroup(cmd)
	cmd.WaitDelay = time.Second // a stray child holding stderr open
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case run.Err() != nil:
			return nil, failed(l.name, "timed out: no speech after %v", timeout)
		case errors.As(err, &exit):
			return nil, failed(l.name, "%v%s", exit, lastLine(stderr.String()))
		}
		return nil, failed(l.name, "could not run: %w", err)
	}
	mono, from, err := readSpeech(l.name, filepath.Join(dir, wavFile), text, stderr.String())
	if err != nil {
		return nil, err
	}
	if l.shape != nil {
		mono = l.shape(mono, from, stdout.Bytes())
	}
	return resample(mono, beep.SampleRate(from), rate), nil
}

// readSpeech decodes what an engine wrote, within maxClipBytes, at the
// engine's own rate.
func readSpeech(name, path, text string, stderr string) (mono []float32, rate int, err error) {
	info, err := os.Stat(path)
	if err != nil || info.Size() == 0 {
		return nil, 0, failed(name, "wrote no speech%s", lastLine(stderr))
	}
	if info.Size() > maxClipBytes {
		return nil, 0, failed(name, "wrote more than %d MiB for one sentence", maxClipBytes>>20)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, failed(name, "unreadable output: %w", err)
	}
	return decodeSpeech(name, b, text)
}

// decodeSpeech reads an engine's WAV as mono samples at its own rate.
func decodeSpeech(name string, wav []byte, text string) (mono []float32, rate int, err error) {
	mono, rate, err = decodeWAV(wav)
	if err != nil {
		return nil, 0, failed(name, "unreadable output: %w", err)
	}
	if len(mono) == 0 && hasWords(text) {
		return nil, 0, failed(name, "wrote no speech")
	}
	return mono, rate, nil
}

func hasWords(text string) bool {
	return strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// lastLine is the end of an engine's complaint, where the reason usually
// is, as ": reason" — or nothing when it said nothing.
func lastLine(stderr string) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if last == "" {
		return ""
	}
	if r := []rune(last); len(r) > 200 {
		last = string(r[:200]) + "…"
	}
	return ": " + last
}

// cappedBuffer keeps the first max bytes written to it and drops the rest,
// so a chatty engine cannot fill memory.
type cappedBuffer struct {
	bytes.Buffer
	max int
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// phaseStyle picks a phase's entry from a per-phase table; anything not a
// phase speaks like the opening.
func phaseStyle[T any](table *[len(engine.Phases)]T, p engine.Phase) T {
	if !p.Valid() {
		p = engine.Atmosphere
	}
	return table[p]
}
