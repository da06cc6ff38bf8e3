package tui

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/testutil/keytable"
)

// readmeKeys are the rows of the README's "### Keys" table.
func readmeKeys(t *testing.T) []keytable.Row {
	t.Helper()
	rows, err := keytable.Read("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 40 {
		t.Fatalf("read %d rows of the key table", len(rows))
	}
	return rows
}

// The README's table of keys and the screens agree: each key it lists for
// a place is shown there — in the key help (all of it, as ? shows it) or
// among the keys the screen lists itself — at 80×24, and the screen's help
// for it says what the README's row says.
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
		m, ok := places[row.Where]
		if !ok {
			t.Errorf("the README's keys for %q: no screen known here for that place", row.Where)
			continue
		}
		screen := ansi.Strip(m.View().Content)
		for _, k := range keytable.Keys(row.Keys) {
			if unsaid[row.Where+" "+k] {
				continue
			}
			if !keytable.Shows(screen, k) {
				t.Errorf("%s: the README lists %q (%s) but the screen does not show it:\n%s", row.Where, k, row.Does, screen)
				continue
			}
			// And the screen's help for it says what the README says.
			if help := keytable.Help(screen, k); !keytable.Said(help, row.Does) {
				t.Errorf("%s: the screen says %q does %q, the README %q", row.Where, k, help, row.Does)
			}
		}
	}
}
