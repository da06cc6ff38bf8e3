// Package keytable reads the README's table of keys and finds, on a
// screen's text, each key and what the screen says it does: one reading
// for the TUI's tests of its views and the end-to-end tests of the real
// binary in a terminal.
package keytable

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Row is one row of the README's table of keys: the place it is about (a
// row with none is about the place above it), its keys, what they do.
type Row struct{ Where, Keys, Does string }

// Read returns the rows of the "### Keys" table of the README at path.
func Read(path string) ([]Row, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	_, table, ok := strings.Cut(string(b), "\n### Keys\n")
	if !ok {
		return nil, errorf("%s has no ### Keys", path)
	}
	var rows []Row
	where := ""
	for _, line := range strings.Split(table, "\n") {
		line = strings.TrimSpace(line)
		if len(rows) > 0 && !strings.HasPrefix(line, "|") {
			break // the table's end
		}
		if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "| Where") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			return nil, errorf("a row of the key table has %d cells: %q", len(cells), line)
		}
		if w := strings.TrimSpace(cells[0]); w != "" {
			where = w
		}
		rows = append(rows, Row{where, strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])})
	}
	return rows, nil
}

var backticked = regexp.MustCompile("`([^`]+)`")

// Keys are the keys a row's key cell names, as the screen writes them:
// "`1`–`5`" is "1–5", "`←` `→`" is ← and →.
func Keys(cell string) []string {
	if strings.Contains(cell, "`1`–`5`") {
		return []string{"1–5"}
	}
	var keys []string
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// Shows reports whether the screen shows key as a key: standing alone,
// not as part of a word ("t" in "reset" is no t).
func Shows(screen, key string) bool {
	for i := 0; ; {
		j := strings.Index(screen[i:], key)
		if j < 0 {
			return false
		}
		at := i + j
		before, after := rune(' '), rune(' ')
		if at > 0 {
			before = []rune(screen[:at])[len([]rune(screen[:at]))-1]
		}
		if rest := []rune(screen[at+len(key):]); len(rest) > 0 {
			after = rest[0]
		}
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		i = at + len(key)
	}
}

func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// Help is what the screen says a key does, wherever it stands as a key:
// the words after it, up to a gap of two spaces or the line's end
// ("space pause/resume    +   louder" gives "pause/resume" for space). A
// key grouped with others (",/.") has the group's help. The same letter
// in running text ("calm before a talk") gives a reading too: a caller
// asks whether any of them says what the README says.
func Help(screen, key string) []string {
	var out []string
	for _, line := range strings.Split(screen, "\n") {
		for i := 0; ; {
			j := strings.Index(line[i:], key)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(key)
			if !Shows(line[max(at-1, 0):min(i+1, len(line))], key) {
				continue // part of a word
			}
			rest := line[at:]
			k := strings.IndexByte(rest, ' ')
			if k < 0 {
				continue
			}
			rest = strings.TrimLeft(rest[k:], " ") // past the key's token: "," in ",/." is the group's
			if k := strings.Index(rest, "  "); k >= 0 {
				rest = rest[:k]
			}
			if rest = strings.TrimSpace(rest); rest != "" {
				out = append(out, rest)
			}
		}
	}
	return out
}

// Said reports whether any of the screen's helps for a key agrees with
// the README's words for it.
func Said(helps []string, readme string) bool {
	return slices.ContainsFunc(helps, func(h string) bool { return Agrees(h, readme) })
}

// Agrees reports whether a screen's help for a key and the README's words
// for it share a word that says what it does (not "the", "a" or "and"):
// "louder" and "louder / softer, in 3 dB steps"; "pause & list" and
// "pause, save, back to your sessions".
func Agrees(help, readme string) bool {
	words := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) })
	}
	for _, w := range words(help) {
		if len(w) >= 3 && w != "the" && w != "and" && w != "you" && slices.Contains(words(readme), w) {
			return true
		}
	}
	return false
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
