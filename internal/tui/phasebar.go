package tui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// phaseBar shows the five phases: their names, with the current one
// marked, over a bar whose segments are each phase's share of the session.
type phaseBar struct {
	current engine.Phase
	fill    float64 // how far into the current phase, 0–1
	done    bool    // the whole session is complete
}

func (p phaseBar) View(width int, s *Styles) string {
	if width < 20 {
		return s.PhaseNow.Render(p.current.Title())
	}
	return p.labels(width, s) + "\n" + p.bar(width, s)
}

func (p phaseBar) labels(width int, s *Styles) string {
	var parts []string
	for _, ph := range engine.Phases {
		name := ph.Title()
		switch {
		case p.done || ph < p.current:
			parts = append(parts, s.PhaseDone.Render(name))
		case ph == p.current:
			parts = append(parts, s.PhaseNow.Render(name))
		default:
			parts = append(parts, s.PhaseLater.Render(name))
		}
	}
	line := strings.Join(parts, s.Muted.Render(" › "))
	if lipgloss.Width(line) > width {
		// Too narrow for all five names: say where we are.
		return s.PhaseNow.Render(p.current.Title()) + s.Muted.Render(" · phase "+string(rune('1'+int(p.current)))+" of 5")
	}
	return line
}

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
		w := int(float64(cells)*ph.Share() + 0.5)
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
