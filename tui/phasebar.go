package tui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"lull/engine"
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
	cells := width - gaps
	var b strings.Builder
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
		b.WriteString(s.BarDone.Render(strings.Repeat("━", filled)))
		b.WriteString(s.BarLater.Render(strings.Repeat("─", w-filled)))
		if i < gaps {
			b.WriteString(" ")
		}
	}
	return b.String()
}
