package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/human"
)

// What lull prints outside the TUI fits the terminal it is printed on:
// paragraphs wrap between words, never inside one, a command to paste is
// kept on one line, and a table too wide wraps its last column and then
// leaves out the columns that matter least. Printed to a pipe or a file
// nothing is wrapped, unless COLUMNS asks for a width.

// columns is how wide out is: the terminal's width when out is one, else
// COLUMNS when it holds a width; 0 means no limit (a pipe, a file).
func columns(out io.Writer) int {
	if u, ok := out.(interface{ Unwrap() io.Writer }); ok {
		out = u.Unwrap()
	}
	if f, ok := out.(*os.File); ok && isTerminal(f) {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			return w
		}
	}
	if w, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && w > 0 {
		return w
	}
	return 0
}

// keep stands for a space inside a command while a paragraph is wrapped:
// a private-use rune, never in lull's words, one column wide.
const keep = '\uE000'

// fitText fits text to width columns: each line is wrapped between words,
// its continuations indented as the line itself is — or, for a line laid
// out in two columns (a flag and its help, a name and what it is), under
// its second column — and a command for the shell (lull, as
// human.Command names it, and its arguments) is never split over two
// lines. A word wider than width stands alone on its line, whole. width 0
// leaves text as it is.
func fitText(text string, width int) string {
	if width <= 0 {
		return strings.ReplaceAll(text, string(keep), " ")
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = wrapLine(l, width)
	}
	return strings.ReplaceAll(strings.Join(lines, "\n"), string(keep), " ")
}

// unbroken is text that fitText keeps on one line: a hint and the command
// it gives ("Resume with: lull resume …").
func unbroken(text string) string { return strings.ReplaceAll(text, " ", string(keep)) }

// wrapLine wraps one line (see fitText).
func wrapLine(line string, width int) string {
	if ansi.StringWidth(line) <= width {
		return line
	}
	body := strings.TrimLeft(line, " ")
	lead := line[:len(line)-len(body)]
	hang := lead
	if gap := strings.Index(body, "  "); gap > 0 {
		second := strings.TrimLeft(body[gap:], " ")
		at := ansi.StringWidth(lead+body[:gap]) + len(body[gap:]) - len(second)
		if at > width/2 {
			// Too little room beside the first column: the second goes
			// under it, further in.
			under := strings.Repeat(" ", min(len(lead)+4, width/2))
			return lead + body[:gap] + "\n" + flow(under, second, under, width)
		}
		hang = strings.Repeat(" ", at)
	}
	if len(hang) > width/2 {
		hang = hang[:width/2] // room matters more than lining up
	}
	return flow(lead, body, hang, width)
}

// flow writes text after lead, wrapped between words at width, each
// further line begun with hang. Each word keeps the spaces before it while
// it stays on the line, so a line's own alignment survives; a break drops
// them.
func flow(lead, text, hang string, width int) string {
	var b strings.Builder
	b.WriteString(lead)
	col := ansi.StringWidth(lead)
	rest := keepCommands(text)
	for first := true; ; first = false {
		word := strings.TrimLeft(rest, " ")
		space := rest[:len(rest)-len(word)]
		if word == "" {
			break // the spaces at its end
		}
		if i := strings.IndexByte(word, ' '); i >= 0 {
			word = word[:i]
		}
		rest = rest[len(space)+len(word):]
		w := ansi.StringWidth(word)
		if !first && col+len(space)+w > width {
			// A word too wide to follow the indent begins its line: the
			// terminal would break it.
			next := hang
			if len(hang)+w > width && w <= width {
				next = ""
			}
			b.WriteString("\n" + next)
			col, space = len(next), ""
		}
		b.WriteString(space + word)
		col += len(space) + w
	}
	return b.String()
}

// keepCommands joins the words of every command in line with keep, so
// that wrapping moves a command whole. A command begins with lull's name
// (human.Command's, or plain lull) and one of its commands or a flag, and
// runs to the end of the line, or to what ends it in a sentence: a comma,
// a stop, a bracket or a quote (an argument in quotes is part of it).
func keepCommands(line string) string {
	var b strings.Builder
	for {
		// lull as a hint names it, or as help's examples do.
		i, name := -1, ""
		for _, n := range []string{human.Command(""), "lull "} {
			if j := strings.Index(line, n); j >= 0 && (i < 0 || j < i) {
				i, name = j, n
			}
		}
		if i < 0 {
			b.WriteString(line)
			return b.String()
		}
		if i > 0 && !strings.ContainsRune(" (\"'`", rune(line[i-1])) || !commandFollows(line[i+len(name):]) {
			b.WriteString(line[:i+len(name)]) // inside a word (…/lull ), or prose: "lull will be here"
			line = line[i+len(name):]
			continue
		}
		b.WriteString(line[:i])
		cmd := line[i:]
		end := len(cmd)
		quoted := i > 0 && strings.ContainsRune("\"'`", rune(line[i-1])) // "lull new": the quote ends it
		for j := len(name); j < len(cmd); j++ {
			q := cmd[j]
			if !quoted && (q == '"' || q == '\'') {
				if k := strings.IndexByte(cmd[j+1:], q); k >= 0 {
					j += k + 1 // an argument in quotes is part of the command
					continue
				}
			}
			if strings.ContainsRune(",;)\"'`", rune(q)) || q == '.' && (j+1 == len(cmd) || cmd[j+1] == ' ') {
				end = j
				break
			}
		}
		// The spaces after it stay breakable.
		whole := strings.TrimRight(cmd[:end], " ")
		b.WriteString(strings.ReplaceAll(whole, " ", string(keep)))
		line = cmd[len(whole):]
	}
}

// commandNames are lull's commands (fitHelp records them): what tells
// "lull resume ID" from "lull will be here".
var commandNames atomic.Pointer[map[string]bool]

// commandFollows reports whether rest, what follows lull's name, begins
// with one of its commands or a flag.
func commandFollows(rest string) bool {
	word, _, _ := strings.Cut(rest, " ")
	names := commandNames.Load()
	return strings.HasPrefix(word, "-") || names != nil && (*names)[strings.TrimRight(word, ".,;)")]
}

// column is one column of a table.
type column struct {
	min int // the least width, padded to: a key column of fixed width
	// drop is when the column is left out of a table too wide for its
	// terminal: 1 first, then 2, …; 0 never.
	drop int
}

// table is rows of cells printed as tabwriter aligns them — every cell
// but a row's last in a column, the last running on — but fitted to a
// width: a row's last cell wraps between words in the room left to it,
// and when that room would be narrower than lastMin in the longest rows,
// columns are left out in their drop order until it is not (or none is
// left to leave out).
type table struct {
	indent  string // before every row
	gap     int    // spaces between columns
	lastMin int    // the least room for a last cell before columns are dropped
	cols    []column
	rows    [][]string
}

// newTable is a table indented by indent whose columns, two spaces
// apart, are set up by cols (a row may have more).
func newTable(indent string, cols int) *table {
	return &table{indent: indent, gap: 2, lastMin: 20, cols: make([]column, cols)}
}

// add appends a row.
func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) col(i int) column {
	if i < len(t.cols) {
		return t.cols[i]
	}
	return column{}
}

// render lays the table out for width columns (0: no limit).
func (t *table) render(width int) string {
	n := 0 // the aligned columns: every cell but a row's last
	for _, r := range t.rows {
		n = max(n, len(r)-1)
	}
	widths := make([]int, n)
	last := 0 // the widest last cell of the longest rows
	for i := range widths {
		widths[i] = t.col(i).min
	}
	for _, r := range t.rows {
		for i, c := range r {
			if i < len(r)-1 {
				widths[i] = max(widths[i], ansi.StringWidth(c))
			} else if len(r)-1 == n {
				last = max(last, ansi.StringWidth(c))
			}
		}
	}
	shown := make([]bool, n)
	for i := range shown {
		shown[i] = true
	}
	room := 0 // for the last cells, beside the others
	for width > 0 {
		used := ansi.StringWidth(t.indent)
		for i, w := range widths {
			if shown[i] {
				used += w + t.gap
			}
		}
		room = width - used
		if room >= min(last, t.lastMin) || !t.dropOne(shown) {
			break
		}
	}
	// With too little room left even so, a last cell that does not fit
	// beside the others goes under them, further in.
	stacked := width > 0 && room < min(last, t.lastMin)
	under := strings.Repeat(" ", min(ansi.StringWidth(t.indent)+4, width/2))
	var b strings.Builder
	for _, r := range t.rows {
		var lead strings.Builder
		lead.WriteString(t.indent)
		for i, c := range r[:max(len(r)-1, 0)] {
			if shown[i] {
				lead.WriteString(c + strings.Repeat(" ", widths[i]-ansi.StringWidth(c)+t.gap))
			}
		}
		cell := ""
		if len(r) > 0 {
			cell = r[len(r)-1]
		}
		at := ansi.StringWidth(lead.String())
		word := longestWord(cell)
		if len(r) > 1 && (stacked && ansi.StringWidth(cell) > width-at || width > 0 && word > width-at) {
			if l := strings.TrimRight(lead.String(), " "); l != "" {
				b.WriteString(l + "\n") // a row that continues the one above has none
			}
			lead.Reset()
			if word <= width-len(under) {
				lead.WriteString(under)
			} // else from the first column: a path is never broken
			at = lead.Len()
		}
		if width > 0 {
			cell = fitText(cell, max(width-at, 1))
		}
		for j, l := range strings.Split(cell, "\n") {
			if j == 0 {
				b.WriteString(strings.TrimRight(lead.String()+l, " "))
			} else {
				b.WriteString(strings.TrimRight(strings.Repeat(" ", at)+l, " "))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// dropOne leaves out the shown column that goes first; false when none
// may go.
func (t *table) dropOne(shown []bool) bool {
	at := -1
	for i, ok := range shown {
		if d := t.col(i).drop; ok && d > 0 && (at < 0 || d < t.col(at).drop) {
			at = i
		}
	}
	if at < 0 {
		return false
	}
	shown[at] = false
	return true
}

// fprintf is fmt.Fprintf, fitted to out's width.
func fprintf(out io.Writer, format string, a ...any) { fprint(out, fmt.Sprintf(format, a...)) }

// fprintln is fmt.Fprintln, fitted to out's width.
func fprintln(out io.Writer, a ...any) { fprint(out, fmt.Sprintln(a...)) }

// fprint writes text fitted to out's width.
func fprint(out io.Writer, text string) {
	io.WriteString(out, fitText(text, columns(out))) //nolint:errcheck // as fmt.Fprint's callers do
}

// fitHelp fits every command's --help to the terminal: cobra lays it out
// for 80 columns, and a narrower terminal would break its words. The
// flags are wrapped by pflag, beside their names; the rest by fitText.
func fitHelp(root *cobra.Command) {
	names := map[string]bool{}
	for _, cmd := range root.Commands() {
		for _, name := range append(cmd.Aliases, cmd.Name()) {
			names[name] = true
		}
	}
	commandNames.Store(&names)
	show := root.HelpFunc()
	helpFunc.Do(func() { cobra.AddTemplateFunc("helpColumns", func() int { return int(helpColumns.Load()) }) }) // cobra's map is global
	usage := root.UsageTemplate()
	for _, flags := range []string{".LocalFlags", ".InheritedFlags"} {
		usage = strings.ReplaceAll(usage, flags+".FlagUsages", "("+flags+".FlagUsagesWrapped helpColumns)")
	}
	root.SetUsageTemplate(usage)
	root.SetHelpFunc(func(cmd *cobra.Command, args []string) {
		out := cmd.OutOrStdout()
		width := columns(out)
		helpColumns.Store(int64(width))
		if width == 0 {
			show(cmd, args)
			return
		}
		var b strings.Builder
		cmd.SetOut(&b)
		show(cmd, args)
		cmd.SetOut(out)
		lines := strings.Split(fitText(reflow(b.String(), width), width), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ") // pflag pads a name it wraps under
		}
		io.WriteString(out, strings.Join(lines, "\n")) //nolint:errcheck // as cobra's own help does
	})
}

// helpColumns is the width the help being shown is fitted to; 0 for none.
var (
	helpColumns atomic.Int64
	helpFunc    sync.Once
)

// reflow joins the lines of help's description, written for 80 columns,
// into paragraphs when a line of it is wider than width: fitText then
// wraps them evenly. Indented lines (a list) and blank ones stay as they
// are; the usage after the description is left alone.
func reflow(help string, width int) string {
	desc, usage, ok := strings.Cut(help, "\nUsage:")
	if !ok {
		return help
	}
	lines := strings.Split(desc, "\n")
	wide := false
	for _, l := range lines {
		wide = wide || ansi.StringWidth(l) > width
	}
	if !wide {
		return help
	}
	var b strings.Builder
	for i, l := range lines {
		joins := i > 0 && l != "" && !strings.HasPrefix(l, " ") && lines[i-1] != "" && !strings.HasPrefix(lines[i-1], " ")
		if joins {
			b.WriteString(" ")
		} else if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(l)
	}
	return b.String() + "\nUsage:" + usage
}

// longestWord is the width of the widest word of text, a command counted
// as one.
func longestWord(text string) int {
	w := 0
	for _, word := range strings.Fields(keepCommands(text)) {
		w = max(w, ansi.StringWidth(word))
	}
	return w
}
