package practice

import "time"

// Date is a calendar day, counted in days from 1970-01-01. Days are
// counted on the calendar, not in 24-hour steps, so the days around a
// clock change are whole days like any other.
type Date int

// DateOf is the calendar day t falls on in its own location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// Add is the day n days later (earlier when n is negative).
func (d Date) Add(n int) Date { return d + Date(n) }

// Time is the day at midnight, UTC: for its year, month, day and weekday.
func (d Date) Time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// String is the day as YYYY-MM-DD.
func (d Date) String() string { return d.Time().Format(time.DateOnly) }
