package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/practice"
	"github.com/lull-dev/lull/internal/sessions"
)

func (b *fakeBackend) Practice() practice.Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.practice
}

// samplePractice is a month of practice as of testNow (Monday 23
// November 2026): most evenings, some breathing, moods on some days.
func samplePractice() practice.Report {
	var list []sessions.Info
	add := func(daysAgo int, hour int, played time.Duration, breathe bool, before, after int) {
		at := time.Date(2026, 11, 23-daysAgo, hour, 0, 0, 0, time.UTC)
		s := sessions.Info{ID: at.Format("2006-01-02-1504") + "-test", Status: engine.Completed, Created: at, LastActive: at,
			Length: played, Elapsed: played, MoodBefore: before, MoodAfter: after}
		if breathe {
			s.Practice = engine.PracticeBreathe
		}
		list = append(list, s)
	}
	m := time.Minute
	for _, d := range []struct {
		ago, min     int
		breathe      bool
		before, afte int
	}{
		{0, 10, false, 2, 4}, {0, 3, true, 0, 0}, {1, 20, false, 3, 4}, {2, 15, false, 2, 3}, {3, 5, true, 0, 0},
		{5, 30, false, 1, 4}, {6, 10, false, 3, 3}, {8, 10, false, 0, 0}, {9, 45, false, 2, 5}, {12, 15, false, 0, 0},
		{13, 4, true, 0, 0}, {15, 20, false, 3, 4}, {18, 10, false, 0, 0}, {20, 60, false, 2, 4}, {22, 10, false, 4, 4},
		{25, 15, false, 0, 0}, {27, 20, true, 0, 0}, {29, 10, false, 2, 3}, {45, 30, false, 1, 5},
	} {
		add(d.ago, 20, time.Duration(d.min)*m, d.breathe, d.before, d.afte)
	}
	return practice.Of(list, testNow)
}

func statsModel(t *testing.T, r practice.Report, w, h int) Model {
	t.Helper()
	m := homeModel(t, sampleSessions(), nil)
	m.backend.(*fakeBackend).practice = r
	m, cmd := press(m, "t")
	if m.screen != screenStats {
		t.Fatalf("t opened screen %d, not the stats", m.screen)
	}
	m = run(t, m, cmd)
	return sized(m, w, h)
}

func TestStatsGoldenViews(t *testing.T) {
	for _, dark := range []bool{true, false} {
		suffix := "_dark"
		if !dark {
			suffix = "_light"
		}
		noStreak := samplePractice()
		noStreak.HideStreak()
		home := homeModel(t, sampleSessions(), nil)
		next, _ := home.Update(practiceMsg{report: samplePractice()})
		for name, m := range map[string]Model{
			"stats":           statsModel(t, samplePractice(), 80, 24),
			"stats_no_streak": statsModel(t, noStreak, 80, 24),
			"stats_empty":     statsModel(t, practice.Of(nil, testNow), 80, 24),
			"home_practice":   next.(Model),
		} {
			t.Run(name+suffix, func(t *testing.T) {
				golden(t, name+suffix, styled(m, dark).View().Content)
			})
		}
	}
	// lull stats prints the same renderer, plain, at 80 and 40 columns.
	plain := NewStyles(true, true)
	golden(t, "stats_cli_80", RenderPractice(samplePractice(), 80, 0, &plain))
	golden(t, "stats_cli_40", RenderPractice(samplePractice(), 40, 0, &plain))
}

func TestStatsScreenKeys(t *testing.T) {
	m := statsModel(t, samplePractice(), 80, 24)
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"This week", "2 sessions · 13 min, of which breathing 3 min", "4 days in a row", "+1.6 on average from before to after, over 11 sessions", "today", "esc/t your sessions"} {
		if !strings.Contains(v, want) {
			t.Errorf("the stats screen lacks %q:\n%s", want, v)
		}
	}
	back, _ := press(m, "esc")
	if back.screen != screenHome {
		t.Errorf("esc left the stats screen for %d, not the list", back.screen)
	}
	again, _ := press(m, "t")
	if again.screen != screenHome {
		t.Errorf("t again left the stats screen for %d", again.screen)
	}
	if _, cmd := press(m, "q"); cmd == nil {
		t.Error("q on the stats screen does nothing")
	}
	home, _ := press(homeModel(t, sampleSessions(), nil), "?")
	if !strings.Contains(ansi.Strip(home.View().Content), "t your practice") {
		t.Errorf("the home screen's help does not show t:\n%s", ansi.Strip(home.View().Content))
	}
}

// The home line says only what there is, and nothing on a first run.
func TestPracticeLine(t *testing.T) {
	r := samplePractice()
	if got, want := PracticeLine(r), "This week 2 sessions · 13 min · 4-day streak · mood +1.6 on average"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	r.HideStreak()
	if got := PracticeLine(r); strings.Contains(got, "streak") {
		t.Errorf("hidden streak shown: %q", got)
	}
	if got := PracticeLine(practice.Of(nil, testNow)); got != "" {
		t.Errorf("a first run has a line: %q", got)
	}
	old := practice.Of([]sessions.Info{{ID: "a", Status: engine.Completed, Created: testNow.Add(-10 * 24 * time.Hour), Elapsed: 5 * time.Minute}}, testNow)
	if got, want := PracticeLine(old), "Nothing yet this week"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	m := homeModel(t, sampleSessions(), nil)
	next, _ := m.Update(practiceMsg{report: samplePractice()})
	if v := ansi.Strip(next.(Model).View().Content); !strings.Contains(v, "This week 2 sessions") {
		t.Errorf("the home screen has no practice line:\n%s", v)
	}
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "This week") {
		t.Errorf("the home screen has a practice line before any practice:\n%s", v)
	}
}

func TestStatsFitAnyWidth(t *testing.T) {
	plain := NewStyles(true, true)
	for _, w := range []int{20, 30, 40, 60, 80, 120} {
		for _, line := range strings.Split(RenderPractice(samplePractice(), w, 0, &plain), "\n") {
			if n := ansi.StringWidth(line); n > max(w, 20) {
				t.Errorf("at %d columns a line is %d wide: %q", w, n, line)
			}
		}
	}
	for _, size := range [][2]int{{0, 0}, {10, 3}, {40, 12}, {80, 24}} {
		m := statsModel(t, samplePractice(), size[0], size[1])
		if v := m.View().Content; size[1] > 0 && strings.Count(v, "\n")+1 > size[1] {
			t.Errorf("at %dx%d the stats screen has %d lines", size[0], size[1], strings.Count(v, "\n")+1)
		}
	}
}
