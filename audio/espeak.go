package audio

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/gopxl/beep/v2"

	"lull/engine"
)

// espeak is the espeak-ng voice: fast (about 25 ms a sentence here) and
// everywhere, if plain. The sentence goes in on stdin, never as an
// argument, so no text can read as an option.
type espeak struct{ path string }

// espeakStyle is a phase's delivery: words per minute, pitch (0–99) and
// the pause between words (in 10 ms units). Slower and lower as the
// listener sinks; gently quicker in resolution.
type espeakStyle struct{ wpm, pitch, gap int }

var espeakStyles = [...]espeakStyle{
	engine.Atmosphere: {150, 42, 1},
	engine.Breathing:  {145, 40, 2},
	engine.Sensory:    {140, 40, 2},
	engine.Relaxation: {128, 36, 3},
	engine.Resolution: {155, 44, 1},
}

// espeakVoice is a soft, low variant of English.
const espeakVoice = "en-us+f2"

// maxClipBytes bounds what a voice engine may hand back: a sentence is a
// few hundred kilobytes.
const maxClipBytes = 32 << 20

func (e *espeak) Name() string { return "espeak-ng" }

func (e *espeak) Speak(ctx context.Context, text string, p engine.Phase, rate beep.SampleRate) ([]float32, error) {
	st := espeakStyles[engine.Atmosphere]
	if p.Valid() {
		st = espeakStyles[p]
	}
	cmd := exec.CommandContext(ctx, e.path, "--stdout", "-v", espeakVoice,
		"-s", strconv.Itoa(st.wpm), "-p", strconv.Itoa(st.pitch), "-g", strconv.Itoa(st.gap))
	cmd.Stdin = strings.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("espeak-ng: %w", err)
	}
	wav, readErr := io.ReadAll(io.LimitReader(out, maxClipBytes+1))
	if len(wav) > maxClipBytes {
		_ = cmd.Process.Kill() // it would block on a pipe nobody reads
	}
	if err := cmd.Wait(); err != nil && len(wav) <= maxClipBytes {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("espeak-ng: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	if readErr != nil {
		return nil, fmt.Errorf("espeak-ng: reading its output: %w", readErr)
	}
	if len(wav) > maxClipBytes {
		return nil, fmt.Errorf("espeak-ng: wrote more than %d MiB for one sentence", maxClipBytes>>20)
	}
	mono, from, err := decodeWAV(wav)
	if err != nil {
		return nil, fmt.Errorf("espeak-ng: %w", err)
	}
	return resample(mono, beep.SampleRate(from), rate), nil
}
