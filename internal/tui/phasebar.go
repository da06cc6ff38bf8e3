package tui

import (
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// phaseBar shows the five phases: a bar whose segments are each phase's
// share of the session, and over each segment its phase's name, the
// current one marked.
type phaseBar struct {
	current engine.Phase
	fill    float64       // how far into the current phase, 0–1
	done    bool          // the whole session is complete
	length  time.Duration // the session's, which with sleep sets its phases' shares
	sleep   bool
}

func (p phaseBar) View(width int, s *Styles) string {
	if width < 20 {
		return s.PhaseNow.Render(p.current.Title())
	}
	return p.labels(width, s) + "\n" + p.bar(width, s)
}

// labels names each phase over its own part of the bar. The current
// phase's name is shown whole, moved left only as far as the bar's end
// needs; another name too long for the room its part leaves is cut with
// "…", and left out when not even a few letters would fit.
func (p phaseBar) labels(width int, s *Styles) string {
	segs := p.segments(width)
	starts := make([]int, len(segs))
	at := 0
	for i, seg := range segs {
		starts[i] = at
		at += seg.cells + 1 // and the gap between parts
	}
	cur := int(p.current)
	name := p.current.Title()
	from := max(min(starts[cur], width-lipgloss.Width(name)), 0)
	to := from + lipgloss.Width(name) // the current name's cells: [from, to)

	type label struct {
		col  int
		text string
	}
	var out []label
	for i, ph := range engine.Phases {
		st := s.PhaseLater
		switch {
		case ph == p.current:
			out = append(out, label{from, s.PhaseNow.Render(name)})
			continue
		case p.done || ph < p.current:
			st = s.PhaseDone
		}
		// The room its part leaves beside the current name, a cell apart.
		lo, hi := starts[i], starts[i]+segs[i].cells
		if i > cur {
			lo = max(lo, to+1)
		} else {
			hi = min(hi, from-1)
		}
		room := hi - lo
		text := ph.Title()
		if lipgloss.Width(text) > room {
			if room < minLabel {
				continue
			}
			text = truncate(text, room)
		}
		out = append(out, label{lo, st.Render(text)})
	}
	var b strings.Builder
	col := 0
	for _, l := range out { // in order of the phases, so left to right
		b.WriteString(strings.Repeat(" ", max(l.col-col, 0)))
		b.WriteString(l.text)
		col = max(l.col, col) + lipgloss.Width(l.text)
	}
	return b.String()
}

// minLabel is the fewest cells a cut phase name is shown in: three
// letters and "…".
const minLabel = 4

func (p phaseBar) bar(width int, s *Styles) string {
	gaps := len(engine.Phases) - 1
	var b strings.Builder
	for i, seg := range p.segments(width) {
		b.WriteString(s.BarDone.Render(strings.Repeat("━", seg.filled)))
		b.WriteString(s.BarLater.Render(strings.Repeat("─", seg.cells-seg.filled)))
		if i < gaps {
			b.WriteString(" ")
		}
	}
	return b.String()
}

// segment is one phase's part of the bar: its cells, and how many are full.
type segment struct{ cells, filled int }

// segments are the bar's parts, one a phase, in a bar width cells wide.
func (p phaseBar) segments(width int) []segment {
	gaps := len(engine.Phases) - 1
	cells := width - gaps
	out := make([]segment, 0, len(engine.Phases))
	used := 0
	for i, ph := range engine.Phases {
		w := int(float64(cells)*ph.Share(p.length, p.sleep) + 0.5)
		if i == len(engine.Phases)-1 {
			w = cells - used
		}
		used += w
		filled := 0
		switch {
		case p.done || ph < p.current:
			filled = w
		case ph == p.current:
			filled = int(float64(w) * min(max(p.fill, 0), 1))
		}
		out = append(out, segment{cells: w, filled: filled})
	}
	return out
}
