package tui

import (
	"fmt"
	"io"
	"strings"
	"time"

	"charm.land/bubbles/v2/list"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// sessionItem is one saved session in the home list.
type sessionItem struct{ SessionInfo }

func (i sessionItem) FilterValue() string { return filterText(i.SessionInfo) }

// title is how a person recognises the session: its intention, or when
// it began.
func (i sessionItem) title() string {
	if i.Intention != "" {
		return i.Intention
	}
	if i.Practice == engine.PracticeBreathe {
		return "Paced breathing, " + i.Created.Local().Format("2 Jan, 15:04")
	}
	if i.Practice == engine.PracticeSit {
		return "Sitting, " + i.Created.Local().Format("2 Jan, 15:04")
	}
	return "Session of " + i.Created.Local().Format("2 Jan, 15:04")
}

// where is where the session stands: its phase, or what the list says
// of a practice.
func (i sessionItem) where() string {
	if i.Stage != "" {
		return i.Stage
	}
	return i.Phase.String()
}

// sessionRows draws the list's rows: a title, then the details.
type sessionRows struct {
	styles *Styles
	now    func() time.Time
}

func (d sessionRows) Height() int                         { return 2 }
func (d sessionRows) Spacing() int                        { return 1 }
func (d sessionRows) Update(tea.Msg, *list.Model) tea.Cmd { return nil }

func (d sessionRows) Render(w io.Writer, m list.Model, index int, it list.Item) {
	item, ok := it.(sessionItem)
	if !ok {
		return
	}
	width := max(m.Width()-4, 10)
	s := d.styles
	status := s.Status[item.Status].Render(statusLabel(item.SessionInfo))
	var detail []string
	detail = append(detail, status)
	if idle := item.Idle(d.now()); idle != engine.NotIdle {
		detail = append(detail, s.Warn.Render(idle.String()))
	}
	if (!item.Status.Finished() || item.Partial) && item.Length == 0 {
		detail = append(detail, item.where()) // an open-ended sit has no share done
	} else if !item.Status.Finished() || item.Partial {
		detail = append(detail, item.where(), fmt.Sprintf("%d%%", int(item.Progress*100)))
	}
	if item.Status.Resumable() && item.ResumesOn != "" && item.Newer == 0 {
		detail = append(detail, item.ResumesOn)
	}
	if item.Length == 0 {
		detail = append(detail, "open-ended") // a sit with no set end
	} else {
		detail = append(detail, fmt.Sprintf("%d min", int(item.Length.Minutes())))
	}
	if item.ReplayOf != "" {
		detail = append(detail, "replay")
	}
	if !item.Open { // one running elsewhere is active now
		detail = append(detail, "last active "+human.Ago(item.LastActive, d.now()))
	}
	title := truncate(item.title(), width)
	line2 := ansi.Truncate(strings.Join(detail, s.Muted.Render(" · ")), width, "…")
	if index == m.Index() {
		fmt.Fprintf(w, "%s\n%s", s.ItemSelected.Render(title), s.ItemDetail.Render(line2))
		return
	}
	fmt.Fprintf(w, "%s\n%s", s.Item.Render(title), s.ItemDetail.Render(line2))
}

func statusLabel(in SessionInfo) string {
	switch {
	case in.Newer > 0:
		return "made by a newer lull"
	case in.LeftRunning():
		return "left running" // by a lull that stopped
	case in.Status == engine.Running && in.Holder > 0:
		return fmt.Sprintf("running elsewhere (pid %d)", in.Holder) // in another lull
	case in.Status == engine.Running:
		return "running elsewhere"
	case in.Partial:
		return "partial" // completed before its end
	}
	return string(in.Status)
}

// minTitledList is the fewest rows the list is drawn in with its title
// and count.
const minTitledList = 8

// homeView lists the saved sessions, resumable first.
type homeView struct {
	list     list.Model
	styles   *Styles
	problems []Problem // sessions that could not be read
	loaded   bool
	width    int
	height   int

	// reselect is the session to highlight once the list is read again:
	// the one just left, so that Enter resumes it.
	reselect string
	// practice is a line on the listener's practice (PracticeLine); empty
	// on a first run.
	practice string
}

func newHomeView(styles *Styles, now func() time.Time) homeView {
	l := list.New(nil, sessionRows{styles: styles, now: now}, 0, 0)
	l.Title = "lull"
	l.SetShowHelp(false)
	l.SetStatusBarItemName("session", "sessions")
	l.DisableQuitKeybindings()
	l.Filter = matchSessions
	l.Styles = styles.List
	l.FilterInput.SetStyles(styles.TextInput)
	return homeView{list: l, styles: styles}
}

func (h *homeView) SetStyles(s *Styles, now func() time.Time) {
	h.styles = s
	h.list.Styles = s.List
	h.list.FilterInput.SetStyles(s.TextInput)
	h.list.SetDelegate(sessionRows{styles: s, now: now})
}

func (h *homeView) SetSize(width, height int) {
	h.width, h.height = width, height
	extra := 0
	if len(h.problems) > 0 {
		extra = min(len(h.problems), 3) + 1
	}
	if h.practice != "" {
		extra++
	}
	// Very short (the full key help open on a small screen): the sessions
	// themselves, without the list's title and count.
	h.list.SetShowTitle(height >= minTitledList)
	h.list.SetShowStatusBar(height >= minTitledList)
	h.list.SetSize(width, max(height-extra, 3))
}

// salvageable is the first session that could be looked at and restored.
func (h *homeView) salvageable() (string, bool) {
	for _, p := range h.problems {
		if p.ID != "" {
			return p.ID, true
		}
	}
	return "", false
}

func (h *homeView) SetSessions(infos []SessionInfo, problems []Problem) tea.Cmd {
	items := make([]list.Item, len(infos))
	for i, info := range infos {
		items[i] = sessionItem{info}
	}
	h.problems = problems
	h.loaded = true
	h.SetSize(h.width, h.height)
	cmd := h.list.SetItems(items)
	if h.reselect != "" && h.list.FilterState() == list.Unfiltered {
		for i, info := range infos {
			if info.ID == h.reselect {
				h.list.Select(i)
			}
		}
		h.reselect = ""
	}
	return cmd
}

// SetPractice sets the line on the listener's practice.
func (h *homeView) SetPractice(line string) {
	h.practice = line
	h.SetSize(h.width, h.height)
}

// Selected is the highlighted session.
func (h homeView) Selected() (SessionInfo, bool) {
	it, ok := h.list.SelectedItem().(sessionItem)
	return it.SessionInfo, ok
}

// find is the listed session with this id.
func (h homeView) find(id string) (SessionInfo, bool) {
	for _, it := range h.list.Items() {
		if in, ok := it.(sessionItem); ok && in.ID == id {
			return in.SessionInfo, true
		}
	}
	return SessionInfo{}, false
}

// Filtering reports whether keys belong to the filter input.
func (h homeView) Filtering() bool { return h.list.FilterState() == list.Filtering }

func (h homeView) Empty() bool { return len(h.list.Items()) == 0 }

func (h *homeView) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	h.list, cmd = h.list.Update(msg)
	return cmd
}

func (h homeView) View() string {
	s := h.styles
	if !h.loaded {
		return s.Title.Render("lull") + "\n\n" + s.Muted.Render("Reading your sessions…")
	}
	var b strings.Builder
	if h.Empty() {
		b.WriteString(s.Title.Render("lull") + "\n\n")
		b.WriteString(s.Text.Render("Guided relaxation, spoken aloud.") + "\n\n")
		b.WriteString(s.Muted.Render(wrap("No sessions yet. Press n to begin your first:\nput on headphones, close your eyes, and let the voice lead.", max(h.width, 10))))
	} else {
		b.WriteString(h.list.View())
	}
	// Under the list, in the rows it leaves: the practice line, and the
	// sessions that could not be read — on a short screen in one line,
	// before the practice line is left out.
	room := h.height - lipgloss.Height(b.String())
	width := max(h.width, 10)
	var problems []string
	if len(h.problems) > 0 {
		problems = append(problems, "")
		for i, p := range h.problems {
			if i == 3 {
				problems = append(problems, s.Warn.Render(fmt.Sprintf("  … and %d more that could not be read", len(h.problems)-3)))
				break
			}
			line := "  ! " + p.Text
			if p.ID != "" {
				line = "  ! u to look: " + p.Text
			}
			problems = append(problems, s.Warn.Render(truncate(line, width)))
		}
	}
	practice := 0
	if h.practice != "" {
		practice = 1
	}
	if h.height > 0 && len(problems)+practice > room && len(h.problems) > 0 {
		line := fmt.Sprintf("! %d could not be read", len(h.problems))
		if _, ok := h.salvageable(); ok {
			line += ": u to look"
		}
		problems = []string{s.Warn.Render(truncate(line, width))}
	}
	if h.practice != "" && (h.height <= 0 || len(problems)+1 <= room) {
		b.WriteString("\n" + s.Muted.Render(truncate(h.practice, width)))
	}
	for _, p := range problems {
		b.WriteString("\n" + p)
	}
	return b.String()
}

// truncate shortens s to width cells with an ellipsis.
func truncate(s string, width int) string {
	if lipgloss.Width(s) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && lipgloss.Width(string(r))+1 > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// settle shows the session's row as st stands, with no lull holding it:
// a run this lull has just closed.
func (h *homeView) settle(st engine.State) {
	for i, it := range h.list.Items() {
		row, ok := it.(sessionItem)
		if !ok || row.ID != st.ID {
			continue
		}
		row.Status, row.Phase, row.Progress = st.Status, st.Phase, st.Progress()
		row.LastActive, row.Open, row.Holder = st.UpdatedAt, false, 0
		h.list.SetItem(i, row)
		return
	}
}
