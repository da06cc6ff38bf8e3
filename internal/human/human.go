// Package human says durations and moments the way a person would.
package human

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Clock formats a duration as m:ss (h:mm:ss past an hour), to the
// nearest second: every clock lull shows a person (the session screen,
// sessions show, the line after a pause) reads 599.6 s as 10:00, the same.
func Clock(d time.Duration) string {
	d = Shown(d)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// Shown is a duration as a clock shows it: whole seconds, rounded to the
// nearest, never below zero. Arithmetic on what is shown (the time
// remaining) starts from it, so the two clocks on a screen add up.
func Shown(d time.Duration) time.Duration { return max(d, 0).Round(time.Second) }

// Duration says a length of time the way a person would, not as Go
// prints it ("3m0s"): "3 minutes", "90 minutes" (whole minutes up to two
// hours), "8 hours", "2 minutes 30 seconds", "0.5 seconds".
func Duration(d time.Duration) string {
	if d < 0 {
		return "minus " + Duration(-d)
	}
	unit := func(n time.Duration, name string) string {
		if n == 1 {
			return "1 " + name
		}
		return fmt.Sprintf("%d %ss", n, name)
	}
	switch {
	case d == 0:
		return "0 minutes"
	case d < time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " seconds"
	case d%time.Minute == 0 && d <= 2*time.Hour:
		return unit(d/time.Minute, "minute")
	}
	d = d.Round(time.Second)
	var parts []string
	if h := d / time.Hour; h > 0 {
		parts = append(parts, unit(h, "hour"))
	}
	if m := d % time.Hour / time.Minute; m > 0 {
		parts = append(parts, unit(m, "minute"))
	}
	if s := d % time.Minute / time.Second; s > 0 {
		parts = append(parts, unit(s, "second"))
	}
	return strings.Join(parts, " ")
}

// Ago says how long ago t was, the way a person would.
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	plural := func(n int, unit string) string {
		if n == 1 {
			return fmt.Sprintf("1 %s ago", unit)
		}
		return fmt.Sprintf("%d %ss ago", n, unit)
	}
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d.Minutes()), "minute")
	case d < 24*time.Hour:
		return plural(int(d.Hours()), "hour")
	case d < 48*time.Hour:
		return "yesterday"
	case d < 14*24*time.Hour:
		return plural(int(d.Hours()/24), "day")
	case d < 60*24*time.Hour:
		return plural(int(d.Hours()/24/7), "week")
	default:
		return "on " + t.Format("2 Jan 2006")
	}
}

// Tokens says what an LLM used, and what it cost when that is known:
// "12,480 tokens in, 1,910 out · about $0.008".
func Tokens(in, out int, cost float64) string { return TokensCached(in, 0, out, cost) }

// TokensCached is Tokens with the input the provider served from its
// prompt cache, when there was any: "12,480 tokens in (9,216 cached),
// 1,910 out · about $0.005".
func TokensCached(in, cached, out int, cost float64) string {
	s := Count(in) + " tokens in"
	if cached > 0 {
		s += " (" + Count(cached) + " cached)"
	}
	s += ", " + Count(out) + " out"
	if cost > 0 {
		s += fmt.Sprintf(" · about $%.3f", cost)
	}
	return s
}

// Count writes a whole number with thousands separators.
func Count(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
