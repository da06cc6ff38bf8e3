package human

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00", 59 * time.Second: "0:59", 10*time.Minute + 5*time.Second: "10:05",
		61*time.Minute + 1400*time.Millisecond: "1:01:01", -time.Second: "0:00",
	} {
		if got := Clock(d); got != want {
			t.Errorf("Clock(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		10 * time.Second: "just now", time.Minute: "1 minute ago", 2 * time.Hour: "2 hours ago",
		30 * time.Hour: "yesterday", 3 * 24 * time.Hour: "3 days ago", 21 * 24 * time.Hour: "3 weeks ago",
		100 * 24 * time.Hour: "on 15 Aug 2026",
	} {
		if got := Ago(now.Add(-d), now); got != want {
			t.Errorf("Ago(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in, out int
		cost    float64
		want    string
	}{
		{12480, 1910, 0.0081, "12,480 tokens in, 1,910 out · about $0.008"},
		{999, 0, 0, "999 tokens in, 0 out"},
		{1000000, 5, 0, "1,000,000 tokens in, 5 out"},
	} {
		if got := Tokens(tc.in, tc.out, tc.cost); got != tc.want {
			t.Errorf("Tokens(%d, %d, %v) = %q, want %q", tc.in, tc.out, tc.cost, got, tc.want)
		}
	}
}

// One rule for every clock a person reads: the nearest second. A session
// 0.4 s short of ten minutes has lasted 10:00, on the session screen and
// in sessions show alike; remaining time is counted from what is shown.
func TestClockRoundsToTheNearestSecond(t *testing.T) {
	ms := time.Millisecond
	for d, want := range map[time.Duration]string{
		599600 * ms: "10:00", 599400 * ms: "9:59", 59500 * ms: "1:00", 400 * ms: "0:00",
		3599600 * ms: "1:00:00", -600 * ms: "0:00",
	} {
		if got := Clock(d); got != want {
			t.Errorf("Clock(%v) = %q, want %q", d, got, want)
		}
	}
}

// Durations in an error are read by a person: "not 3 minutes", never "not
// 3m0s".
func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                              "0 minutes",
		500 * time.Millisecond:         "0.5 seconds",
		time.Second:                    "1 second",
		45 * time.Second:               "45 seconds",
		time.Minute:                    "1 minute",
		3 * time.Minute:                "3 minutes",
		2*time.Minute + 30*time.Second: "2 minutes 30 seconds",
		90 * time.Minute:               "90 minutes",
		2 * time.Hour:                  "120 minutes",
		8 * time.Hour:                  "8 hours",
		25 * time.Hour:                 "25 hours",
		2*time.Hour + 30*time.Second:   "2 hours 30 seconds",
		-3 * time.Minute:               "minus 3 minutes",
		time.Hour + time.Minute + 1500*time.Millisecond: "1 hour 1 minute 2 seconds",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}
