package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
	"github.com/lull-dev/lull/internal/sessions"
)

// What lull asks on a terminal around a --no-tui session; Enter skips each.
const (
	moodBeforeQuestion = "How do you feel, 1 (low) to 5 (very good)? Enter skips: "
	moodAfterQuestion  = "And now? 1–5, Enter skips: "
	noteQuestion       = "A note to keep with it (Enter skips): "
)

// askingMood reports whether there is a person to ask: stdin and stdout
// both a terminal. Scripts, pipes and CI are never asked.
func (c *cli) askingMood() bool { return isTerminal(os.Stdin) && isTerminal(os.Stdout) }

// answer reads one line the person typed; ok is false at the end of input.
func (c *cli) answer(question string) (string, bool) {
	if c.in == nil {
		c.in = bufio.NewReader(os.Stdin)
	}
	fmt.Fprint(c.stdout, fitText(strings.TrimSuffix(question, " "), columns(c.stdout))+" ")
	line, err := c.in.ReadString('\n')
	if err != nil && (line == "" || !errors.Is(err, io.EOF)) {
		fmt.Fprintln(c.stdout)
		return "", false
	}
	return strings.TrimSpace(line), true
}

// askMood asks question until it gets a mood 1–5 or a skip (0).
func (c *cli) askMood(question string) int {
	for {
		a, ok := c.answer(question)
		if !ok || a == "" {
			return 0
		}
		if n, err := strconv.Atoi(a); err == nil && engine.CheckMood(n) == nil {
			return n
		}
		fprintf(c.stdout, "%q is not a mood: type a number from %d to %d, or press Enter to skip.\n", human.Line(a), engine.MinMood, engine.MaxMood)
	}
}

// askNote asks for a note until one fits (engine.MaxNote) or is skipped.
func (c *cli) askNote() string {
	for {
		a, ok := c.answer(noteQuestion)
		if !ok {
			return ""
		}
		note, err := engine.CleanNote(a)
		if err == nil {
			return note
		}
		fprintf(c.stdout, "%s: write it shorter, or press Enter to skip.\n", err)
	}
}

// headlessAsking runs a session headless, then, on a terminal, asks how
// the listener feels now and for a note (see askAfter).
func (c *cli) headlessAsking(a *app.App, start func() (*app.Run, error), notes ...string) error {
	var run *app.Run
	err := c.headless(func() (*app.Run, error) {
		r, err := start()
		run = r
		return r, err
	}, notes...)
	if err != nil || run == nil {
		return err
	}
	return c.askAfter(a, run.Snapshot())
}

// askAfter asks, once a waking session has completed, how the listener
// feels now and for a note, and saves what they give.
func (c *cli) askAfter(a *app.App, final engine.State) error {
	if final.Status != engine.Completed || final.Sleep || !c.askingMood() {
		return nil
	}
	fmt.Fprintln(c.stdout)
	mood := c.askMood(moodAfterQuestion)
	note := c.askNote()
	if mood == 0 && note == "" {
		return nil
	}
	r := sessions.Remark{MoodAfter: mood}
	if note != "" {
		r.Note = &note
	}
	st, err := a.Remark(final.ID, r)
	if err != nil {
		return fmt.Errorf("your mood and note were not saved: %w; set them with: %s", err, human.Command("sessions note "+final.ID))
	}
	fprintln(c.stdout, savedRemark(st))
	return nil
}

// savedRemark says what a session keeps of what the listener said.
func savedRemark(st engine.State) string {
	var parts []string
	if ch := engine.MoodChange(st.MoodBefore, st.MoodAfter); ch != "" {
		parts = append(parts, "mood "+ch)
	}
	if st.Note != "" {
		parts = append(parts, "note: "+human.Line(st.Note))
	}
	if len(parts) == 0 {
		return "Saved with " + st.ID + ": no mood, no note."
	}
	return "Saved with " + st.ID + ": " + strings.Join(parts, " · ") + "."
}

// checkMoodFlag refuses a mood flag off the scale, naming the flag.
func checkMoodFlag(flag string, m int) error {
	if m < engine.MinMood || m > engine.MaxMood {
		return fmt.Errorf("%s %d: give how you feel as a number from %d (low) to %d (very good)", flag, m, engine.MinMood, engine.MaxMood)
	}
	return nil
}
