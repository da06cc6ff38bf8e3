package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/guide"
)

// sleepNote is said when lull makes a session a sleep session because
// its intention speaks of sleep, and the listener did not say; the TUI's
// status line has room for its first sentence.
const (
	sleepNoteShort = "A sleep session: nothing will wake you at the end."
	sleepNote      = sleepNoteShort + " --sleep=false for a waking close."
)

// sleepFlags are --sleep and --sleep-after, for lull new and lull render.
type sleepFlags struct {
	on    bool
	after string
}

func (f *sleepFlags) add(fl *pflag.FlagSet) {
	fl.BoolVar(&f.on, "sleep", false, "a sleep session: nothing wakes you at the end, and the soundscape plays on after the words\n(default: when the intention speaks of sleep, bed or night; --sleep=false for a waking close)")
	fl.StringVar(&f.after, "sleep-after", "", fmt.Sprintf("how many `MINUTES` the soundscape plays on after a sleep session's last word, 0–%d;\n0 stops it with the words (default %d, or the config's sleep: {after: N})", app.MaxSleepAfter, app.DefaultSleepAfter))
}

// sleepChoice is what the command line settled of sleep.
type sleepChoice struct {
	proposed bool           // the intention made it a sleep session unasked: say so
	after    *time.Duration // --sleep-after, when given
}

// settle decides whether o, its intention cleaned, is a sleep session:
// --sleep says; else --sleep-after, which only a sleep session has; else
// the intention. Checked before anything is opened.
func (f sleepFlags) settle(fl *pflag.FlagSet, o *engine.Options) (sleepChoice, error) {
	var c sleepChoice
	if fl.Changed("sleep-after") {
		if fl.Changed("sleep") && !f.on {
			return c, errors.New("--sleep-after is how long the sound plays on after a sleep session, and --sleep=false asks for a waking close: give one of them")
		}
		d, err := parseSleepAfter(f.after)
		if err != nil {
			return c, err
		}
		c.after = &d
	}
	switch {
	case fl.Changed("sleep"):
		o.Sleep = f.on
	case c.after != nil:
		o.Sleep = true
	default:
		o.Sleep = guide.ProposesSleep(o.Intention)
		c.proposed = o.Sleep
	}
	return c, nil
}

// tail sets how long a sleep session's sound plays on: --sleep-after, else
// the config's.
func (c sleepChoice) tail(o *engine.Options, cfg app.Config) {
	switch {
	case !o.Sleep:
		o.SleepTail = 0
	case c.after != nil:
		o.SleepTail = *c.after
	default:
		o.SleepTail = cfg.Sleep.Tail()
	}
}

// notes are what to tell the listener about the choice: on a screen of
// their own, or in the TUI's status line.
func (c sleepChoice) notes() []string {
	if c.proposed {
		return []string{sleepNote}
	}
	return nil
}

func (c sleepChoice) statusNotes() []string {
	if c.proposed {
		return []string{sleepNoteShort}
	}
	return nil
}

// parseSleepAfter accepts whole minutes: "30", "30m" or "1h".
func parseSleepAfter(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	d, ok := parseMinutes(s)
	if !ok || d%time.Minute != 0 || d/time.Minute > 1e6 {
		return 0, fmt.Errorf("--sleep-after %q: give minutes from 0 to %d, like 30 or 45m (0 stops the sound with the words)", s, app.MaxSleepAfter)
	}
	n := int(d / time.Minute)
	if err := app.CheckSleepAfter(n); err != nil {
		return 0, fmt.Errorf("--sleep-after %s: %w", s, err)
	}
	return d, nil
}
