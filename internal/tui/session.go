package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// sessionView is the screen of a session under way: where it is among the
// phases, its clock, its words, its state.
type sessionView struct {
	id        string
	intention string // printable (human.Line), as is all text in the view
	status    engine.Status
	progress  engine.Progress
	clock     time.Duration // the engine's own count when last read: the next tick waits for it to turn the clock shown (cadence.go)
	words     transcript
	started   bool // a sentence has been spoken in this view
	summary   *engine.Summary
	problem   string // why the guide stopped, in plain words (Run.Stopped), shown while interrupted
	todo      string // and what the listener can do
	switching bool   // the model switch is open, over the interrupted screen's keys
	sw        modelSwitch
	unsaved   string        // why the last save did not reach the disk and what is there; "" when it did (shown once complete)
	asked     engine.Status // the listener's pause or resume, until the engine confirms it
	// A sleep session plays its soundscape on for tail after its words:
	// drifting says it does now, drift for how long (as last told).
	sleep    bool
	tail     time.Duration
	drifting bool
	drift    time.Duration
	// end asks, once a waking session is complete, how the listener
	// feels now and for a note.
	end endView
	// A breathing practice has its own screen (breathe.go).
	practice bool
	breathe  breatheView
	// A sit is a practice with a screen of its own (sit.go).
	sitting bool
	sit     sitView
	// The voice the session asked for ("auto", "flite", "none", …), and
	// the sound as the run last said it plays (soundline.go).
	voiceChosen string
	sound       soundNow
}

func newSessionView(st engine.State) sessionView {
	v := sessionView{
		id:        st.ID,
		intention: human.Line(st.Intention),
		status:    st.Status,
		progress:  engine.Progress{Status: st.Status, Phase: st.Phase, Elapsed: st.Elapsed, Length: st.Length},
		words:     newTranscript(),
		summary:   st.Summary,
		sleep:     st.Sleep,
		tail:      st.SleepTail,
		end:       newEndView(st.MoodBefore),

		voiceChosen: st.Voice,
	}
	v.words.rebuild(st.History)
	if st.Practice == engine.PracticeBreathe {
		v.practice = true
		v.breathe.pattern = human.Line(st.Pattern)
	}
	if st.Practice == engine.PracticeSit {
		v.practice, v.sitting = true, true
		v.sit = newSitView(st.Pattern)
	}
	return v
}

// apply takes one engine event into the view.
func (v *sessionView) apply(ev engine.Event) {
	switch ev.Kind {
	case engine.EventPhaseStarted:
		v.progress.Phase = ev.Phase
		v.progress.PhaseElapsed = 0
		if v.words.lastPhase() != ev.Phase {
			v.words.heading(ev.Phase)
		}
	case engine.EventSentence:
		if v.words.lastPhase() != ev.Phase {
			v.words.heading(ev.Phase)
		}
		v.words.sentence(ev.Phase, ev.Text)
		v.started = true
	case engine.EventError:
		// Its text may quote a server's error: the interrupted screen
		// asks the run for plain words instead (stoppedMsg).
	case engine.EventStatus:
		v.status = v.settle(ev.Status)
		v.progress.Status = v.status
	case engine.EventCompleted:
		v.status = engine.Completed
		v.words.current = -1
		if v.sleep && v.tail > 0 {
			// The sound plays on: drifting from this moment, so the
			// screen goes straight from the last words to the quiet line.
			v.drifting, v.drift = true, v.tail
		}
	}
	if left, ok := Drifting(ev); ok {
		v.drifting, v.drift = true, left
	}
	v.breathe.apply(ev)
	v.sit.apply(ev)
}

// resync rebuilds the view from a snapshot after falling behind.
func (v *sessionView) resync(st engine.State) {
	shown, asked, end, sound := v.progress, v.asked, v.end, v.sound
	*v = newSessionView(st)
	v.asked, v.end, v.sound = asked, end, sound
	v.status = v.settle(v.status)
	v.progress = steady(shown, v.progress, v.status)
}

// setProgress takes the engine's clock into the view; the clock on screen
// never steps back (see steady).
func (v *sessionView) setProgress(p engine.Progress) {
	v.status = v.settle(p.Status)
	v.progress = steady(v.progress, p, v.status)
	v.clock = p.Elapsed
}

func (v sessionView) statusWord() string {
	switch v.status {
	case engine.Running:
		if v.progress.Waiting {
			// A remote guide is slow: silence, or the built-in guide's
			// words in its place, is not the guide speaking.
			return "waiting for the guide"
		}
		if !v.started {
			return "settling in"
		}
		return "speaking"
	case engine.Completed:
		if v.drifting {
			return "drifting"
		}
		return "complete"
	default:
		return string(v.status)
	}
}

// clocks is the row under the header, a session's and a practice's:
// the time elapsed, and the time remaining (none once complete).
func (v sessionView) clocks(remaining time.Duration, width int, s *Styles) string {
	remaining = max(remaining, 0)
	if v.status == engine.Completed {
		remaining = 0
	}
	return spread(
		s.Clock.Render(human.Clock(v.progress.Elapsed))+s.Muted.Render(" elapsed"),
		s.Muted.Render("remaining ")+s.Clock.Render(human.Clock(remaining)),
		width)
}

// View lays the screen out in width × height cells.
func (v sessionView) View(width, height int, s *Styles) string {
	if v.sitting {
		return v.sit.View(v, width, height, s)
	}
	if v.practice {
		return v.breathe.View(v, width, height, s)
	}
	width = max(width, 1)
	title := s.Title.Render("lull")
	if v.intention != "" {
		title += s.Muted.Render(" · ") + s.Text.Render(truncate(v.intention, max(width-30, 8)))
	}
	dot := "●"
	if v.status == engine.Paused {
		dot = "❚❚"
	}
	state := s.Status[v.status].Render(dot + " " + v.statusWord())
	if v.drifting {
		state = s.Muted.Render("◌ " + v.statusWord())
	}
	header := spread(title, state, width)

	bar := v.phaseBar()
	clocks := v.clocks(v.progress.Length-human.Shown(v.progress.Elapsed), width, s)

	top := []string{header, "", bar.View(width, s), clocks, ""}
	if height < 10 {
		// Small terminals keep the essentials: where, how long, what now.
		top = []string{header, bar.View(width, s), clocks}
	}
	if v.showsBreath(height) {
		top = append(top, breathView{}.View(*v.progress.Breath, width, s))
	}
	used := lipgloss.Height(strings.Join(top, "\n"))
	body := ""
	if v.drifting {
		body = s.Muted.Render(truncate(DriftLine(v.drift, "q"), width))
	} else if v.status == engine.Completed && !v.sleep {
		// A sleep session's last words stay until lull leaves, a moment
		// later: nothing bright for eyes that may be closed.
		body = v.completion(width, max(height-used, 1), s)
	} else if v.status == engine.Interrupted {
		body = v.interrupted(width, max(height-used, 1), s)
	} else {
		body = v.words.View(width, max(height-used, 0), s)
	}
	if !v.started && v.status == engine.Running && len(v.words.lines) == 0 {
		body = s.Muted.Render(wrap("Close your eyes. The first words come in a moment.", width))
	}
	return strings.Join(append(top, body), "\n")
}

// phaseBar is where the session is among its phases.
func (v sessionView) phaseBar() phaseBar {
	bar := phaseBar{current: v.progress.Phase, done: v.status == engine.Completed, length: v.progress.Length, sleep: v.sleep}
	if v.progress.PhaseTarget > 0 {
		bar.fill = float64(v.progress.PhaseElapsed) / float64(v.progress.PhaseTarget)
	}
	return bar
}

// showsBreath reports whether the screen, height rows tall, draws the
// breath: a practice always does, a session when there is room.
func (v sessionView) showsBreath(height int) bool {
	if v.progress.Breath == nil || v.status == engine.Completed {
		return false
	}
	return v.practice || height >= 10+breathLines
}

// completion is a waking session's end, in width × height cells: what
// was done, the mood before → after, the question and the note, or why
// the last save failed. A short screen gets it without its blank lines
// and asides.
func (v sessionView) completion(width, height int, s *Styles) string {
	var full, brief []string
	full = append(full, s.Heading.Render("The session is complete."), "")
	brief = append(brief, s.Heading.Render("The session is complete."))
	if v.summary != nil {
		done := fmt.Sprintf("%s · %d sentences", human.Clock(v.summary.Duration), v.summary.Sentences)
		full = append(full, s.Text.Render(done+" through five phases."))
		brief = append(brief, s.Text.Render(done+"."))
		if t := v.summary.Tokens; t != (engine.Tokens{}) {
			full = append(full, s.Muted.Render(human.Tokens(t.In, t.Out, v.summary.Cost)+"."))
		}
	}
	if mood := moodLine(v.end.before, v.end.mood); mood != "" {
		full = append(full, s.Text.Render(mood))
		brief = append(brief, s.Text.Render(mood))
	}
	if v.asksAfter() {
		full = append(full, "")
		full = append(full, v.end.View(width, s)...)
		brief = append(brief, v.end.View(width, s)...)
	}
	if v.unsaved != "" {
		// "… was not saved: why." first, then what is on disk and what to do.
		first, rest, _ := strings.Cut(v.unsaved, "\n")
		full = append(full, "", s.Error.Render(first), s.Text.Render(rest))
		brief = append(brief, s.Error.Render(first), s.Text.Render(rest))
	} else {
		full = append(full, "", s.Muted.Render("Take your time before you move on. Its words are saved with the session."))
	}
	return fitRows(width, height, s, full, brief)
}

// fitRows lays out the first of these forms of a text that fits in width
// × height cells, wrapped; when none does, the last one's first rows under
// a "…" row that says the rest is cut (the lines lull says again as it
// exits, or the ones the key help holds).
func fitRows(width, height int, s *Styles, forms ...[]string) string {
	var rows []string
	for _, lines := range forms {
		rows = strings.Split(lipgloss.NewStyle().Width(max(width, 1)).Render(strings.Join(lines, "\n")), "\n")
		if len(rows) <= height {
			return strings.Join(rows, "\n")
		}
	}
	return strings.Join(append(rows[:max(height-1, 0)], s.Muted.Render("…")), "\n")
}

// interrupted says why the words stopped and what the listener can do,
// in width × height cells: on a short screen without the list of keys the
// key help holds too.
func (v sessionView) interrupted(width, height int, s *Styles) string {
	heading := s.Heading.Render("The guide could not go on.")
	full := []string{heading, ""}
	brief := []string{heading}
	if v.problem != "" {
		full = append(full, s.Text.Render(v.problem))
		brief = append(brief, s.Text.Render(v.problem))
		if v.todo != "" {
			full = append(full, s.Text.Render(v.todo))
			brief = append(brief, s.Text.Render(v.todo))
		}
		full = append(full, "")
	}
	if v.switching {
		full = append(full, v.sw.View(width, false, s))
		// The model and the server first, the reason after them.
		return fitRows(width, height, s, full, []string{v.sw.View(width, true, s)}, append([]string{v.sw.View(width, true, s)}, brief...))
	}
	full = append(full,
		s.Text.Render("Nothing is lost: the session stopped at the last sentence you heard."), "",
		s.Accent.Render("r")+s.Muted.Render("  try the guide again"),
		s.Accent.Render("m")+s.Muted.Render("  try another model"),
		s.Accent.Render("b")+s.Muted.Render("  carry on with the built-in guide"),
		s.Accent.Render("q")+s.Muted.Render("  quit; resume later from the list"))
	brief = append(brief, s.Muted.Render("Nothing is lost."))
	return fitRows(width, height, s, full, brief)
}

// spread puts left and right on one line of the given width.
func spread(left, right string, width int) string {
	gap := width - lipgloss.Width(left) - lipgloss.Width(right)
	if gap < 1 {
		return left
	}
	return left + strings.Repeat(" ", gap) + right
}
