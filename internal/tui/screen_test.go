package tui

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"
)

// Bubble Tea draws only the cells that change, so a sentence need never
// pass through the output whole: "The session is complete." came as
// "session is complete." where "The " was already on the screen. Tests
// that wait on a running program therefore read the screen a terminal
// would show, not the bytes.

// screens holds each running test model's terminal.
var screens sync.Map // *teatest.TestModel → *terminal

// terminal is a test model's screen and every byte drawn on it.
type terminal struct {
	emu   *vt.Emulator
	drawn bytes.Buffer
}

// startModel runs m in a w×h terminal.
func startModel(t *testing.T, m tea.Model, w, h int) *teatest.TestModel {
	t.Helper()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h))
	emu := vt.NewEmulator(w, h)
	go func() { _, _ = io.Copy(io.Discard, emu) }() // its answers to queries: nobody asks for them
	screens.Store(tm, &terminal{emu: emu})
	t.Cleanup(func() {
		screens.Delete(tm)
		// Ends the reader above. Not emu.Close: its flag races with Read.
		_ = emu.InputPipe().(io.Closer).Close()
	})
	return tm
}

// onScreen is what tm's terminal shows now, with everything it has drawn
// since last asked taken in.
func onScreen(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	term := terminalOf(t, tm)
	b, err := io.ReadAll(tm.Output())
	if err != nil {
		t.Fatal(err)
	}
	term.drawn.Write(b)
	// A terminal's line discipline turns each newline into a carriage
	// return and a newline (onlcr); the renderer counts on it.
	_, _ = term.emu.Write(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
	return term.emu.String()
}

// everDrawn is every byte tm has drawn so far: what must never have been
// on the screen, even for a frame.
func everDrawn(t *testing.T, tm *teatest.TestModel) []byte {
	t.Helper()
	onScreen(t, tm)
	return terminalOf(t, tm).drawn.Bytes()
}

func terminalOf(t *testing.T, tm *teatest.TestModel) *terminal {
	t.Helper()
	v, ok := screens.Load(tm)
	if !ok {
		t.Fatal("a test model not started by startModel")
	}
	return v.(*terminal)
}

// waitFor waits until the screen shows text. The deadline bounds a
// failure only: a busy machine may take long to draw.
func waitFor(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	var screen string
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if screen = onScreen(t, tm); strings.Contains(screen, text) {
			return
		}
	}
	t.Fatalf("waited a minute for %q; the screen shows:\n%s", text, screen)
}
