package practice

import (
	"testing"
	"time"
	_ "time/tzdata" // the zones below, on a machine without them

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/sessions"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// played is a session begun at at that played for d.
func played(at time.Time, d time.Duration) sessions.Info {
	return sessions.Info{ID: at.Format("2006-01-02-1504"), Status: engine.Completed, Created: at, LastActive: at.Add(d),
		Length: 10 * time.Minute, Elapsed: d}
}

func breathing(at time.Time, d time.Duration) sessions.Info {
	s := played(at, d)
	s.Practice = engine.PracticeBreathe
	return s
}

func moody(s sessions.Info, before, after int) sessions.Info {
	s.MoodBefore, s.MoodAfter = before, after
	return s
}

func TestFigures(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	paris := zone(t, "Europe/Paris")
	min := time.Minute
	// Wednesday 25 November 2026, mid-afternoon in Paris.
	wed := time.Date(2026, 11, 25, 15, 0, 0, 0, paris)
	day := func(n int, h, m int) time.Time { // n days from wed's day, at h:m
		return time.Date(2026, 11, 25+n, h, m, 0, 0, paris)
	}
	cases := []struct {
		name    string
		list    []sessions.Info
		now     time.Time
		week    Tally
		total   Tally
		streak  int
		mood    MoodChange
		lastDay Day // the report's last day (today)
	}{
		{name: "an empty history", now: wed, lastDay: Day{Date: DateOf(wed)}},
		{
			name: "today, yesterday and the day before",
			list: []sessions.Info{played(day(0, 9, 0), 10*min), played(day(-1, 21, 0), 15*min), played(day(-2, 7, 30), 5*min)},
			now:  wed, streak: 3,
			week:    Tally{Sessions: 3, Played: 30 * min},
			total:   Tally{Sessions: 3, Played: 30 * min},
			lastDay: Day{Date: DateOf(wed), Tally: Tally{Sessions: 1, Played: 10 * min}},
		},
		{
			name: "today not yet practised keeps the streak that reached yesterday",
			list: []sessions.Info{played(day(-1, 21, 0), 15*min), played(day(-2, 7, 30), 5*min)},
			now:  wed, streak: 2,
			week: Tally{Sessions: 2, Played: 20 * min}, total: Tally{Sessions: 2, Played: 20 * min},
			lastDay: Day{Date: DateOf(wed)},
		},
		{
			name: "a day missed before yesterday ends the streak there",
			list: []sessions.Info{played(day(-1, 21, 0), 15*min), played(day(-3, 7, 30), 5*min)},
			now:  wed, streak: 1, // and Sunday is last week
			week: Tally{Sessions: 1, Played: 15 * min}, total: Tally{Sessions: 2, Played: 20 * min},
			lastDay: Day{Date: DateOf(wed)},
		},
		{
			name: "nothing since the day before yesterday: no streak",
			list: []sessions.Info{played(day(-2, 21, 0), 15*min)},
			now:  wed, streak: 0,
			week: Tally{Sessions: 1, Played: 15 * min}, total: Tally{Sessions: 1, Played: 15 * min},
			lastDay: Day{Date: DateOf(wed)},
		},
		{
			name: "the week begins on Monday: Sunday's session is last week's",
			list: []sessions.Info{played(day(-2, 0, 0), 10*min), played(day(-3, 23, 59), 20*min)},
			now:  wed, streak: 0,
			week: Tally{Sessions: 1, Played: 10 * min}, total: Tally{Sessions: 2, Played: 30 * min},
			lastDay: Day{Date: DateOf(wed)},
		},
		{
			name: "on a Sunday night the week still began on Monday",
			list: []sessions.Info{played(day(-2, 0, 0), 10*min), played(day(4, 23, 0), 20*min)},
			now:  day(4, 23, 59), streak: 1,
			week: Tally{Sessions: 2, Played: 30 * min}, total: Tally{Sessions: 2, Played: 30 * min},
			lastDay: Day{Date: DateOf(day(4, 0, 0)), Tally: Tally{Sessions: 1, Played: 20 * min}},
		},
		{
			name: "midnight: a second before is yesterday, midnight itself is today",
			list: []sessions.Info{played(day(-1, 23, 59).Add(59*time.Second), 10*min), played(day(0, 0, 0), 5*min)},
			now:  day(0, 0, 0), streak: 2,
			week: Tally{Sessions: 2, Played: 15 * min}, total: Tally{Sessions: 2, Played: 15 * min},
			lastDay: Day{Date: DateOf(wed), Tally: Tally{Sessions: 1, Played: 5 * min}},
		},
		{
			name: "a session is counted by the listener's calendar, not UTC's",
			// 00:30 on Wednesday in Paris is 23:30 on Tuesday in UTC.
			list: []sessions.Info{played(day(0, 0, 30).UTC(), 10*min)},
			now:  wed, streak: 1,
			week: Tally{Sessions: 1, Played: 10 * min}, total: Tally{Sessions: 1, Played: 10 * min},
			lastDay: Day{Date: DateOf(wed), Tally: Tally{Sessions: 1, Played: 10 * min}},
		},
		{
			name: "under a minute played is not practice; abandoned and paused sessions count for what they played",
			list: func() []sessions.Info {
				short := played(day(0, 8, 0), 59*time.Second)
				gone := played(day(-1, 8, 0), 4*min)
				gone.Status = engine.Abandoned
				paused := played(day(0, 9, 0), 3*min)
				paused.Status = engine.Paused
				return []sessions.Info{short, gone, paused, {ID: "new", Status: engine.Created, Created: day(-2, 8, 0)}}
			}(),
			now: wed, streak: 2,
			week: Tally{Sessions: 2, Played: 7 * min}, total: Tally{Sessions: 2, Played: 7 * min},
			lastDay: Day{Date: DateOf(wed), Tally: Tally{Sessions: 1, Played: 3 * min}},
		},
		{
			name: "breathing practice counts, and is told apart",
			list: []sessions.Info{breathing(day(0, 8, 0), 2*min), played(day(0, 20, 0), 10*min), breathing(day(-10, 8, 0), 5*min)},
			now:  day(0, 21, 0), streak: 1,
			week:    Tally{Sessions: 2, Played: 12 * min, BreathingSessions: 1, Breathing: 2 * min},
			total:   Tally{Sessions: 3, Played: 17 * min, BreathingSessions: 2, Breathing: 7 * min},
			lastDay: Day{Date: DateOf(wed), Tally: Tally{Sessions: 2, Played: 12 * min, BreathingSessions: 1, Breathing: 2 * min}},
		},
		{
			name: "mood change over the sessions with both; a day's moods averaged",
			list: []sessions.Info{
				moody(played(day(0, 8, 0), 10*min), 2, 4),
				moody(played(day(0, 20, 0), 10*min), 3, 4),
				moody(played(day(-1, 8, 0), 10*min), 4, 0), // no after: not in the change
				moody(played(day(-40, 8, 0), 10*min), 5, 4),
				moody(played(day(0, 21, 0), 30*time.Second), 1, 5), // not practice
			},
			now: day(0, 22, 0), streak: 2,
			week: Tally{Sessions: 3, Played: 30 * min}, total: Tally{Sessions: 4, Played: 40 * min},
			mood:    MoodChange{Sessions: 3, Average: (2.0 + 1 - 1) / 3},
			lastDay: Day{Date: DateOf(wed), Tally: Tally{Sessions: 2, Played: 20 * min}, Before: 2.5, After: 4},
		},
		{
			// Berlin springs forward at 02:00 on Sunday 29 March 2026: that
			// day has 23 hours. 24 hours before 00:30 on Monday is 23:30
			// on Saturday, so stepping back by 24 hours would skip Sunday.
			name: "the spring clock change",
			list: []sessions.Info{
				played(time.Date(2026, 3, 28, 23, 30, 0, 0, berlin), 10*min),
				played(time.Date(2026, 3, 29, 23, 50, 0, 0, berlin), 10*min),
				played(time.Date(2026, 3, 30, 0, 10, 0, 0, berlin), 10*min),
			},
			now: time.Date(2026, 3, 30, 0, 30, 0, 0, berlin), streak: 3,
			week: Tally{Sessions: 1, Played: 10 * min}, total: Tally{Sessions: 3, Played: 30 * min},
			lastDay: Day{Date: DateOf(time.Date(2026, 3, 30, 0, 0, 0, 0, berlin)), Tally: Tally{Sessions: 1, Played: 10 * min}},
		},
		{
			// Berlin falls back at 03:00 on Sunday 25 October 2026: that day
			// has 25 hours: a session at 02:30 the second time round is
			// still Sunday's.
			name: "the autumn clock change",
			list: []sessions.Info{
				played(time.Date(2026, 10, 24, 23, 0, 0, 0, berlin), 10*min),
				played(time.Date(2026, 10, 25, 2, 30, 0, 0, berlin).Add(time.Hour), 10*min), // 02:30 the second time
				played(time.Date(2026, 10, 26, 23, 59, 0, 0, berlin), 10*min),
			},
			now: time.Date(2026, 10, 26, 23, 59, 30, 0, berlin), streak: 3,
			week: Tally{Sessions: 1, Played: 10 * min}, total: Tally{Sessions: 3, Played: 30 * min},
			lastDay: Day{Date: DateOf(time.Date(2026, 10, 26, 12, 0, 0, 0, berlin)), Tally: Tally{Sessions: 1, Played: 10 * min}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Of(c.list, c.now)
			if r.Week != c.week {
				t.Errorf("week %+v, want %+v", r.Week, c.week)
			}
			if r.Total != c.total {
				t.Errorf("total %+v, want %+v", r.Total, c.total)
			}
			if r.Streak != c.streak || !r.ShowStreak {
				t.Errorf("streak %d (shown %v), want %d", r.Streak, r.ShowStreak, c.streak)
			}
			if r.Mood.Sessions != c.mood.Sessions || !near(r.Mood.Average, c.mood.Average) {
				t.Errorf("mood %+v, want %+v", r.Mood, c.mood)
			}
			if len(r.Last) != Days {
				t.Fatalf("%d days, want %d", len(r.Last), Days)
			}
			last := r.Last[Days-1]
			if last.Date != c.lastDay.Date || last.Tally != c.lastDay.Tally || !near(last.Before, c.lastDay.Before) || !near(last.After, c.lastDay.After) {
				t.Errorf("today %+v (%s), want %+v (%s)", last, last.Date, c.lastDay, c.lastDay.Date)
			}
			if r.Since.Time().Weekday() != time.Monday || r.Since > r.Today || r.Today-r.Since > 6 {
				t.Errorf("the week began on %s (%s), today is %s", r.Since, r.Since.Time().Weekday(), r.Today)
			}
			if r.Today != DateOf(c.now) {
				t.Errorf("today is %s, want %s", r.Today, DateOf(c.now))
			}
			for i := 1; i < Days; i++ {
				if r.Last[i].Date != r.Last[i-1].Date+1 {
					t.Fatalf("days %s then %s", r.Last[i-1].Date, r.Last[i].Date)
				}
			}
			if r.Empty() != (c.total.Sessions == 0) {
				t.Errorf("empty %v with %d sessions", r.Empty(), c.total.Sessions)
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// Four hundred days of practice, one session a day at a time that wanders
// round the clock, across two clock changes each way.
func TestFourHundredDays(t *testing.T) {
	loc := zone(t, "America/New_York")
	now := time.Date(2026, 11, 24, 18, 0, 0, 0, loc)
	var list []sessions.Info
	for i := range 400 {
		y, m, d := now.Date()
		at := time.Date(y, m, d-i, (i*7)%24, (i*13)%60, 0, 0, loc)
		s := played(at, time.Duration(5+i%10)*time.Minute)
		if i%5 == 0 {
			s.Practice = engine.PracticeBreathe
		}
		list = append(list, s)
	}
	r := Of(list, now)
	if r.Streak != 400 {
		t.Errorf("streak %d, want 400", r.Streak)
	}
	var total, breathing time.Duration
	for i, s := range list {
		total += s.Elapsed
		if i%5 == 0 {
			breathing += s.Elapsed
		}
	}
	if r.Total.Sessions != 400 || r.Total.Played != total || r.Total.BreathingSessions != 80 || r.Total.Breathing != breathing {
		t.Errorf("total %+v, want 400 sessions, %v, 80 breathing, %v", r.Total, total, breathing)
	}
	// Tuesday: Monday and today.
	if r.Week.Sessions != 2 || r.Week.Played != list[0].Elapsed+list[1].Elapsed {
		t.Errorf("week %+v", r.Week)
	}
	for i, d := range r.Last {
		s := list[Days-1-i]
		if d.Sessions != 1 || d.Played != s.Elapsed || d.Date != DateOf(s.Created) {
			t.Errorf("day %d (%s): %+v, want %v on %s", i, d.Date, d.Tally, s.Elapsed, DateOf(s.Created))
		}
	}
	// A gap 100 days back leaves a streak of 100.
	gap := append(append([]sessions.Info{}, list[:100]...), list[101:]...)
	if r := Of(gap, now); r.Streak != 100 {
		t.Errorf("with day 100 missing, streak %d, want 100", r.Streak)
	}
}

func TestHideStreak(t *testing.T) {
	now := time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)
	r := Of([]sessions.Info{played(now.Add(-time.Hour), 10*time.Minute)}, now)
	if r.Streak != 1 || !r.ShowStreak {
		t.Fatalf("streak %d shown %v", r.Streak, r.ShowStreak)
	}
	r.HideStreak()
	if r.Streak != 0 || r.ShowStreak {
		t.Errorf("hidden streak %d shown %v", r.Streak, r.ShowStreak)
	}
}

func TestDates(t *testing.T) {
	d := DateOf(time.Date(2026, 3, 29, 23, 59, 0, 0, zone(t, "Europe/Berlin")))
	if d.String() != "2026-03-29" || d.Add(1).String() != "2026-03-30" || d.Add(-29).String() != "2026-02-28" {
		t.Errorf("%s, %s, %s", d, d.Add(1), d.Add(-29))
	}
	if Minutes(42*time.Minute+31*time.Second) != 42.5 {
		t.Errorf("42:31 is %v minutes", Minutes(42*time.Minute+31*time.Second))
	}
}

// rendered is a session lull render wrote to a file, of which played was
// later heard (a render resumed live).
func rendered(at time.Time, d, played time.Duration) sessions.Info {
	s := breathing(at, d)
	s.Practice = ""
	s.Rendered = d - played
	return s
}

// Issue 26: sixty renders made in two minutes are not sixty sessions of
// five hours: a render counts only for what of it was played.
func TestRendersAreNotPractice(t *testing.T) {
	now := time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)
	var list []sessions.Info
	for i := range 60 {
		list = append(list, rendered(now.Add(-time.Duration(i)*2*time.Second), 5*time.Minute, 0))
	}
	r := Of(list, now)
	if r.Total.Sessions != 0 || r.Total.Played != 0 || r.Streak != 0 || !r.Empty() {
		t.Errorf("60 renders count as %+v, streak %d", r.Total, r.Streak)
	}
	// A render stopped halfway and resumed live counts for what played.
	r = Of([]sessions.Info{rendered(now.Add(-time.Hour), 10*time.Minute, 4*time.Minute)}, now)
	if r.Total.Sessions != 1 || r.Total.Played != 4*time.Minute || r.Streak != 1 {
		t.Errorf("a render played for 4 minutes counts as %+v, streak %d", r.Total, r.Streak)
	}
	// Played for less than a minute: not practice.
	if r := Of([]sessions.Info{rendered(now.Add(-time.Hour), 10*time.Minute, 30*time.Second)}, now); !r.Empty() {
		t.Errorf("a render played for 30 s counts as %+v", r.Total)
	}
}
