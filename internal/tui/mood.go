package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// Remark is what the listener says of a session after it; each part is
// kept only when given.
type Remark struct {
	MoodAfter int    // 1–5, 0 not given
	Note      string // "" not given
	// Asked says lull asked how a sleep session went: a skip is not asked
	// again.
	Asked bool
}

func (r Remark) empty() bool { return r.MoodAfter == 0 && r.Note == "" && !r.Asked }

// endView asks, on a waking session's end screen, how the listener feels
// now and for a short note. Both may be skipped; nothing is asked of a
// sleep session.
type endView struct {
	before int // the mood given before the session, to say beside the one after
	mood   int // after: 1–5, 0 not given
	note   textinput.Model
	typing bool // the note has the keys
}

func newEndView(before int) endView {
	in := textinput.New()
	in.Placeholder = noteInvite
	in.CharLimit = engine.MaxNote
	in.Prompt = ""
	return endView{before: before, note: in}
}

// The note's placeholder: how to begin one, and once begun, what it is.
const (
	noteInvite = "tab to write a line to keep with it (optional)"
	noteHint   = "a line to keep with it; esc when done"
)

// remark is what was given, the note cleaned by the engine's rule.
func (e endView) remark() Remark {
	note, _ := engine.CleanNote(e.note.Value()) // the input holds at most MaxNote characters
	return Remark{MoodAfter: e.mood, Note: note}
}

// asksAfter reports whether the session screen is a waking session's end
// screen, where the mood after and a note are asked: not when its last
// save failed, for they could not be kept either.
func (v sessionView) asksAfter() bool {
	// A breathing practice ends on its own screen (breathe.go): nothing to ask.
	return v.status == engine.Completed && !v.sleep && !v.practice && !v.drifting && v.unsaved == ""
}

// endLines are the end screen's own lines: the mood before → after and
// the question, and the note.
func (e endView) View(width int, s *Styles) []string {
	var marks []string
	for i := engine.MinMood; i <= engine.MaxMood; i++ {
		if i == e.mood {
			marks = append(marks, s.ChoiceOn.Render(fmt.Sprintf("[%d]", i)))
		} else {
			marks = append(marks, s.Choice.Render(fmt.Sprintf(" %d ", i)))
		}
	}
	word := fmt.Sprintf("%d %s … %d %s", engine.MinMood, engine.MoodWord(engine.MinMood), engine.MaxMood, engine.MoodWord(engine.MaxMood))
	if w := engine.MoodWord(e.mood); w != "" {
		word = w
	}
	ask, note := s.FieldFocused, s.FieldLabel
	placeholders := []string{noteInvite, "tab to write a note", "tab: a note"}
	if e.typing {
		ask, note = s.FieldLabel, s.FieldFocused
		placeholders = []string{noteHint, "esc when done", ""}
	}
	e.note.SetWidth(noteWidth(width))
	// The placeholder in full where it fits, else in brief: never cut.
	for _, p := range placeholders {
		e.note.Placeholder = p
		if lipgloss.Width(p) <= e.note.Width()+1 {
			break
		}
	}
	// The question in full where it fits; else shorter, the scale's words
	// left out.
	question := ask.Render("How do you feel now?") + " " + strings.Join(marks, "")
	if lipgloss.Width(question) > width {
		question = ask.Render("Feeling now:") + " " + strings.Join(marks, "")
	}
	if lipgloss.Width(question)+1+lipgloss.Width(word) <= width {
		question += " " + s.Muted.Render(word)
	}
	return []string{question, note.Render(fmt.Sprintf("%-10s", "A note")) + " " + e.note.View()}
}

// noteWidth is the note field's width on a screen width cells wide: the
// rest of its line, beside its label.
func noteWidth(width int) int { return max(width-12, 10) }

// moodLine says the mood before → after, or "" when neither was given.
func moodLine(before, after int) string {
	if ch := engine.MoodChange(before, after); ch != "" {
		return "Mood " + ch + "."
	}
	return ""
}

// onEndKey answers a key on a waking session's end screen: 1–5 the mood
// after, tab to write the note and esc back from it, enter or esc to the
// sessions (saving what was given), q to quit (saving it too). The note
// takes keys only once tab has opened it: q after a mood quits, as the
// key help says, rather than begin a note.
func (m Model) onEndKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	e := &m.sess.end
	if e.typing {
		switch {
		case key.Matches(msg, m.keys.Open):
			return m, m.leaveEnd(false)
		case key.Matches(msg, m.keys.Leave):
			e.typing = false
			e.note.Blur()
			return m, nil
		case key.Matches(msg, m.keys.NoteField):
			// Already on the note: tab, as the help said before, stays —
			// the words typed next are kept.
			return m, nil
		}
		var cmd tea.Cmd
		e.note, cmd = e.note.Update(msg)
		return m, cmd
	}
	switch {
	case key.Matches(msg, m.keys.MoodAfter):
		e.mood = int(msg.String()[0] - '0')
		return m, nil
	case key.Matches(msg, m.keys.NoteField):
		e.typing = true
		return m, e.note.Focus()
	case key.Matches(msg, m.keys.Open), key.Matches(msg, m.keys.Leave):
		return m, m.leaveEnd(false)
	case key.Matches(msg, m.keys.Quit):
		return m, m.leaveEnd(true)
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
	}
	return m, nil
}

// leaveEnd lets go of the completed session, then keeps with it what the
// listener said, and goes to the sessions or quits. The session's files
// are closed first: the remark is written as one more save of them.
func (m *Model) leaveEnd(quit bool) tea.Cmd {
	r := m.sess.end.remark()
	if r.empty() || m.run == nil || m.closing {
		return m.closeRun(quit)
	}
	m.closing = true
	run, b := m.run, m.backend
	return func() tea.Msg {
		id := run.ID()
		err := run.Close()
		if rerr := b.Remark(id, r); rerr != nil {
			err = errors.Join(err, fmt.Errorf("your mood and note were not saved: %w; keep them with: %s", rerr, human.Command("sessions note "+id)))
		}
		return closedMsg{id: id, err: err, quit: quit}
	}
}

func (k KeyMap) endHelp(typing bool) screenKeys {
	leave := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save & your sessions"))
	if typing {
		done := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "done writing"))
		return screenKeys{
			short:  []key.Binding{leave, done},
			full:   [][]key.Binding{{leave, done}},
			narrow: []key.Binding{brief(leave, "save"), brief(done, "done")},
		}
	}
	return screenKeys{
		short:  []key.Binding{k.MoodAfter, k.NoteField, leave, k.Quit},
		full:   [][]key.Binding{{k.MoodAfter, k.NoteField}, {leave, k.Quit}},
		narrow: []key.Binding{brief(k.MoodAfter, ""), brief(k.NoteField, "note"), brief(leave, "save"), k.Quit},
	}
}

// askAfterSleep is how long after a sleep session lull asks, the next
// time it opens, how the listener slept.
const askAfterSleep = 36 * time.Hour

// sleptUnasked is the latest sleep session played to the listener (not
// a render), completed within askAfterSleep, if it has no mood after and
// was never asked about.
func sleptUnasked(infos []SessionInfo, now time.Time) (SessionInfo, bool) {
	var latest SessionInfo
	found := false
	for _, in := range infos {
		if in.Sleep && in.Status == engine.Completed && !in.Unheard && now.Sub(in.LastActive) <= askAfterSleep &&
			(!found || in.LastActive.After(latest.LastActive)) {
			latest, found = in, true
		}
	}
	return latest, found && latest.MoodAfter == 0 && !latest.MoodAsked
}

// askSleep opens, once per lull, the question about the last night's
// sleep session, when nothing else is being asked.
func (m *Model) askSleep(infos []SessionInfo) {
	if m.sleepAsked || m.screen != screenHome || m.dialog != dialogNone {
		return
	}
	m.sleepAsked = true
	if in, ok := sleptUnasked(infos, m.now()); ok {
		m.dialog = dialogSleepMood
		m.target, m.sleepAsk = in.ID, in
	}
}

// remarkedMsg says how keeping a remark went.
type remarkedMsg struct {
	mood int
	err  error
}

// onSleepMoodKey answers the question about a sleep session: 1–5 keeps
// the mood after, esc skips; either way it is not asked again.
func (m Model) onSleepMoodKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	r := Remark{Asked: true}
	switch {
	case key.Matches(msg, m.keys.MoodAfter):
		r.MoodAfter = int(msg.String()[0] - '0')
	case key.Matches(msg, m.keys.Later):
	default:
		return m, nil
	}
	m.dialog = dialogNone
	b, id := m.backend, m.target
	return m, func() tea.Msg { return remarkedMsg{mood: r.MoodAfter, err: b.Remark(id, r)} }
}

func (m Model) onRemarked(msg remarkedMsg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch {
	case msg.err != nil:
		cmd = m.status.set(friendly(msg.err), levelError, 8*time.Second)
	case msg.mood != 0:
		cmd = m.status.set(fmt.Sprintf("Kept: you slept %s (%d).", slept(msg.mood), msg.mood), levelInfo, 4*time.Second)
	}
	return m, tea.Batch(cmd, m.loadSessions())
}

// slept says a mood after a sleep session as how one slept: the mood's
// words are adjectives ("good"), and one sleeps well.
func slept(mood int) string {
	switch mood {
	case 1:
		return "badly"
	case 2:
		return "poorly"
	case 3:
		return "all right"
	case 4:
		return "well"
	case 5:
		return "very well"
	}
	return engine.MoodWord(mood)
}

// sleepMoodDialog is the question about last night's sleep session.
func (m Model) sleepMoodDialog(width int) string {
	s := m.styles
	title := "How did you sleep?"
	var intention string
	if in := m.sleepAsk; in.Intention != "" {
		intention = " (" + truncate(human.Line(in.Intention), 30) + ")"
	}
	body := "After your sleep session" + intention + ":\n" +
		fmt.Sprintf("%d %s … %d %s", engine.MinMood, engine.MoodWord(engine.MinMood), engine.MaxMood, engine.MoodWord(engine.MaxMood))
	box := s.Dialog.Render(s.Heading.Render(title) + "\n\n" + s.Text.Render(body) + "\n\n" +
		s.Accent.Render("1–5") + s.Muted.Render(" keep it   ") + s.Accent.Render("esc") + s.Muted.Render(" skip"))
	if lipgloss.Width(box) > width {
		box = s.Heading.Render(title) + "\n" + s.Muted.Render("1–5 · esc skip")
	}
	return box
}

func (k KeyMap) sleepMoodHelp() screenKeys {
	skip := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "skip"))
	return screenKeys{short: []key.Binding{k.MoodAfter, skip}, full: [][]key.Binding{{k.MoodAfter, skip}}}
}
