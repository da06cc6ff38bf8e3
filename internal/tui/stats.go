package tui

import (
	"fmt"
	"math"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/practice"
)

// statsView is the listener's practice over time: the same view lull
// stats prints (RenderPractice).
type statsView struct {
	report practice.Report
	loaded bool
	width  int
	height int
	top    int // the first row shown, on a screen too short for them all
}

func (v *statsView) SetSize(width, height int) { v.width, v.height = width, height }

func (v *statsView) SetReport(r practice.Report) { v.report, v.loaded = r, true }

func (v statsView) View(width int, s *Styles) string {
	if !v.loaded {
		return s.Title.Render("Your practice") + "\n\n" + s.Muted.Render("Reading your sessions…")
	}
	rows, room := v.rows(width, s)
	if room == 0 {
		return strings.Join(rows, "\n")
	}
	// Too short a screen for all of it: it scrolls, and the last row says
	// there is more.
	top := min(v.top, len(rows)-room)
	hint := "↑ more above (↑/↓)"
	if top+room < len(rows) {
		hint = "↓ more below (↑/↓)"
	}
	return strings.Join(rows[top:top+room], "\n") + "\n" + s.Muted.Render(truncate(hint, max(width, 1)))
}

// rows is the practice laid out in width cells, and how many of its rows
// show at once: 0 when all of them fit.
func (v statsView) rows(width int, s *Styles) (rows []string, room int) {
	rows = strings.Split(strings.TrimRight(RenderPractice(v.report, width, v.height, s), "\n"), "\n")
	if v.height <= 0 || len(rows) <= v.height {
		return rows, 0
	}
	return rows, max(v.height-1, 1)
}

// scroll moves the practice by rows, within its ends.
func (v *statsView) scroll(by int, s *Styles) {
	rows, room := v.rows(v.width, s)
	v.top = min(max(v.top+by, 0), max(len(rows)-room, 0))
}

// scrolls reports whether the practice is too tall for the screen.
func (v statsView) scrolls(s *Styles) bool {
	_, room := v.rows(v.width, s)
	return v.loaded && room > 0
}

// The charts' shape.
const (
	chartRows   = 5 // the minutes chart's height, in lines, at most
	chartGutter = 8 // the labels left of the charts: "before " and "  30 ┤"
	labelWidth  = 12
)

// RenderPractice draws a practice report in width columns and, when
// height is above 0, in about that many lines: the figures, a chart of
// minutes a day and one of mood before and after. lull stats prints it
// and the TUI's stats screen shows it.
func RenderPractice(r practice.Report, width, height int, s *Styles) string {
	width = max(width, 20)
	var b strings.Builder
	b.WriteString(s.Title.Render("Your practice") + "\n\n")
	if r.Empty() {
		b.WriteString(s.Muted.Render(wrap("No practice yet. Every session that plays for a minute or more counts here, guided or breathing.", width)))
		return b.String()
	}
	figure := func(label, value string) {
		lines := strings.Split(wrap(value, max(width-labelWidth, 8)), "\n")
		for i, l := range lines {
			if i > 0 {
				label = ""
			}
			b.WriteString(s.FieldLabel.Render(fmt.Sprintf("%-*s", labelWidth, label)) + s.Text.Render(l) + "\n")
		}
	}
	figure("This week", tallyWords(r.Week))
	figure("In all", tallyWords(r.Total))
	if r.ShowStreak {
		figure("Streak", streakWords(r.Streak))
	}
	figure("Mood", moodWords(r.Mood))

	days := min(practice.Days, len(r.Last))
	col := 2
	if chartGutter+days*col > width {
		col = 1
		days = min(days, max(width-chartGutter, 1))
	}
	last := r.Last[len(r.Last)-days:]
	rows := chartRows
	if height > 0 {
		rows = min(chartRows, max(height-14, 2)) // what is left once the rest is drawn
	}
	legend := ""
	if breathed(last) {
		legend = s.Muted.Render("(") + s.ChartBreath.Render("▒") + s.Muted.Render(" breathing)")
	}
	b.WriteString("\n" + heading(s.Heading.Render(fmt.Sprintf("Minutes a day, the last %d days", days)), legend, width))
	b.WriteString("\n" + minutesChart(last, rows, col, s) + "\n")
	b.WriteString("\n" + heading(s.Heading.Render("Mood before and after"), s.Muted.Render("(1 low, 5 very good)"), width) + "\n")
	b.WriteString(moodChart(last, col, s))
	return b.String()
}

// PracticeLine is the home screen's line: what there is of this week,
// the streak and the mood; empty when there is no practice yet.
func PracticeLine(r practice.Report) string {
	if r.Empty() {
		return ""
	}
	parts := []string{"Nothing yet this week"}
	if r.Week.Sessions > 0 {
		parts = []string{fmt.Sprintf("This week %s · %s", count(r.Week.Sessions, "session"), minutesWords(r.Week.Played))}
	}
	if r.ShowStreak && r.Streak > 0 {
		parts = append(parts, fmt.Sprintf("%d-day streak", r.Streak))
	}
	if r.Mood.Sessions > 0 {
		parts = append(parts, "mood "+signed(r.Mood.Average)+" on average")
	}
	return strings.Join(parts, " · ")
}

// heading is a chart's title and its legend, on one line when they fit.
func heading(title, legend string, width int) string {
	title = wrap(title, width)
	switch {
	case legend == "":
		return title
	case lipgloss.Width(title)+2+lipgloss.Width(legend) <= width:
		return title + "  " + legend
	}
	return title + "\n" + legend
}

func tallyWords(t practice.Tally) string {
	if t.Sessions == 0 {
		return "nothing yet"
	}
	w := count(t.Sessions, "session") + " · " + minutesWords(t.Played)
	if t.BreathingSessions > 0 {
		w += ", of which breathing " + minutesWords(t.Breathing)
	}
	return w
}

func streakWords(days int) string {
	if days == 0 {
		return "none at the moment"
	}
	return count(days, "day") + " in a row"
}

func moodWords(m practice.MoodChange) string {
	if m.Sessions == 0 {
		return "no session yet with a mood before and after"
	}
	return fmt.Sprintf("%s on average from before to after, over %s", signed(m.Average), count(m.Sessions, "session"))
}

// minutesWords says a time played in whole minutes, in hours past one.
func minutesWords(d time.Duration) string {
	m := int(math.Round(d.Minutes()))
	if m < 60 {
		return fmt.Sprintf("%d min", m)
	}
	if m%60 == 0 {
		return fmt.Sprintf("%d h", m/60)
	}
	return fmt.Sprintf("%d h %d min", m/60, m%60)
}

func signed(x float64) string {
	x = math.Round(x*10) / 10
	switch {
	case x > 0:
		return fmt.Sprintf("+%.1f", x)
	case x < 0:
		return fmt.Sprintf("−%.1f", -x)
	}
	return "±0"
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// wrap breaks text into lines of at most width columns, at spaces where
// it can; no line is padded.
func wrap(text string, width int) string {
	lines := strings.Split(ansi.Wrap(text, width, ""), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func breathed(days []practice.Day) bool {
	for _, d := range days {
		if d.Breathing > 0 {
			return true
		}
	}
	return false
}

// eighths are the block glyphs that fill a cell from the bottom, in
// eighths of its height.
var eighths = []string{" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}

// minutesChart is a bar a day, rows lines high, col columns a day; the
// breathing part of a day sits at the bottom of its bar, drawn apart.
func minutesChart(days []practice.Day, rows, col int, s *Styles) string {
	top := 0.0
	for _, d := range days {
		top = max(top, d.Played.Minutes())
	}
	scale := niceScale(top)
	unit := float64(rows*8) / scale // eighths of a cell per minute
	var lines []string
	for row := rows - 1; row >= 0; row-- {
		label := ""
		switch row {
		case rows - 1:
			label = fmt.Sprintf("%d ┤", int(scale))
		default:
			label = "│"
		}
		var line strings.Builder
		line.WriteString(s.Muted.Render(fmt.Sprintf("%*s", chartGutter-1, label)) + " ")
		for _, d := range days {
			h := int(math.Round(d.Played.Minutes() * unit))
			if d.Played > 0 {
				h = max(h, 1) // a day practised never looks empty
			}
			breath := min(int(math.Round(d.Breathing.Minutes()*unit/8))*8, h) // whole cells
			fill := min(max(h-row*8, 0), 8)
			switch {
			case fill == 0:
				line.WriteString(" ")
			case (row+1)*8 <= breath:
				line.WriteString(s.ChartBreath.Render("▒"))
			default:
				line.WriteString(s.ChartBar.Render(eighths[fill]))
			}
			line.WriteString(strings.Repeat(" ", col-1))
		}
		lines = append(lines, strings.TrimRight(line.String(), " "))
	}
	axis := s.Muted.Render(fmt.Sprintf("%*s", chartGutter-1, "0 └") + strings.Repeat("─", 1+len(days)*col))
	return strings.Join(lines, "\n") + "\n" + axis + "\n" + dateLabels(days, col, s)
}

// niceScale is the chart's top: a round number of minutes at or above
// the longest day.
func niceScale(top float64) float64 {
	for _, n := range []float64{5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360, 480, 720} {
		if top <= n {
			return n
		}
	}
	return math.Ceil(top/60) * 60
}

// dateLabels names the first day, one in the middle and today under a
// chart.
func dateLabels(days []practice.Day, col int, s *Styles) string {
	n := len(days) * col
	line := []rune(strings.Repeat(" ", n))
	put := func(at int, text string) bool {
		r := []rune(text)
		if at < 0 || at+len(r) > n {
			return false
		}
		for i := max(at-1, 0); i < min(at+len(r)+1, n); i++ {
			if line[i] != ' ' {
				return false
			}
		}
		copy(line[at:], r)
		return true
	}
	put(n-len("today"), "today")
	put(0, dayLabel(days[0].Date))
	if mid := len(days) / 2; mid > 0 {
		put(mid*col, dayLabel(days[mid].Date))
	}
	return strings.Repeat(" ", chartGutter) + s.Muted.Render(strings.TrimRight(string(line), " "))
}

func dayLabel(d practice.Date) string { return d.Time().Format("2 Jan") }

// moodChart is two rows, a day's mood before and after, each as a block
// as high as the mood (1–5); a dot where none was given.
func moodChart(days []practice.Day, col int, s *Styles) string {
	row := func(label string, mood func(practice.Day) float64, style lipgloss.Style) string {
		var b strings.Builder
		b.WriteString(s.Muted.Render(fmt.Sprintf("%-*s", chartGutter, label)))
		for _, d := range days {
			m := mood(d)
			if m == 0 {
				b.WriteString(s.Muted.Render("·") + strings.Repeat(" ", col-1))
				continue
			}
			b.WriteString(style.Render(eighths[min(max(int(math.Round(m/5*8)), 1), 8)]) + strings.Repeat(" ", col-1))
		}
		return strings.TrimRight(b.String(), " ")
	}
	return row("before", func(d practice.Day) float64 { return d.Before }, s.ChartBefore) + "\n" +
		row("after", func(d practice.Day) float64 { return d.After }, s.ChartBar)
}

// practiceMsg is the listener's practice, figured.
type practiceMsg struct{ report practice.Report }

// loadPractice figures the listener's practice off the UI goroutine.
func (m Model) loadPractice() tea.Cmd {
	b := m.backend
	if b == nil {
		return nil
	}
	return func() tea.Msg { return practiceMsg{report: b.Practice()} }
}

// onStatsKey: back to the list, or quit.
func (m Model) onStatsKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m, tea.Quit
	case key.Matches(msg, m.keys.Back), key.Matches(msg, m.keys.Stats):
		m.stats.top = 0
		m.setState(screenHome)
		return m, m.loadSessions()
	}
	if by, ok := map[string]int{"up": -1, "k": -1, "down": 1, "j": 1, "pgup": -5, "pgdown": 5}[msg.String()]; ok {
		m.stats.scroll(by, m.styles)
	}
	return m, nil
}
