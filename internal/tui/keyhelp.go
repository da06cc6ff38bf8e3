package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The key help is drawn here rather than by bubbles' help.Model, whose
// short line runs past its width when the ellipsis does not fit, and
// whose full help drops the columns that do not: on a narrow terminal the
// keys that matter most went missing, or were cut mid-word.

// brief is b with a shorter description, for a narrow screen's key line.
func brief(b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(b.Help().Key, desc))
}

// keyLine is the short key help in width cells at most: the screen's keys
// as they are, as many as fit, and "…" when some were left out ("?" shows
// them all); when that would leave out an essential key, the essential
// keys in brief.
func keyLine(st help.Styles, k screenKeys, width int) string {
	line, shown := keysIn(st, k.short, " • ", width)
	if shown == len(enabled(k.short)) || len(k.narrow) == 0 {
		return line
	}
	kept := map[string]bool{}
	for _, kb := range enabled(k.short)[:shown] {
		kept[kb.Help().Key] = true
	}
	for _, kb := range enabled(k.narrow) {
		if !kept[kb.Help().Key] {
			line, _ = keysIn(st, k.narrow, "  ", width)
			return line
		}
	}
	return line
}

func enabled(keys []key.Binding) []key.Binding {
	var out []key.Binding
	for _, kb := range keys {
		if kb.Enabled() {
			out = append(out, kb)
		}
	}
	return out
}

// keysIn lays keys out on one line of width cells at most, joined by sep,
// and says how many of them it shows; when not all, the line ends in "…".
func keysIn(st help.Styles, keys []key.Binding, sep string, width int) (string, int) {
	keys = enabled(keys)
	var items []string
	for _, kb := range keys {
		item := st.ShortKey.Inline(true).Render(kb.Help().Key)
		if d := kb.Help().Desc; d != "" {
			item += " " + st.ShortDesc.Inline(true).Render(d)
		}
		items = append(items, item)
	}
	separator := st.ShortSeparator.Inline(true).Render(sep)
	if line := strings.Join(items, separator); lipgloss.Width(line) <= width {
		return line, len(items)
	}
	tail := " " + st.Ellipsis.Inline(true).Render("…")
	line, shown := "", 0
	for i, item := range items {
		next := item
		if i > 0 {
			next = line + separator + item
		}
		if lipgloss.Width(next)+lipgloss.Width(tail) > width {
			break
		}
		line, shown = next, i+1
	}
	if shown == 0 {
		// Not even one key fits whole: its start, cut where it is cut.
		return ansi.Truncate(strings.Join(items, separator), max(width, 1), "…"), 0
	}
	return line + tail, shown
}

// keyColumns is the full key help: its groups side by side in columns
// when they fit the width; on a narrower screen every key in a line that
// wraps, so every key is shown in as few rows as it can be.
func keyColumns(st help.Styles, groups [][]key.Binding, width int) string {
	var cols []string
	var all []key.Binding
	for _, group := range groups {
		var keys, descs []string
		for _, kb := range enabled(group) {
			keys = append(keys, kb.Help().Key)
			descs = append(descs, kb.Help().Desc)
			all = append(all, kb)
		}
		if len(keys) == 0 {
			continue
		}
		cols = append(cols, lipgloss.JoinHorizontal(lipgloss.Top,
			st.FullKey.Render(strings.Join(keys, "\n")), " ",
			st.FullDesc.Render(strings.Join(descs, "\n"))))
	}
	var gapped []string
	for i, col := range cols {
		if i > 0 {
			gapped = append(gapped, "    ")
		}
		gapped = append(gapped, col)
	}
	if out := lipgloss.JoinHorizontal(lipgloss.Top, gapped...); lipgloss.Width(out) <= width {
		return out
	}
	var rows []string
	row := ""
	for _, kb := range all {
		item := st.FullKey.Render(kb.Help().Key) + " " + st.FullDesc.Render(kb.Help().Desc)
		switch {
		case row == "":
			row = item
		case lipgloss.Width(row)+2+lipgloss.Width(item) <= width:
			row += "  " + item
		default:
			rows = append(rows, row)
			row = item
		}
	}
	if row != "" {
		rows = append(rows, row)
	}
	for i, r := range rows {
		// A key whose words alone are wider than the screen ends in "…".
		rows[i] = ansi.Truncate(r, max(width, 1), "…")
	}
	return strings.Join(rows, "\n")
}
