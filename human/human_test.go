package human

import (
	"testing"
	"time"
)

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0:00", 59 * time.Second: "0:59", 10*time.Minute + 5*time.Second: "10:05",
		61*time.Minute + 1500*time.Millisecond: "1:01:01", -time.Second: "0:00",
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
