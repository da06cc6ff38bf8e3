package tui

import (
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// breathView draws the breathing pacer: a line that widens as the lungs
// fill and narrows as they empty, with the stage named above it. It draws
// only what Progress.Breath says — the engine reads that off the audio's
// clock, so the animation and the pacer tone move together.
type breathView struct{}

// breathLines is how many lines the view takes, its blank line included.
const breathLines = 3

func (breathView) View(b engine.Breath, width int, s *Styles) string {
	least, most := 3, max(min(width-4, 41), 5)
	span := (most - least) / 2
	w := least + 2*int(math.Round(float64(span)*b.Fill))
	bar := s.Accent.Render(strings.Repeat("━", w))
	word := s.Muted.Render(b.Stage.String())
	center := lipgloss.NewStyle().Width(width).Align(lipgloss.Center)
	return center.Render(word) + "\n" + center.Render(bar) + "\n"
}
