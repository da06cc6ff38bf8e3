package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// transcript is the session's words so far: phase headings and
// sentences, the one being spoken highlighted.
type transcript struct {
	lines   []transcriptLine
	current int // index of the sentence being spoken; -1 between sentences
	added   int // lines ever added: a new one changes the screen though the count kept stays at maxKept
}

type transcriptLine struct {
	phase   engine.Phase
	text    string
	heading bool
}

// maxKept bounds the lines held for display; the file keeps them all.
const maxKept = 400

func newTranscript() transcript { return transcript{current: -1} }

func (t *transcript) heading(p engine.Phase) {
	t.add(transcriptLine{phase: p, text: p.Title(), heading: true})
}

// sentence adds what the guide said: a model's words, made printable.
func (t *transcript) sentence(p engine.Phase, text string) {
	t.add(transcriptLine{phase: p, text: human.Line(text)})
	t.current = len(t.lines) - 1
}

func (t *transcript) add(l transcriptLine) {
	t.lines = append(t.lines, l)
	t.added++
	if over := len(t.lines) - maxKept; over > 0 {
		t.lines = append(t.lines[:0], t.lines[over:]...)
		t.current -= over
	}
}

// rebuild replaces the lines with a saved session's history.
func (t *transcript) rebuild(history []engine.Entry) {
	*t = newTranscript()
	phase := engine.Phase(-1)
	for _, e := range history {
		if e.Role != engine.RoleGuide {
			continue
		}
		if e.Phase != phase {
			t.heading(e.Phase)
			phase = e.Phase
		}
		t.add(transcriptLine{phase: e.Phase, text: human.Line(e.Text)})
	}
}

// lastPhase is the phase of the newest line, or -1.
func (t *transcript) lastPhase() engine.Phase {
	if len(t.lines) == 0 {
		return -1
	}
	return t.lines[len(t.lines)-1].phase
}

// View renders the newest lines that fit in height rows, each whole: a
// sentence that no longer fits above the others is left out rather than
// shown as a fragment. Only the newest sentence, when it alone is taller
// than the room, shows its end under a "…" that says it goes on above.
func (t transcript) View(width, height int, s *Styles) string {
	if height <= 0 || width <= 0 {
		return ""
	}
	var rows []string // newest first
	for i := len(t.lines) - 1; i >= 0; i-- {
		block := t.block(i, width, s)
		room := height - len(rows)
		if len(block) > room {
			if len(rows) == 0 {
				rows = cutAbove(block, height, width, s)
			}
			break
		}
		for j := len(block) - 1; j >= 0; j-- {
			rows = append(rows, block[j])
		}
		if t.lines[i].heading && i > 0 && len(rows) < height {
			rows = append(rows, "")
		}
	}
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
	return strings.Join(rows, "\n")
}

// block is line i as rows width cells wide.
func (t transcript) block(i, width int, s *Styles) []string {
	l := t.lines[i]
	wrap := lipgloss.NewStyle().Width(width)
	var out string
	switch {
	case l.heading:
		out = s.Chapter.Render(truncate("— "+l.text+" —", width))
	case i == t.current:
		out = s.Current.Render(wrap.Render(l.text))
	default:
		out = s.Previous.Render(wrap.Render(l.text))
	}
	return strings.Split(out, "\n")
}

// cutAbove is the last rows of a block taller than height, newest first,
// under a marker that says the sentence began above.
func cutAbove(block []string, height, width int, s *Styles) []string {
	marker := s.Muted.Render("…")
	if height == 1 {
		last := block[len(block)-1]
		return []string{marker + ansi.Truncate(last, max(width-1, 0), "")}
	}
	var rows []string
	for j := len(block) - 1; j >= len(block)-(height-1); j-- {
		rows = append(rows, block[j])
	}
	return append(rows, marker)
}
