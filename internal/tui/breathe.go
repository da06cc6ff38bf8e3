package tui

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// breatheView is the screen of a breathing practice (lull breathe): the
// breath drawn large in the middle — a disc that grows as the lungs fill
// and shrinks as they empty — the pattern, the time left and the keys;
// no transcript, no phases. Like breathView it draws only what
// Progress.Breath says, read off the audio's clock with the tone.
type breatheView struct {
	pattern string // printable
	breath  int    // the breath under way, from 1; 0 before the first
	breaths int    // how many this run breathes
}

// apply takes a practice's breath event into the view.
func (b *breatheView) apply(ev engine.Event) {
	if ev.Kind == engine.EventBreath {
		b.breath = ev.Index
		if _, n, ok := strings.Cut(ev.Text, " of "); ok {
			fmt.Sscan(n, &b.breaths)
		}
	}
}

// The disc's size, in rows: from a dot with empty lungs to at most
// maxDisc rows full.
const (
	maxDisc  = 11
	discRest = 0.12 // the disc's radius with empty lungs, of its largest
)

// View lays the practice out in width × height cells.
func (b breatheView) View(v sessionView, width, height int, s *Styles) string {
	width = max(width, 1)
	running := "breathing"
	if v.progress.Breath == nil {
		running = "settling in"
	}
	header := practiceHeader(v, width, running, "paced breathing", b.pattern, s)

	clocks := v.clocks(v.progress.Length-v.progress.Elapsed, width, s)

	center := lipgloss.NewStyle().Width(width).Align(lipgloss.Center)
	var middle []string
	if v.status == engine.Completed {
		middle = completed(v, center, s, "The practice is complete.", "of "+b.pattern+" breathing.", "Breathe on as you like.")
	} else {
		fill, stage := 0.0, "breathe easily"
		if br := v.progress.Breath; br != nil {
			fill, stage = br.Fill, br.Stage.String()
		}
		rows := min(maxDisc, max(height-7, 1))
		middle = append(middle, disc(fill, rows, width, s), "", center.Render(s.Text.Render(stage)))
		count := ""
		if b.breath > 0 && b.breaths > 0 {
			count = fmt.Sprintf("breath %d of %d", b.breath, b.breaths)
		}
		middle = append(middle, center.Render(s.Muted.Render(count)))
	}
	return stacked(header, middle, clocks, height)
}

// practiceHeader is a practice's top line: "lull · name · detail" and its
// state (sitting, paused), the title shortening to "name · detail", then
// to the detail, to leave room for the state. The state is what a glance
// at a small terminal looks for: it stays, alone if no title fits.
func practiceHeader(v sessionView, width int, running, name, detail string, s *Styles) string {
	state := practiceStatus(v, running, s)
	short := s.Text.Render(name) + s.Muted.Render(" · ") + s.Accent.Render(detail)
	for _, t := range []string{s.Title.Render("lull") + s.Muted.Render(" · ") + short, short, s.Accent.Render(detail)} {
		if lipgloss.Width(t)+1+lipgloss.Width(state) <= width {
			return spread(t, state, width)
		}
	}
	return state
}

// practiceStatus is a practice's status at the top right: running is
// its word while it runs.
func practiceStatus(v sessionView, running string, s *Styles) string {
	dot, word := "●", running
	switch v.status {
	case engine.Paused:
		dot, word = "❚❚", "paused"
	case engine.Completed:
		word = "complete"
	case engine.Running:
	default:
		word = string(v.status)
	}
	return s.Status[v.status].Render(dot + " " + word)
}

// completed is a practice's middle once it is complete: heading, how long
// it ran and what (summary), and then what was not saved, or after.
func completed(v sessionView, center lipgloss.Style, s *Styles, heading, summary, after string) []string {
	lines := []string{center.Render(s.Heading.Render(heading)), ""}
	if v.summary != nil {
		lines = append(lines, center.Render(s.Text.Render(human.Clock(v.summary.Duration)+" "+summary)))
	}
	if v.unsaved != "" {
		first, rest, _ := strings.Cut(v.unsaved, "\n")
		return append(lines, "", s.Error.Render(first), s.Text.Render(rest))
	}
	return append(lines, "", center.Render(s.Muted.Render(after+" It is saved with your sessions.")))
}

// stacked is a practice's screen: the header at the top, the clocks at
// the bottom, the middle centred between them (cut when there is no
// room for all of it).
func stacked(header string, middle []string, clocks string, height int) string {
	mid := strings.Split(strings.Join(middle, "\n"), "\n")
	room := max(height-2, 0)
	if len(mid) > room {
		mid = mid[:room]
	}
	lines := []string{header}
	above := (room - len(mid)) / 2
	lines = append(lines, make([]string, above)...)
	lines = append(lines, mid...)
	lines = append(lines, make([]string, room-len(mid)-above)...)
	return strings.Join(append(lines, clocks), "\n")
}

// disc draws the breath as a disc of rows rows at most, its radius fill
// of the way from resting to full, centred in width. Terminal cells are
// about twice as tall as wide, so a row spans two columns per unit.
func disc(fill float64, rows, width int, s *Styles) string {
	most := float64(rows) / 2
	r := most * (discRest + (1-discRest)*fill)
	half := rows / 2
	center := lipgloss.NewStyle().Width(width).Align(lipgloss.Center)
	out := make([]string, 0, rows)
	for y := -half; y <= half; y++ {
		var line strings.Builder
		for x := -2 * half; x <= 2*half; x++ {
			d := math.Hypot(float64(x)/2, float64(y))
			switch {
			case d <= r-0.6:
				line.WriteString("·")
			case d <= r+0.4:
				line.WriteString("●")
			default:
				line.WriteString(" ")
			}
		}
		out = append(out, center.Render(s.Accent.Render(line.String())))
	}
	return strings.Join(out, "\n")
}
