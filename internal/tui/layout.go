package tui

import "charm.land/lipgloss/v2"

// bodyHeight is the rows a screen's body has above this footer: the
// session screen lays its transcript out in exactly these, so nothing it
// draws is cut off below and no row it could use stays empty.
func (m Model) bodyHeight(footer string) int {
	margin := 0
	if m.roomy() {
		margin = 2 // the app's padding above and the line under the body
	}
	return max(m.height-margin-lipgloss.Height(footer), 0)
}
