package tui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/list"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// Styles is every style the TUI draws with, built once per background.
type Styles struct {
	App      lipgloss.Style
	Title    lipgloss.Style
	Subtitle lipgloss.Style
	Muted    lipgloss.Style
	Text     lipgloss.Style
	Accent   lipgloss.Style
	Heading  lipgloss.Style

	Current  lipgloss.Style // the sentence being spoken
	Previous lipgloss.Style // sentences already spoken
	Chapter  lipgloss.Style // a phase heading in the transcript

	PhaseDone    lipgloss.Style
	PhaseNow     lipgloss.Style
	PhaseLater   lipgloss.Style
	BarDone      lipgloss.Style
	BarLater     lipgloss.Style
	Clock        lipgloss.Style
	Dialog       lipgloss.Style
	FieldLabel   lipgloss.Style
	FieldFocused lipgloss.Style
	Choice       lipgloss.Style
	ChoiceOn     lipgloss.Style

	Status map[engine.Status]lipgloss.Style
	Info   lipgloss.Style
	Warn   lipgloss.Style
	Error  lipgloss.Style

	// The practice charts: a bar of minutes (and a mood after), the
	// breathing part of a bar, a mood before.
	ChartBar    lipgloss.Style
	ChartBreath lipgloss.Style
	ChartBefore lipgloss.Style

	Item         lipgloss.Style
	ItemSelected lipgloss.Style
	ItemDetail   lipgloss.Style

	Help      help.Styles
	List      list.Styles
	TextInput textinput.Styles
}

type palette struct {
	text, muted, subtle, accent, good, warn, bad color.Color
	// key help: the keys and what they do, readable (WCAG AA, 4.5:1)
	// on the usual terminal backgrounds, light or dark
	helpKey, helpDesc color.Color
}

// NewStyles builds the styles for a dark or light background. With
// noColor (NO_COLOR is set) only bold, faint and reverse remain.
func NewStyles(isDark, noColor bool) Styles {
	ld := lipgloss.LightDark(isDark)
	p := palette{
		text:   ld(lipgloss.Color("#2B2A33"), lipgloss.Color("#E4E2EC")),
		muted:  ld(lipgloss.Color("#6E6C80"), lipgloss.Color("#8E8BA3")),
		subtle: ld(lipgloss.Color("#D9D6E6"), lipgloss.Color("#3A3848")),
		accent: ld(lipgloss.Color("#5B47C2"), lipgloss.Color("#A99BFF")),
		good:   ld(lipgloss.Color("#2F7D5B"), lipgloss.Color("#7FCFAA")),
		warn:   ld(lipgloss.Color("#94650A"), lipgloss.Color("#E3BE73")),
		bad:    ld(lipgloss.Color("#B3261E"), lipgloss.Color("#EF8A8A")),

		helpKey:  ld(lipgloss.Color("#4A3AA8"), lipgloss.Color("#B6ABFF")),
		helpDesc: ld(lipgloss.Color("#55536A"), lipgloss.Color("#ABA8C0")),
	}
	fg := func(c color.Color) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	s := Styles{
		App:      lipgloss.NewStyle().Padding(1, 2, 0, 2),
		Title:    fg(p.accent).Bold(true),
		Subtitle: fg(p.muted),
		Muted:    fg(p.muted),
		Text:     fg(p.text),
		Accent:   fg(p.accent),
		Heading:  fg(p.text).Bold(true),
		Current:  fg(p.accent).Bold(true),
		Previous: fg(p.muted),
		Chapter:  fg(p.muted).Italic(true),

		PhaseDone:  fg(p.good),
		PhaseNow:   fg(p.accent).Bold(true),
		PhaseLater: fg(p.muted),
		BarDone:    fg(p.accent),
		BarLater:   fg(p.subtle),
		Clock:      fg(p.text),
		Dialog: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).
			BorderForeground(p.accent).Padding(1, 2),
		FieldLabel:   fg(p.muted),
		FieldFocused: fg(p.accent).Bold(true),
		Choice:       fg(p.muted),
		ChoiceOn:     fg(p.accent).Bold(true),

		Status: map[engine.Status]lipgloss.Style{
			engine.Created:     fg(p.muted),
			engine.Running:     fg(p.accent),
			engine.Paused:      fg(p.warn),
			engine.Interrupted: fg(p.bad),
			engine.Completed:   fg(p.good),
			engine.Abandoned:   fg(p.muted).Faint(true),
		},
		Info:  fg(p.muted),
		Warn:  fg(p.warn),
		Error: fg(p.bad).Bold(true),

		ChartBar:    fg(p.accent),
		ChartBreath: fg(p.good),
		ChartBefore: fg(p.muted),

		Item:         fg(p.text).PaddingLeft(2),
		ItemSelected: fg(p.accent).Bold(true).PaddingLeft(1).Border(lipgloss.NormalBorder(), false, false, false, true).BorderForeground(p.accent),
		ItemDetail:   fg(p.muted).PaddingLeft(2),

		Help:      keyHelp(p, fg),
		List:      list.DefaultStyles(isDark),
		TextInput: textInput(p, isDark, fg),
	}
	if noColor {
		s.Dialog = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(1, 2)
		s.ItemSelected = lipgloss.NewStyle().Bold(true).PaddingLeft(1).Border(lipgloss.NormalBorder(), false, false, false, true)
		s.Current = lipgloss.NewStyle().Bold(true)
		s.Previous = lipgloss.NewStyle().Faint(true)
		s.PhaseNow = lipgloss.NewStyle().Bold(true).Reverse(true)
		s.Help = plainHelp()
		s.List = plainList()
		s.TextInput = plainTextInput()
	}
	s.List.Title = s.Title.Padding(0)
	s.List.TitleBar = lipgloss.NewStyle().Padding(0, 0, 1, 0)
	s.List.StatusBar = s.Muted.Padding(0, 0, 1, 0)
	s.List.NoItems = s.Muted
	return s
}

// keyHelp styles the key help: bubbles' own greys are faint (2:1 on
// white), and the help is how a new listener learns the keys.
func keyHelp(p palette, fg func(color.Color) lipgloss.Style) help.Styles {
	key, desc := fg(p.helpKey).Bold(true), fg(p.helpDesc)
	return help.Styles{
		ShortKey: key, ShortDesc: desc, ShortSeparator: desc,
		FullKey: key, FullDesc: desc, FullSeparator: desc,
		Ellipsis: desc,
	}
}

// textInput styles the text fields (the intention, a model's name, a
// note, the list's filter): bubbles' placeholder grey is 2.9:1 on black,
// hard to read on a dark terminal, and its blurred text 3.4:1 on white.
func textInput(p palette, isDark bool, fg func(color.Color) lipgloss.Style) textinput.Styles {
	s := textinput.DefaultStyles(isDark)
	for _, st := range []*textinput.StyleState{&s.Focused, &s.Blurred} {
		st.Placeholder = fg(p.helpDesc)
		st.Suggestion = fg(p.helpDesc)
	}
	s.Blurred.Text = fg(p.text)
	s.Cursor.Color = p.accent
	return s
}

func plainHelp() help.Styles {
	plain := lipgloss.NewStyle()
	return help.Styles{
		ShortKey: plain.Bold(true), ShortDesc: plain, ShortSeparator: plain,
		FullKey: plain.Bold(true), FullDesc: plain, FullSeparator: plain,
		Ellipsis: plain,
	}
}

func plainList() list.Styles {
	plain := lipgloss.NewStyle()
	return list.Styles{
		TitleBar: plain, Title: plain.Bold(true), Spinner: plain,
		Filter:                      plainTextInput(),
		DefaultFilterCharacterMatch: plain.Underline(true),
		StatusBar:                   plain, StatusEmpty: plain, StatusBarActiveFilter: plain,
		StatusBarFilterCount: plain, NoItems: plain, PaginationStyle: plain.PaddingLeft(2),
		HelpStyle: plain, ActivePaginationDot: plain.SetString("•"),
		InactivePaginationDot: plain.Faint(true).SetString("•"), ArabicPagination: plain, DividerDot: plain.SetString(" • "),
	}
}

func plainTextInput() textinput.Styles {
	s := textinput.DefaultStyles(true)
	plain := lipgloss.NewStyle()
	s.Focused = textinput.StyleState{Prompt: plain, Text: plain, Placeholder: plain.Faint(true), Suggestion: plain.Faint(true)}
	s.Blurred = s.Focused
	s.Cursor.Color = nil
	return s
}
