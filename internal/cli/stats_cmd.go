package cli

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/lull-dev/lull/internal/human"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/lull-dev/lull/internal/practice"
	"github.com/lull-dev/lull/internal/tui"
)

var statsHelp = help{
	use:   "stats",
	short: "Your practice: sessions and minutes, streak, mood, the last 30 days",
	long: "Your practice over time: sessions and minutes this week (from Monday) and in\n" +
		"all, the days in a row you practised, how your mood changed, and charts of\n" +
		"the last 30 days. A session counts when it played to you a minute or more,\n" +
		"guided or breathing, whatever became of it, on the day it began; what lull\n" +
		"render wrote to a file counts only once it is played.\n\n" +
		"Some people find streaks stressful: stats.streak: false in config.yaml\n" +
		"hides the streak here, in --json and in the TUI.",
	example: "  lull stats\n  lull stats --json",
}

func (c *cli) statsCmd() *cobra.Command {
	var asJSON bool
	cmd := statsHelp.command(cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		return c.withEnv(func(env *environment) error {
			r, problems := env.app.Practice(time.Now())
			if n := len(problems); n > 0 {
				c.note(fmt.Sprintf("%s could not be read and %s not counted; see: %s", sessionsCount(n), isAre(n), human.Command("sessions list")))
			}
			if asJSON {
				return c.printJSON(practiceJSON(r))
			}
			return c.printPractice(r)
		})
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the figures as JSON, for scripts")
	return cmd
}

func sessionsCount(n int) string {
	if n == 1 {
		return "1 session"
	}
	return strconv.Itoa(n) + " sessions"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// printPractice draws the report as the TUI's stats screen does: in
// colour on a terminal unless NO_COLOR is set, plain text otherwise.
func (c *cli) printPractice(r practice.Report) error {
	out, tty := c.stdout.(*os.File)
	tty = tty && isTerminal(out)
	width := 80
	if tty {
		if w, _, err := term.GetSize(out.Fd()); err == nil && w > 0 {
			width = min(w, 80)
		}
	} else if w, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && w > 0 {
		width = min(w, 80)
	}
	_, noColor := os.LookupEnv("NO_COLOR")
	dark := true
	if tty && !noColor && isTerminal(os.Stdin) {
		dark = darkBackground(os.Stdin, out)
	}
	styles := tui.NewStyles(dark, noColor || !tty)
	text := tui.RenderPractice(r, width, 0, &styles) + "\n"
	if !tty {
		_, err := fmt.Fprint(c.stdout, ansi.Strip(text))
		return err
	}
	_, err := lipgloss.Fprint(c.stdout, text)
	return err
}

// Practice is the listener's practice as of now, for the TUI.
func (b backend) Practice() practice.Report {
	r, _ := b.app.Practice(time.Now()) // the list says what could not be read
	return r
}

// The JSON lull stats --json prints (statsFormat). Its field names are
// kept stable for scripts; minutes are numbers (to a tenth), dates YYYY-MM-DD in local
// time.
type (
	statsJSON struct {
		Format string    `json:"format"` // statsFormat
		Date   string    `json:"date"`   // today
		Week   tallyJSON `json:"week"`   // since Monday
		Total  tallyJSON `json:"total"`
		// StreakDays is left out when stats.streak is false.
		StreakDays *int      `json:"streak_days,omitempty"`
		Mood       moodJSON  `json:"mood"`
		Days       []dayJSON `json:"days"` // the last 30, oldest first
	}
	tallyJSON struct {
		Since             string  `json:"since,omitempty"` // the week's Monday
		Sessions          int     `json:"sessions"`
		Minutes           float64 `json:"minutes"`
		BreathingSessions int     `json:"breathing_sessions"`
		BreathingMinutes  float64 `json:"breathing_minutes"`
	}
	moodJSON struct {
		Sessions      int      `json:"sessions"`       // with a mood before and after
		AverageChange *float64 `json:"average_change"` // after − before; null with no sessions
	}
	dayJSON struct {
		Date             string   `json:"date"`
		Sessions         int      `json:"sessions"`
		Minutes          float64  `json:"minutes"`
		BreathingMinutes float64  `json:"breathing_minutes"`
		MoodBefore       *float64 `json:"mood_before"` // the day's average; null when none given
		MoodAfter        *float64 `json:"mood_after"`
	}
)

func practiceJSON(r practice.Report) statsJSON {
	tally := func(t practice.Tally) tallyJSON {
		return tallyJSON{Sessions: t.Sessions, Minutes: practice.Minutes(t.Played),
			BreathingSessions: t.BreathingSessions, BreathingMinutes: practice.Minutes(t.Breathing)}
	}
	mood := func(m float64) *float64 {
		if m == 0 {
			return nil
		}
		m = math.Round(m*100) / 100
		return &m
	}
	out := statsJSON{Format: statsFormat, Date: r.Today.String(), Week: tally(r.Week), Total: tally(r.Total),
		Mood: moodJSON{Sessions: r.Mood.Sessions}, Days: []dayJSON{}}
	out.Week.Since = r.Since.String()
	if r.ShowStreak {
		out.StreakDays = &r.Streak
	}
	if r.Mood.Sessions > 0 {
		a := math.Round(r.Mood.Average*100) / 100
		out.Mood.AverageChange = &a
	}
	for _, d := range r.Last {
		out.Days = append(out.Days, dayJSON{Date: d.Date.String(), Sessions: d.Sessions, Minutes: practice.Minutes(d.Played),
			BreathingMinutes: practice.Minutes(d.Breathing), MoodBefore: mood(d.Before), MoodAfter: mood(d.After)})
	}
	return out
}
