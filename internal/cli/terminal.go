package cli

import (
	"errors"
	"image/color"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// terminalQueryTimeout is the longest lull waits for a terminal to answer
// a question it asks outside the TUI (the background colour, for lull
// stats). A terminal answers in a few milliseconds, over SSH in a round
// trip; one that does not answer at all — a bare pseudo-terminal, a
// serial console, some multiplexers — must not hold lull up: lipgloss's
// own query waits two seconds, and asks twice. Every such query uses it.
// (The TUI asks through Bubble Tea, which never waits: the styles are
// rebuilt if and when the answer comes.)
const terminalQueryTimeout = 300 * time.Millisecond

// darkBackground asks the terminal on in and out for its background
// colour, once, and reports whether it is dark. No answer within
// terminalQueryTimeout, or any trouble asking, counts as dark: lull's
// styles are made for a dark terminal first.
func darkBackground(in, out *os.File) bool {
	state, err := term.MakeRaw(in.Fd())
	if err != nil {
		return true
	}
	defer term.Restore(in.Fd(), state) //nolint:errcheck // the terminal is as it was, or as good as lull can leave it
	bg, err := queryBackground(in, out, terminalQueryTimeout)
	if err != nil || bg == nil {
		return true
	}
	return tea.BackgroundColorMsg{Color: bg}.IsDark() // the rule the TUI applies to its answer
}

// errNoAnswer is a terminal that said nothing in time.
var errNoAnswer = errors.New("the terminal did not answer")

// queryBackground writes the background colour query (OSC 11) and a
// primary device attributes query (DA1) to out, and reads in until the
// colour, or the attributes (which every terminal answers, so a terminal
// that does not know OSC 11 is done with at once), or until within has
// passed. in must be in raw mode.
func queryBackground(in io.Reader, out io.Writer, within time.Duration) (color.Color, error) {
	rd, err := uv.NewCancelReader(in)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var expired atomic.Bool
	timer := time.AfterFunc(within, func() { expired.Store(true); rd.Cancel() })
	defer timer.Stop()
	if _, err := io.WriteString(out, ansi.RequestBackgroundColor+ansi.RequestPrimaryDeviceAttributes); err != nil {
		return nil, err
	}
	pa := ansi.GetParser()
	defer ansi.PutParser(pa)
	var bg color.Color
	var seq []byte
	var buf [256]byte
	var state byte
	for {
		n, err := rd.Read(buf[:])
		if err != nil {
			if expired.Load() {
				return bg, errNoAnswer
			}
			return bg, err
		}
		for p := buf[:n]; len(p) > 0; {
			s, _, read, next := ansi.DecodeSequence(p, state, pa)
			seq = append(seq, s...)
			state, p = next, p[read:]
			if next != ansi.NormalState {
				continue // the sequence goes on in the next read
			}
			switch {
			case ansi.HasOscPrefix(string(seq)) && pa.Command() == 11:
				if _, spec, ok := strings.Cut(string(pa.Data()), ";"); ok {
					bg = ansi.XParseColor(spec)
				}
				if bg != nil {
					return bg, nil
				}
			case ansi.HasCsiPrefix(string(seq)) && pa.Command() == ansi.Command('?', 0, 'c'):
				return bg, nil // DA1: the terminal has said all it will
			}
			seq = seq[:0]
		}
	}
}
