package app

import (
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

func TestStatsStreakSetting(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{"": true, "stats:\n": true, "stats: {streak: true}\n": true, "stats:\n  streak: false\n": false} {
		cfg, err := LoadConfig(writeConfig(t, text))
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if cfg.Stats.StreakOn() != want {
			t.Errorf("%q: streak shown %v, want %v", text, cfg.Stats.StreakOn(), want)
		}
	}
	for text, want := range map[string]string{
		"stats:\n  streak: sometimes\n": "line 2: key stats.streak: want true or false",
		"stats:\n  streak: 1\n":         "line 2: key stats.streak: want true or false",
		"stats: false\n":                "line 1: key stats: want settings under it (keys: streak)",
		"stats:\n  streaks: false\n":    "line 2: unknown key stats.streaks (keys under stats: streak)",
	} {
		_, err := LoadConfig(writeConfig(t, text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error saying %q", text, err, want)
		}
	}
}

// The practice is figured from the saved sessions, and the config can
// hide the streak.
func TestPracticeFromTheStore(t *testing.T) {
	t.Parallel()
	a := recoverApp(t)
	day := 24 * time.Hour
	storeAs(t, a, "2026-11-23-1300-done", engine.Completed, recoverNow.Add(-time.Hour))
	storeAs(t, a, "2026-11-22-1300-done", engine.Completed, recoverNow.Add(-day))
	storeAs(t, a, "2026-11-21-1300-left", engine.Abandoned, recoverNow.Add(-2*day))
	storeAs(t, a, "2026-11-23-1330-none", engine.Created, recoverNow.Add(-time.Minute))

	r, problems := a.Practice(recoverNow.In(time.UTC))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	// Monday 23 November: this week is today alone. The abandoned session
	// played 95 s and counts; the one never begun does not.
	if r.Total.Sessions != 3 || r.Total.Played != 20*time.Minute+95*time.Second || r.Week.Sessions != 1 || r.Streak != 3 || !r.ShowStreak {
		t.Errorf("total %+v, week %+v, streak %d (shown %v)", r.Total, r.Week, r.Streak, r.ShowStreak)
	}
	off := false
	a.opts.Config.Stats.Streak = &off
	if r, _ := a.Practice(recoverNow); r.ShowStreak || r.Streak != 0 || r.Total.Sessions != 3 {
		t.Errorf("with stats.streak false: streak %d shown %v, total %+v", r.Streak, r.ShowStreak, r.Total)
	}
}
