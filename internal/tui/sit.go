package tui

import (
	"fmt"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// sitView is the screen of a sit (lull sit): the time sat drawn in the
// middle, the time left when the sit is timed, when the next bell rings,
// and the keys; no transcript, no phases, no breath.
type sitView struct {
	bell  time.Duration // the interval bell; 0: none
	bells int           // interval bells rung so far in this run
}

// newSitView is the view of a sit whose Pattern is bell.
func newSitView(bell string) sitView {
	d, _, _ := engine.ParseBell(bell)
	return sitView{bell: d}
}

// apply takes a sit's bell event into the view.
func (b *sitView) apply(ev engine.Event) {
	if ev.Kind == engine.EventBell && ev.Index > 0 {
		b.bells = ev.Index
	}
}

// View lays the sit out in width × height cells.
func (b sitView) View(v sessionView, width, height int, s *Styles) string {
	width = max(width, 1)
	open := v.progress.Length == 0
	kind := "open-ended"
	if !open {
		kind = human.Clock(v.progress.Length)
	}
	header := practiceHeader(v, width, "sitting", "sitting", kind, s)

	elapsed := human.Shown(v.progress.Elapsed)
	var clocks string
	if open {
		clocks = s.Clock.Render(human.Clock(elapsed)) + s.Muted.Render(" elapsed")
	} else {
		clocks = v.clocks(v.progress.Length-elapsed, width, s)
	}

	center := lipgloss.NewStyle().Width(width).Align(lipgloss.Center)
	var middle []string
	if v.status == engine.Completed {
		middle = completed(v, center, s, "The sit is complete.", "sitting.", "Stay as long as you like.")
	} else {
		middle = append(middle, center.Render(s.Clock.Render(human.Clock(elapsed))), "")
		about := "a bell at the start and at the end"
		if b.bell > 0 {
			next := (elapsed/b.bell + 1) * b.bell
			about = fmt.Sprintf("a bell every %s · the next in %s", human.Duration(b.bell), human.Clock(next-elapsed))
			if !open && next >= v.progress.Length {
				about = fmt.Sprintf("a bell every %s · the last bell in %s", human.Duration(b.bell), human.Clock(max(v.progress.Length-elapsed, 0)))
			}
		}
		middle = append(middle, center.Render(s.Muted.Render(truncate(about, width))))
		if open {
			middle = append(middle, center.Render(s.Muted.Render(truncate("e ends the sit · q pauses and saves it", width))))
		}
	}
	return stacked(header, middle, clocks, height)
}
