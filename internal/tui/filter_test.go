package tui

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/list"
	tea "charm.land/bubbletea/v2"

	"github.com/lull-dev/lull/internal/engine"
)

// filterSessions is the home list in its own order: resumable first, then
// the most recent.
func filterSessions() []SessionInfo {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 21, 0, 0, 0, time.Local) }
	return []SessionInfo{
		{ID: "2026-11-23-2100-aaaa", Intention: "a calm sea", Status: engine.Paused, Phase: engine.Sensory, Progress: 0.4, Length: 10 * time.Minute, Created: day(23), LastActive: testNow},
		{ID: "2026-11-22-2100-bbbb", Intention: "rest after a long day", Status: engine.Interrupted, Phase: engine.Breathing, Progress: 0.2, Length: 20 * time.Minute, Created: day(22), LastActive: testNow},
		{ID: "2026-11-21-2100-cccc", Intention: "calm", Status: engine.Completed, Phase: engine.Resolution, Progress: 1, Length: 15 * time.Minute, Created: day(21), LastActive: testNow},
		{ID: "2026-11-16-2100-dddd", Intention: "Calm before the talk", Status: engine.Completed, Phase: engine.Resolution, Progress: 1, Length: 15 * time.Minute, Created: day(16), LastActive: testNow},
	}
}

// typeFilter types text into the home list's filter and waits for the
// list to filter with it.
func typeFilter(t *testing.T, m Model, text string) Model {
	t.Helper()
	m, _ = press(m, "/")
	var cmd tea.Cmd
	for _, r := range text {
		m, cmd = press(m, string(r))
	}
	// The last key's commands: the filter (and the cursor's blink, a
	// timer). Only the filter's answer is fed back.
	return feedFirst(t, m, cmd, func(msg tea.Msg) bool {
		_, ok := msg.(list.FilterMatchesMsg)
		return ok
	})
}

// feedFirst runs cmd, and the commands of its batches, each on its own,
// and feeds the model the first message that is wanted; the others
// (timers, waits) are dropped. A minute bounds a failure.
func feedFirst(t *testing.T, m Model, cmd tea.Cmd, wanted func(tea.Msg) bool) Model {
	t.Helper()
	msgs := make(chan tea.Msg, 16)
	pending := 0
	start := func(c tea.Cmd) {
		if c != nil {
			pending++
			go func() { msgs <- c() }()
		}
	}
	start(cmd)
	deadline := time.After(60 * time.Second)
	for pending > 0 {
		select {
		case msg := <-msgs:
			pending--
			if batch, ok := msg.(tea.BatchMsg); ok {
				for _, c := range batch {
					start(c)
				}
				continue
			}
			if wanted(msg) {
				next, _ := m.Update(msg)
				return next.(Model)
			}
		case <-deadline:
			t.Fatal("the awaited message never came")
		}
	}
	t.Fatal("no command gave the awaited message")
	return m
}

func visibleIntentions(m Model) []string {
	var out []string
	for _, it := range m.home.list.VisibleItems() {
		out = append(out, it.(sessionItem).Intention)
	}
	return out
}

// The filter matches the words a person typed, in any case, anywhere in
// the intention, id, status, phase or day — never letters scattered
// through ("otter" is not in "rest after a long day") — and keeps the
// list's order: resumable first, then the most recent.
func TestHomeFilterMatchesWordsAndKeepsTheOrder(t *testing.T) {
	for _, c := range []struct {
		typed string
		want  []string
	}{
		{"otter", nil},
		{"calm", []string{"a calm sea", "calm", "Calm before the talk"}},
		{"CALM", []string{"a calm sea", "calm", "Calm before the talk"}},
		{"rest", []string{"rest after a long day"}},
		{"rest aft", []string{"rest after a long day"}},
		// In "rest after", "resolution" and "before": the interrupted one
		// stays first, as in the list.
		{"re", []string{"rest after a long day", "calm", "Calm before the talk"}},
		{"calm talk", []string{"Calm before the talk"}},
		{"paused", []string{"a calm sea"}},
		{"breathing", []string{"rest after a long day"}},
		{"saturday", []string{"calm"}},
		{"2026-11-16", []string{"Calm before the talk"}},
		{"bbbb", []string{"rest after a long day"}},
	} {
		m := homeModel(t, filterSessions(), nil)
		m = typeFilter(t, m, c.typed)
		got := visibleIntentions(m)
		if len(got) != len(c.want) {
			t.Errorf("filter %q shows %q, want %q", c.typed, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("filter %q shows %q, want %q", c.typed, got, c.want)
				break
			}
		}
	}
}
