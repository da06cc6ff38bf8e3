package app

import (
	"fmt"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// How long a sleep session's soundscape plays on after its last word, in
// whole minutes: 0 stops it with the words. The default is the engine's;
// the choice offered is shorter than what the engine accepts.
const (
	DefaultSleepAfter = int(engine.DefaultSleepTail / time.Minute)
	MaxSleepAfter     = 120
)

// SleepConfig is the config file's say on sleep sessions.
type SleepConfig struct {
	After *int `yaml:"after"` // minutes; unset means DefaultSleepAfter
}

// Tail is how long the soundscape plays on after a sleep session's words.
func (s SleepConfig) Tail() time.Duration {
	if s.After == nil {
		return time.Duration(DefaultSleepAfter) * time.Minute
	}
	return time.Duration(*s.After) * time.Minute
}

// CheckSleepAfter refuses a tail lull does not offer.
func CheckSleepAfter(minutes int) error {
	if minutes < 0 || minutes > MaxSleepAfter {
		return fmt.Errorf("%d minutes: the sound plays on for 0 to %d minutes after the last word (0 stops it with the words)", minutes, MaxSleepAfter)
	}
	return nil
}
