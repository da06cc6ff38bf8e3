package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// Reread is a finished session to read again: what it was, and its words
// by phase. The backend loads it read-only: a session open in another
// lull can be read too.
type Reread struct {
	ID      string
	Title   string // its intention, or when it was
	Summary []SummaryRow
	Phases  []PhaseWords
	// Replayable says lull replay can speak it again (it completed).
	Replayable bool
}

// SummaryRow is one line of a session's summary: "Length", "10 min".
type SummaryRow struct{ Label, Value string }

// PhaseWords are the sentences spoken in one phase, in order.
type PhaseWords struct {
	Phase engine.Phase
	Lines []string
}

// rereadView shows a finished session read-only: its title, then its
// summary and its words in a viewport that scrolls.
type rereadView struct {
	session Reread
	styles  *Styles
	vp      viewport.Model
	width   int
	height  int
}

func newRereadView(r Reread, s *Styles) rereadView {
	// Everything here was read from a file: made printable once, here.
	out := Reread{ID: r.ID, Title: human.Line(r.Title), Replayable: r.Replayable}
	for _, row := range r.Summary {
		out.Summary = append(out.Summary, SummaryRow{Label: row.Label, Value: human.Line(row.Value)})
	}
	for _, pw := range r.Phases {
		lines := make([]string, len(pw.Lines))
		for i, l := range pw.Lines {
			lines[i] = human.Line(l)
		}
		out.Phases = append(out.Phases, PhaseWords{Phase: pw.Phase, Lines: lines})
	}
	return rereadView{session: out, styles: s, vp: viewport.New()}
}

// SetStyles redraws the words in new styles (the background changed).
func (v *rereadView) SetStyles(s *Styles) {
	v.styles = s
	v.fill()
}

// SetSize fits the view in width × height cells: the title and the
// line under the words take three rows, the viewport the rest.
func (v *rereadView) SetSize(width, height int) {
	v.width, v.height = width, height
	v.vp.SetWidth(max(width, 1))
	v.vp.SetHeight(max(height-3, 1))
	v.fill()
}

// fill lays the summary and the words out for the width.
func (v *rereadView) fill() {
	if v.styles == nil || v.width <= 0 {
		return
	}
	s, width := v.styles, max(v.width, 1)
	labelWidth := 0
	for _, r := range v.session.Summary {
		labelWidth = max(labelWidth, lipgloss.Width(r.Label))
	}
	valueWidth := max(width-labelWidth-2, 10)
	var b strings.Builder
	for _, r := range v.session.Summary {
		label := s.FieldLabel.Render(fmt.Sprintf("%-*s", labelWidth, r.Label))
		value := lipgloss.NewStyle().Width(valueWidth).Render(r.Value)
		b.WriteString(lipgloss.JoinHorizontal(lipgloss.Top, label, "  ", s.Text.Render(value)) + "\n")
	}
	wrap := lipgloss.NewStyle().Width(width)
	for _, pw := range v.session.Phases {
		b.WriteString("\n" + s.Chapter.Render(truncate("— "+pw.Phase.Title()+" —", width)) + "\n")
		for _, l := range pw.Lines {
			b.WriteString(s.Text.Render(wrap.Render(l)) + "\n")
		}
	}
	if len(v.session.Phases) == 0 {
		b.WriteString("\n" + s.Muted.Render("No words were spoken in this session.") + "\n")
	}
	v.vp.SetContent(strings.TrimRight(b.String(), "\n"))
}

// Update scrolls the words.
func (v *rereadView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	v.vp, cmd = v.vp.Update(msg)
	return cmd
}

// ID is the session shown.
func (v rereadView) ID() string { return v.session.ID }

// Replayable says r may replay the session shown.
func (v rereadView) Replayable() bool { return v.session.Replayable }

func (v rereadView) View(width int) string {
	s := v.styles
	title := s.Title.Render(truncate(v.session.Title, max(width, 1)))
	total := v.vp.TotalLineCount()
	first := min(v.vp.YOffset()+1, total)
	last := min(v.vp.YOffset()+v.vp.VisibleLineCount(), total)
	where := fmt.Sprintf("lines %d–%d of %d", first, last, total)
	if total <= v.vp.VisibleLineCount() {
		where = "all shown"
	}
	return title + "\n\n" + v.vp.View() + "\n" + s.Muted.Render(truncate("read-only · "+where, max(width, 1)))
}
