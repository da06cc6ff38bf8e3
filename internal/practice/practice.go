// Package practice is a listener's practice over time, figured from the
// sessions list: sessions and minutes this week and in all, the streak of
// days, how mood changed, and the last days one by one. It reads nothing
// and draws nothing; the CLI and the TUI show what it figures.
package practice

import (
	"math"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

// MinPlayed is what a session must have played to count as practice: one
// opened and left at once is not practice, and a day it falls on does not
// keep a streak.
const MinPlayed = time.Minute

// Days is how many days, today included, the day-by-day figures cover.
const Days = 30

// Report is a listener's practice as of a moment.
type Report struct {
	Today Date  // the local day the report was made on
	Since Date  // the Monday this week began on
	Week  Tally // since Monday (local), today included
	Total Tally
	// Streak is how many days in a row, up to today, hold practice; a day
	// not yet practised today does not break a streak that reached
	// yesterday. Meaningful only when ShowStreak (the listener may turn
	// streaks off: stats.streak in config.yaml).
	Streak     int
	ShowStreak bool
	Mood       MoodChange
	// Last are the last Days days, oldest first, ending today.
	Last []Day
}

// HideStreak drops the streak from the report, for a listener who would
// rather not see one.
func (r *Report) HideStreak() {
	r.Streak, r.ShowStreak = 0, false
}

// Empty reports whether there is no practice at all yet.
func (r Report) Empty() bool { return r.Total.Sessions == 0 }

// Tally is sessions counted and the time they played; Breathing is the
// part of it that was paced breathing alone (lull breathe).
type Tally struct {
	Sessions          int
	Played            time.Duration
	BreathingSessions int
	Breathing         time.Duration
}

func (t *Tally) add(s sessions.Info) {
	t.Sessions++
	t.Played += s.Heard()
	if s.Practice == engine.PracticeBreathe {
		t.BreathingSessions++
		t.Breathing += s.Heard()
	}
}

// MoodChange is how mood changed over the sessions that have a mood both
// before and after: the average of after − before, and over how many.
type MoodChange struct {
	Sessions int
	Average  float64
}

// Day is one day's practice.
type Day struct {
	Date Date
	Tally
	// Before and After are the day's average moods (1–5) over the
	// sessions that gave one; 0 when none did.
	Before, After float64
}

// Of figures the practice in list as of now, by the calendar of now's
// location. Every session that played at least MinPlayed to a listener
// counts, whatever its status — completed, paused, abandoned — for the
// time it played, on the day it began; guided and breathing practice
// alike. A render counts for nothing unless it was played.
func Of(list []sessions.Info, now time.Time) Report {
	loc := now.Location()
	today := DateOf(now)
	weekStart := today.Add(-weekday(now))
	first := today.Add(-(Days - 1))
	r := Report{Today: today, Since: weekStart, ShowStreak: true, Last: make([]Day, Days)}
	for i := range r.Last {
		r.Last[i].Date = first.Add(i)
	}
	type moods struct{ before, after, nb, na int }
	daily := make([]moods, Days)
	practised := map[Date]bool{}
	var change int
	for _, s := range list {
		if !Counts(s) {
			continue
		}
		day := DateOf(s.Created.In(loc))
		practised[day] = true
		r.Total.add(s)
		if day >= weekStart && day <= today {
			r.Week.add(s)
		}
		if s.MoodBefore > 0 && s.MoodAfter > 0 {
			r.Mood.Sessions++
			change += s.MoodAfter - s.MoodBefore
		}
		if i := int(day - first); i >= 0 && i < Days {
			r.Last[i].add(s)
			m := &daily[i]
			if s.MoodBefore > 0 {
				m.before += s.MoodBefore
				m.nb++
			}
			if s.MoodAfter > 0 {
				m.after += s.MoodAfter
				m.na++
			}
		}
	}
	for i, m := range daily {
		if m.nb > 0 {
			r.Last[i].Before = float64(m.before) / float64(m.nb)
		}
		if m.na > 0 {
			r.Last[i].After = float64(m.after) / float64(m.na)
		}
	}
	if r.Mood.Sessions > 0 {
		r.Mood.Average = float64(change) / float64(r.Mood.Sessions)
	}
	day := today
	if !practised[day] {
		day-- // today may yet be practised
	}
	for practised[day] {
		r.Streak++
		day--
	}
	return r
}

// Counts reports whether a session counts as practice: it played to a
// listener for MinPlayed at least. What lull render wrote to a file was
// heard by no one: sixty renders are not sixty sessions.
func Counts(s sessions.Info) bool { return s.Heard() >= MinPlayed }

// weekday is how many days since Monday.
func weekday(t time.Time) int { return (int(t.Weekday()) + 6) % 7 }

// Minutes is a duration in minutes, to a tenth.
func Minutes(d time.Duration) float64 { return math.Round(d.Minutes()*10) / 10 }
