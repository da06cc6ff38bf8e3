package tui

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// keyRow is one row of the README's table of keys.
type keyRow struct{ where, keys, does string }

// readmeKeys are the rows of the README's "### Keys" table, each with the
// place it is about (a row with none is about the place above it).
func readmeKeys(t *testing.T) []keyRow {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "\n### Keys\n")
	if !ok {
		t.Fatal("the README has no ### Keys")
	}
	var rows []keyRow
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
			t.Fatalf("a row of the key table has %d cells: %q", len(cells), line)
		}
		if w := strings.TrimSpace(cells[0]); w != "" {
			where = w
		}
		rows = append(rows, keyRow{where, strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])})
	}
	if len(rows) < 40 {
		t.Fatalf("read %d rows of the key table", len(rows))
	}
	return rows
}

var backticked = regexp.MustCompile("`([^`]+)`")

// keysOf are the keys a row's key cell names, as the screen writes them:
// "`1`–`5`" is "1–5", "`←` `→`" is ← and →.
func keysOf(cell string) []string {
	if strings.Contains(cell, "`1`–`5`") {
		return []string{"1–5"}
	}
	var keys []string
	for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// shows reports whether the screen shows key as a key: standing alone,
// not as part of a word ("t" in "reset" is no t).
func shows(screen, key string) bool {
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

// The README's table of keys and the screens agree: each key it lists for
// a place is shown there — in the key help (all of it, as ? shows it) or
// among the keys the screen lists itself — at 80×24.
func TestReadmeKeysAreOnTheScreen(t *testing.T) {
	full := func(m Model) Model { m.help.ShowAll = true; return m }
	completed := sessionState()
	completed.Status = engine.Completed
	completed.Summary = &engine.Summary{Duration: 10 * time.Minute, Sentences: 71}
	end := sessionModel(completed, 80, 24)
	end.run = finishedRun(t, false, 0)
	interrupted := sessionState()
	interrupted.Status = engine.Interrupted
	reread, _ := rereadHome(t)
	reread, cmd := press(reread, "enter")
	reread = run(t, reread, cmd)
	b := pattern478.At(2 * time.Second)
	salvage := New(Options{Backend: salvageBackend(), Now: func() time.Time { return testNow }})
	salvage = sized(salvage, 80, 24)
	salvage = run(t, salvage, salvage.loadSessions())
	salvage, cmd = press(salvage, "u")
	salvage = run(t, salvage, cmd)
	left := startHome(t, &fakeBackend{infos: leftSessions()})
	stale, cmd := press(left, "s")
	stale = run(t, stale, cmd)
	stale = run(t, stale, stale.loadSessions())
	form, ask := press(homeModel(t, sampleSessions(), nil), "n")
	form = run(t, form, ask)

	places := map[string]Model{
		"Sessions":                   full(homeModel(t, sampleSessions(), []Problem{{Text: "2026-11-01-0900-bad1: unreadable", ID: "2026-11-01-0900-bad1"}})),
		"New session":                full(form),
		"Session":                    full(sessionModel(sessionState(), 80, 24)),
		"Session complete":           full(end),
		"Interrupted session":        full(sessionModel(interrupted, 80, 24)),
		"Reading a session":          full(reread),
		"Your practice":              full(statsModel(t, samplePractice(), 80, 24)),
		"Breathing (`lull breathe`)": full(practiceModel(t, &b, 80, 24)),
		"Sitting (`lull sit`)":       full(sitModel(t, 0, 80, 24)),
		"Left running (on start)":    left,
		"Unreadable session":         salvage,
		"Stale sessions (on start)":  stale,
		"Anywhere":                   full(homeModel(t, sampleSessions(), nil)),
	}
	// Keys every terminal program takes without being told, said in the
	// README and nowhere on screen.
	unsaid := map[string]bool{"Anywhere ctrl+c": true}
	for _, row := range readmeKeys(t) {
		m, ok := places[row.where]
		if !ok {
			t.Errorf("the README's keys for %q: no screen known here for that place", row.where)
			continue
		}
		screen := ansi.Strip(m.View().Content)
		for _, k := range keysOf(row.keys) {
			if unsaid[row.where+" "+k] {
				continue
			}
			if !shows(screen, k) {
				t.Errorf("%s: the README lists %q (%s) but the screen does not show it:\n%s", row.where, k, row.does, screen)
			}
		}
	}
}
