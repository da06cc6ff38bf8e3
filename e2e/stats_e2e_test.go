//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// statsZone is the listener's time zone in these tests: lull counts days
// by it, not by UTC.
const statsZone = "Europe/Paris"

// practised saves a session through the real store as lull would have
// left it: begun daysAgo days before today (local, at 00:30), played for
// played, completed unless abandoned.
type practised struct {
	daysAgo       int
	played        time.Duration
	abandoned     bool
	breathe       bool
	before, after int
}

func savePractice(t *testing.T, home string, today time.Time, list []practised) {
	t.Helper()
	store, err := sessions.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range list {
		y, m, d := today.Date()
		begun := time.Date(y, m, d-p.daysAgo, 0, 30, 0, 0, today.Location())
		st, err := engine.NewState(sessions.NewID(begun), engine.Options{Length: 30 * time.Minute, Intention: "rest", Seed: 1, MoodBefore: p.before}, begun)
		if err != nil {
			t.Fatal(err)
		}
		if p.abandoned {
			st.Status, st.Phase = engine.Abandoned, engine.Breathing
			st.Phases[engine.Atmosphere].Status = engine.PhaseCompleted
			st.Phases[engine.Breathing].Status = engine.PhaseActive
		} else {
			st.Status, st.Phase = engine.Completed, engine.Resolution
			for i := range st.Phases {
				st.Phases[i].Status = engine.PhaseCompleted
			}
			st.Summary = &engine.Summary{Duration: p.played, CompletedAt: begun.Add(p.played)}
		}
		st.Position = engine.Position{Phase: st.Phase}
		st.Elapsed, st.MoodAfter, st.UpdatedAt = p.played, p.after, begun.Add(p.played)
		if p.breathe {
			st.Practice, st.Pattern = engine.PracticeBreathe, "4-7-8"
		}
		sess, err := store.Create(st)
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// lullIn runs the binary in the listener's zone with more environment.
func lullZoned(t *testing.T, home string, env []string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, lullBin, args...)
	cmd.Env = append(hermeticEnv(), append([]string{"LULL_HOME=" + home, "TZ=" + statsZone}, env...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return out.String(), errOut.String(), err
}

// statsRun runs lull with args on a home of the practice in list, saved
// as of today; it runs again should midnight pass meanwhile.
func statsRun(t *testing.T, list []practised, config string, env []string, args ...string) (out, errOut string, today time.Time, err error) {
	t.Helper()
	loc, lerr := time.LoadLocation(statsZone)
	if lerr != nil {
		t.Skipf("no time zone data: %v", lerr)
	}
	for range 2 {
		home := t.TempDir()
		if config != "" {
			if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(config), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		today = time.Now().In(loc)
		savePractice(t, home, today, list)
		out, errOut, err = lullZoned(t, home, env, args...)
		if y, m, d := time.Now().In(loc).Date(); y == today.Year() && m == today.Month() && d == today.Day() {
			return out, errOut, today, err
		}
	}
	t.Fatal("midnight passed twice while lull stats ran")
	return
}

// A month and more of practice: today guided and breathing, yesterday,
// an abandoned session the day before, a session that played under a
// minute (not practice) the day before that, ten and forty days ago.
var someMonths = []practised{
	{daysAgo: 0, played: 10 * time.Minute, before: 2, after: 4},
	{daysAgo: 0, played: 3 * time.Minute, breathe: true},
	{daysAgo: 1, played: 15 * time.Minute, before: 3, after: 4},
	{daysAgo: 2, played: 4 * time.Minute, abandoned: true},
	{daysAgo: 3, played: 30 * time.Second, before: 5, after: 1},
	{daysAgo: 10, played: 20 * time.Minute, before: 1, after: 4},
	{daysAgo: 40, played: 25 * time.Minute},
}

// weekOf is what this week holds of someMonths, counted independently of
// lull: the days since Monday.
func weekOf(today time.Time) (sessions int, minutes float64) {
	since := (int(today.Weekday()) + 6) % 7
	for _, p := range someMonths {
		if p.daysAgo <= since && p.played >= time.Minute {
			sessions++
			minutes += p.played.Minutes()
		}
	}
	return sessions, minutes
}

func TestStatsPrintsThePractice(t *testing.T) {
	t.Parallel()
	out, errOut, today, err := statsRun(t, someMonths, "", []string{"COLUMNS=80"}, "stats")
	if err != nil {
		t.Fatalf("lull stats: %v\n%s", err, errOut)
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("to a pipe, lull stats writes escape codes: %q", out)
	}
	n, minutes := weekOf(today)
	week := "This week   nothing yet"
	if n > 0 {
		week = "This week   " + map[bool]string{true: "1 session", false: strconv.Itoa(n) + " sessions"}[n == 1] + " · " + strconv.Itoa(int(minutes)) + " min"
	}
	for _, want := range []string{
		"Your practice", week,
		"In all      6 sessions · 1 h 17 min, of which breathing 3 min",
		"Streak      3 days in a row",
		"Mood        +2.0 on average from before to after, over 3 sessions",
		"Minutes a day, the last 30 days  (▒ breathing)",
		"today", "Mood before and after",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lull stats does not say %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("a line is %d columns wide: %q", w, line)
		}
	}
	// Today's bar: 13 of 20 minutes' scale, the breathing part at its
	// foot; ten days ago, the longest day, reaches the top.
	if !strings.Contains(out, "20 ┤") {
		t.Errorf("the chart's scale is not 20 minutes:\n%s", out)
	}

	narrow, _, _, err := statsRun(t, someMonths, "", []string{"COLUMNS=40"}, "stats")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(narrow, "\n") {
		if w := ansi.StringWidth(line); w > 40 {
			t.Errorf("at 40 columns a line is %d wide: %q", w, line)
		}
	}
	if !strings.Contains(narrow, "today") || !strings.Contains(narrow, "3 days in a row") {
		t.Errorf("at 40 columns:\n%s", narrow)
	}
}

func TestStatsJSON(t *testing.T) {
	t.Parallel()
	out, errOut, today, err := statsRun(t, someMonths, "", nil, "stats", "--json")
	if err != nil {
		t.Fatalf("lull stats --json: %v\n%s", err, errOut)
	}
	var got struct {
		Format string `json:"format"`
		Date   string `json:"date"`
		Week   struct {
			Since             string  `json:"since"`
			Sessions          int     `json:"sessions"`
			Minutes           float64 `json:"minutes"`
			BreathingSessions int     `json:"breathing_sessions"`
			BreathingMinutes  float64 `json:"breathing_minutes"`
		} `json:"week"`
		Total struct {
			Sessions          int     `json:"sessions"`
			Minutes           float64 `json:"minutes"`
			BreathingSessions int     `json:"breathing_sessions"`
			BreathingMinutes  float64 `json:"breathing_minutes"`
		} `json:"total"`
		StreakDays *int `json:"streak_days"`
		Mood       struct {
			Sessions      int      `json:"sessions"`
			AverageChange *float64 `json:"average_change"`
		} `json:"mood"`
		Days []struct {
			Date             string   `json:"date"`
			Sessions         int      `json:"sessions"`
			Minutes          float64  `json:"minutes"`
			BreathingMinutes float64  `json:"breathing_minutes"`
			MoodBefore       *float64 `json:"mood_before"`
			MoodAfter        *float64 `json:"mood_after"`
		} `json:"days"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if got.Format != "lull.stats/1" {
		t.Errorf("format %q, want lull.stats/1", got.Format)
	}
	day := func(n int) string { return today.AddDate(0, 0, -n).Format(time.DateOnly) }
	n, minutes := weekOf(today)
	monday := day((int(today.Weekday()) + 6) % 7)
	if got.Date != day(0) || got.Week.Since != monday || got.Week.Sessions != n || got.Week.Minutes != minutes ||
		got.Week.BreathingSessions != 1 || got.Week.BreathingMinutes != 3 {
		t.Errorf("date %s, week %+v; want %s, since %s, %d sessions, %v min", got.Date, got.Week, day(0), monday, n, minutes)
	}
	if got.Total.Sessions != 6 || got.Total.Minutes != 77 || got.Total.BreathingSessions != 1 || got.Total.BreathingMinutes != 3 {
		t.Errorf("total %+v", got.Total)
	}
	if got.StreakDays == nil || *got.StreakDays != 3 {
		t.Errorf("streak_days %v, want 3", got.StreakDays)
	}
	if got.Mood.Sessions != 3 || got.Mood.AverageChange == nil || *got.Mood.AverageChange != 2 {
		t.Errorf("mood %+v", got.Mood)
	}
	if len(got.Days) != 30 {
		t.Fatalf("%d days, want 30", len(got.Days))
	}
	last, yesterday, tenAgo := got.Days[29], got.Days[28], got.Days[19]
	if last.Date != day(0) || last.Sessions != 2 || last.Minutes != 13 || last.BreathingMinutes != 3 ||
		last.MoodBefore == nil || *last.MoodBefore != 2 || last.MoodAfter == nil || *last.MoodAfter != 4 {
		t.Errorf("today %+v", last)
	}
	if yesterday.Date != day(1) || yesterday.Minutes != 15 || tenAgo.Date != day(10) || tenAgo.Minutes != 20 || got.Days[0].Date != day(29) {
		t.Errorf("yesterday %+v, ten days ago %+v, first %s", yesterday, tenAgo, got.Days[0].Date)
	}
	if d := got.Days[26]; d.Date != day(3) || d.Sessions != 0 || d.MoodBefore != nil {
		t.Errorf("three days ago played under a minute, yet %+v", d)
	}
}

// stats.streak: false hides the streak from the text and the JSON; a bad
// value is refused, saying where and what would do.
func TestStatsStreakCanBeHidden(t *testing.T) {
	t.Parallel()
	off := "stats:\n  streak: false\n"
	out, errOut, _, err := statsRun(t, someMonths, off, nil, "stats")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if strings.Contains(strings.ToLower(out), "streak") || strings.Contains(out, "in a row") {
		t.Errorf("the streak shows with stats.streak false:\n%s", out)
	}
	if !strings.Contains(out, "In all      6 sessions") {
		t.Errorf("the rest is gone too:\n%s", out)
	}
	js, _, _, err := statsRun(t, someMonths, off, nil, "stats", "--json")
	if err != nil || strings.Contains(js, "streak") || !strings.Contains(js, `"total"`) {
		t.Errorf("JSON with stats.streak false (%v):\n%s", err, js)
	}

	_, errOut, _, err = statsRun(t, someMonths, "stats:\n  streak: sometimes\n", nil, "stats")
	if err == nil || !strings.Contains(errOut, "config.yaml: line 2: key stats.streak: want true or false") {
		t.Errorf("a bad stats.streak: %v\n%s", err, errOut)
	}
}

func TestStatsOnAFirstRun(t *testing.T) {
	t.Parallel()
	out, errOut, _, err := statsRun(t, nil, "", nil, "stats")
	if err != nil || !strings.Contains(out, "No practice yet.") || strings.Contains(out, "Minutes a day") {
		t.Errorf("lull stats on a first run (%v, %s):\n%s", err, errOut, out)
	}
	js, _, _, err := statsRun(t, nil, "", nil, "stats", "--json")
	if err != nil || !strings.Contains(js, `"sessions": 0`) || !strings.Contains(js, `"average_change": null`) {
		t.Errorf("lull stats --json on a first run (%v):\n%s", err, js)
	}
}

// On a terminal lull stats is in colour, unless NO_COLOR says not; the
// TUI's t shows the same figures.
func TestStatsOnATerminal(t *testing.T) {
	t.Parallel()
	loc, err := time.LoadLocation(statsZone)
	if err != nil {
		t.Skipf("no time zone data: %v", err)
	}
	home := t.TempDir()
	savePractice(t, home, time.Now().In(loc), someMonths)
	env := []string{"LULL_HOME=" + home, "TZ=" + statsZone}

	colour := newScreen(t, env, "stats")
	colour.waitFor("__EXIT=0", time.Minute)
	if shown := colour.tmux("capture-pane", "-p", "-e", "-t", "lull"); !colorSGR.MatchString(shown) {
		t.Errorf("lull stats on a terminal has no colour:\n%q", shown)
	}

	plain := newScreen(t, append(env, "NO_COLOR=1"), "stats")
	plain.waitFor("__EXIT=0", time.Minute)
	if shown := plain.tmux("capture-pane", "-p", "-e", "-t", "lull"); colorSGR.MatchString(shown) || !strings.Contains(shown, "In all      6 sessions") {
		t.Errorf("lull stats with NO_COLOR:\n%q", shown)
	}

	tui := newScreen(t, env)
	tui.waitFor("3-day streak · mood +2.0 on average", time.Minute)
	tui.send("t")
	// The terminal may be captured while the stats screen is half painted
	// over the list, so wait for its last line before reading it.
	shown := tui.waitFor("esc/t your sessions", time.Minute)
	for _, want := range []string{"Your practice", "In all      6 sessions · 1 h 17 min", "Streak      3 days in a row"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the stats screen does not say %q:\n%s", want, shown)
		}
	}
	tui.send("Escape")
	tui.waitFor("3-day streak", time.Minute)
	tui.send("q")
	tui.waitFor("__EXIT=0", time.Minute)
}

// A session that cannot be read is not counted, and lull says so.
func TestStatsSaysWhatItCouldNotCount(t *testing.T) {
	t.Parallel()
	loc, err := time.LoadLocation(statsZone)
	if err != nil {
		t.Skipf("no time zone data: %v", err)
	}
	home := t.TempDir()
	savePractice(t, home, time.Now().In(loc), someMonths[:1])
	broken := filepath.Join(home, "sessions", "2026-11-01-0900-bad1")
	if err := os.MkdirAll(broken, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, "session.yaml"), []byte("not: a session\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := lullZoned(t, home, nil, "stats")
	if err != nil || !strings.Contains(out, "In all      1 session · 10 min") ||
		!strings.Contains(errOut, "lull: note: 1 session could not be read and is not counted; see: lull sessions list") {
		t.Errorf("lull stats with an unreadable session (%v):\n%s\nstderr:\n%s", err, out, errOut)
	}
}
