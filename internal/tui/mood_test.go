package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// finishedRun is a waking (or sleep) session run to its end.
func finishedRun(t *testing.T, sleep bool, before int) *testRun {
	t.Helper()
	st, err := engine.NewState("2026-11-23-0930-done", engine.Options{Length: 5 * time.Minute, MoodBefore: before, Sleep: sleep}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	r := startTestRun(st)
	t.Cleanup(func() { r.Close() })
	select {
	case <-r.finished():
	case <-time.After(60 * time.Second): // bounds a failure only
		t.Fatal("the session never finished")
	}
	if s := r.Snapshot().Status; s != engine.Completed {
		t.Fatalf("the session is %s", s)
	}
	return r
}

// endModel is lull new's screen on a completed session: opened straight
// on it.
func endModel(t *testing.T, b *fakeBackend, r Run) Model {
	t.Helper()
	m := New(Options{Backend: b, Run: r, Now: func() time.Time { return testNow }})
	return sized(m, 80, 24)
}

// feed runs cmd and feeds its message back, once.
func feed(t *testing.T, m Model, cmd tea.Cmd) (Model, tea.Cmd) {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	next, c := m.Update(cmd())
	return next.(Model), c
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// On the end screen one keystroke gives the mood after, tab opens the
// note, the note takes what is typed (q and digits included), and enter
// keeps both with the session and opens the sessions list — after lull
// new too.
func TestEndScreenKeepsMoodAndNote(t *testing.T) {
	b := &fakeBackend{}
	r := finishedRun(t, false, 2)
	m := endModel(t, b, r)
	if !m.sess.asksAfter() {
		t.Fatal("the end screen of a waking session does not ask")
	}
	m, _ = press(m, "4", "tab", "q", "u", "i", "e", "t", " ", "2")
	view := ansi.Strip(m.View().Content)
	for _, want := range []string{"Mood 2 (uneasy) → 4 (good).", "How do you feel now?", "[4]", "quiet 2"} {
		if !strings.Contains(view, want) {
			t.Errorf("the end screen lacks %q:\n%s", want, view)
		}
	}
	m, cmd := press(m, "enter")
	m, cmd = feed(t, m, cmd)
	if got := b.remarks[r.ID()]; got != (Remark{MoodAfter: 4, Note: "quiet 2"}) {
		t.Errorf("kept %+v", got)
	}
	if m.screen != screenHome || isQuit(cmd) {
		t.Errorf("enter left screen %d (quit %v): it says it opens your sessions", m.screen, isQuit(cmd))
	}
}

// The key help says "1–5 how you feel • tab note": a mood key, then tab,
// then words — the words are the note (tab once left the note the mood key
// had opened, and the words went nowhere).
func TestEndScreenMoodThenTabThenNote(t *testing.T) {
	b := &fakeBackend{}
	r := finishedRun(t, false, 0)
	m := endModel(t, b, r)
	m, _ = press(m, "4", "tab", "f", "e", "e", "t")
	if !m.sess.end.typing || m.sess.end.note.Value() != "feet" {
		t.Fatalf("after 4, tab and a word the note holds %q (typing %v)", m.sess.end.note.Value(), m.sess.end.typing)
	}
	m, cmd := press(m, "enter")
	feed(t, m, cmd)
	if got := b.remarks[r.ID()]; got != (Remark{MoodAfter: 4, Note: "feet"}) {
		t.Errorf("kept %+v", got)
	}
}

// A mood key gives the mood and nothing more: the note takes no keys
// until tab opens it, so q after a mood quits as the key help says (it
// once began a note "q"), keeping the mood; another digit changes it.
func TestEndScreenQAfterAMoodQuits(t *testing.T) {
	b := &fakeBackend{}
	r := finishedRun(t, false, 0)
	m := endModel(t, b, r)
	m, _ = press(m, "4", "2")
	if m.sess.end.typing || m.sess.end.note.Value() != "" || m.sess.end.mood != 2 {
		t.Fatalf("after 4 and 2: typing %v, note %q, mood %d; want the mood 2 and no note", m.sess.end.typing, m.sess.end.note.Value(), m.sess.end.mood)
	}
	view := ansi.Strip(m.View().Content)
	for _, want := range []string{"tab to write a line", "q quit", "tab note"} {
		if !strings.Contains(view, want) {
			t.Errorf("the end screen after a mood lacks %q:\n%s", want, view)
		}
	}
	m, cmd := press(m, "q")
	m, cmd = feed(t, m, cmd)
	if got := b.remarks[r.ID()]; got != (Remark{MoodAfter: 2}) {
		t.Errorf("kept %+v", got)
	}
	if !isQuit(cmd) {
		t.Errorf("q after a mood did not quit (screen %d)", m.screen)
	}
}

// Skipped, nothing is written; esc from the note returns to the mood, and
// q there quits, keeping what was given.
func TestEndScreenSkipsAndQuits(t *testing.T) {
	b := &fakeBackend{}
	m := endModel(t, b, finishedRun(t, false, 0))
	m, cmd := press(m, "enter")
	m, _ = feed(t, m, cmd)
	if len(b.remarks) != 0 || m.screen != screenHome {
		t.Errorf("skipped: kept %v, screen %d", b.remarks, m.screen)
	}

	b = &fakeBackend{}
	r := finishedRun(t, false, 0)
	m = endModel(t, b, r)
	m, _ = press(m, "tab", "o", "k", "esc")
	if m.sess.end.typing {
		t.Fatal("esc did not leave the note")
	}
	_, cmd = press(m, "q")
	m, cmd = feed(t, m, cmd)
	if got := b.remarks[r.ID()]; got != (Remark{Note: "ok"}) {
		t.Errorf("kept %+v", got)
	}
	if !isQuit(cmd) {
		t.Error("q on the end screen did not quit")
	}
}

// The rough edge: after lull new or lull resume, a finished session's
// screen said "enter your sessions" and enter quit lull.
func TestEnterAfterLullNewOpensTheSessions(t *testing.T) {
	for _, st := range []engine.Status{engine.Completed, engine.Abandoned} {
		b := &fakeBackend{infos: sampleSessions()}
		r := finishedRun(t, false, 0)
		if st == engine.Abandoned {
			s, _ := engine.NewState("2026-11-23-0931-gone", engine.Options{Length: 5 * time.Minute}, testNow)
			r = startHeldRun(s)
			t.Cleanup(func() { r.Close() })
			if err := r.Abandon(); err != nil {
				t.Fatal(err)
			}
			<-r.finished()
		}
		m := endModel(t, b, r)
		if !strings.Contains(ansi.Strip(m.View().Content), "your sessions") {
			t.Fatalf("%s: the key help does not offer your sessions", st)
		}
		m, cmd := press(m, "enter")
		m, cmd = feed(t, m, cmd)
		if isQuit(cmd) || m.screen != screenHome {
			t.Errorf("%s: enter quit lull (screen %d) where the help says it opens your sessions", st, m.screen)
		}
	}
}

// A sleep session's end asks nothing: digits do nothing, no question is
// drawn.
func TestSleepEndAsksNothing(t *testing.T) {
	b := &fakeBackend{}
	m := endModel(t, b, finishedRun(t, true, 0))
	if m.sess.asksAfter() {
		t.Fatal("the end of a sleep session asks")
	}
	m, _ = press(m, "4")
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "How do you feel") || m.sess.end.mood != 0 {
		t.Errorf("a sleep session's end asked:\n%s", v)
	}
}

func sleptSession(ago time.Duration) SessionInfo {
	return SessionInfo{ID: "2026-11-22-2300-zzzz", Intention: "sleep", Status: engine.Completed, Phase: engine.Resolution,
		Progress: 1, Length: 30 * time.Minute, Sleep: true, LastActive: testNow.Add(-ago)}
}

// The next time lull opens, it asks once how the last night's sleep
// session went; a skip is remembered and not asked again.
func TestHomeAsksHowYouSleptOnce(t *testing.T) {
	b := &fakeBackend{infos: append(sampleSessions(), sleptSession(8*time.Hour))}
	m := homeModel(t, b.infos, nil)
	m.backend = b
	if m.dialog != dialogSleepMood {
		t.Fatalf("dialog %d: not asked how you slept", m.dialog)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "How did you sleep?") || !strings.Contains(v, "esc") {
		t.Errorf("the question:\n%s", v)
	}
	m, cmd := press(m, "esc")
	m = run(t, m, cmd)
	if got := b.remarks["2026-11-22-2300-zzzz"]; got != (Remark{Asked: true}) {
		t.Errorf("a skip kept %+v", got)
	}
	if m.dialog != dialogNone {
		t.Errorf("asked again in the same lull: dialog %d", m.dialog)
	}
	// A new lull reads it asked.
	again := homeModel(t, b.infos, nil)
	if again.dialog == dialogSleepMood {
		t.Error("a skipped question was asked again")
	}

	// Answered with one key.
	b = &fakeBackend{infos: []SessionInfo{sleptSession(8 * time.Hour)}}
	m = homeModel(t, b.infos, nil)
	m.backend = b
	m, cmd = press(m, "4")
	m = run(t, m, cmd)
	if got := b.remarks["2026-11-22-2300-zzzz"]; got != (Remark{MoodAfter: 4, Asked: true}) {
		t.Errorf("kept %+v", got)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "you slept well (4)") {
		t.Errorf("not said:\n%s", v)
	}

	// Not for a session long past, nor one with a mood already, nor one
	// lull render wrote to a file that nobody played (issue 26).
	unheard := sleptSession(time.Hour)
	unheard.Unheard = true
	for _, in := range []SessionInfo{sleptSession(40 * time.Hour), func() SessionInfo { s := sleptSession(time.Hour); s.MoodAfter = 3; return s }(), unheard} {
		if m := homeModel(t, []SessionInfo{in}, nil); m.dialog == dialogSleepMood {
			t.Errorf("asked about %+v", in)
		}
	}
}

func formModel(t *testing.T, c func(*Choices)) (Model, *fakeBackend) {
	t.Helper()
	b := &fakeBackend{}
	m := New(Options{Backend: choicesBackend{b, c}, Form: true, Now: func() time.Time { return testNow }})
	return sized(m, 80, 24), b
}

// choicesBackend is the fake backend with other choices.
type choicesBackend struct {
	*fakeBackend
	change func(*Choices)
}

func (b choicesBackend) Choices() Choices {
	c := b.fakeBackend.Choices()
	if b.change != nil {
		b.change(&c)
	}
	return c
}

func begin(t *testing.T, m Model, b *fakeBackend) engine.Options {
	t.Helper()
	m, cmd := press(m, "enter")
	m = run(t, m, cmd)
	if len(b.started) != 1 {
		t.Fatalf("started %d sessions", len(b.started))
	}
	if m.run != nil {
		_ = m.run.Close()
	}
	return b.started[0]
}

// The mood field: one digit sets it, ←/→ move, backspace skips; it goes
// to the engine as the mood before.
func TestFormMoodBefore(t *testing.T) {
	m, b := formModel(t, nil)
	m, _ = press(m, "shift+tab", "shift+tab") // Begin, then Mood
	if m.form.focus != fieldMood {
		t.Fatalf("focus %d", m.form.focus)
	}
	m, _ = press(m, "3", "left")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "[2]") || !strings.Contains(v, "how you feel: uneasy") {
		t.Errorf("the form shows:\n%s", v)
	}
	if o := begin(t, m, b); o.MoodBefore != 2 {
		t.Errorf("mood before %d", o.MoodBefore)
	}
	m, b = formModel(t, nil)
	m, _ = press(m, "shift+tab", "shift+tab", "5", "backspace")
	if o := begin(t, m, b); o.MoodBefore != 0 {
		t.Errorf("skipped, the mood before is %d", o.MoodBefore)
	}
}

// A length of one's own is typed on the length field and shown among the
// presets; one out of range is refused, and enter does not begin another.
func TestFormTypesACustomLength(t *testing.T) {
	m, b := formModel(t, nil)
	m, _ = press(m, "2", "5")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "20  [25]  30") {
		t.Errorf("25 is not shown among the presets:\n%s", v)
	}
	if o := begin(t, m, b); o.Length != 25*time.Minute {
		t.Errorf("length %v", o.Length)
	}

	m, b = formModel(t, nil)
	m, _ = press(m, "7", "5")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "75 minutes: a session is 5 to 60 minutes") {
		t.Errorf("75 is not refused:\n%s", v)
	}
	m, _ = press(m, "enter")
	if len(b.started) != 0 || m.screen != screenForm {
		t.Error("enter began a session with a length refused")
	}
	m, _ = press(m, "4", "0")
	if o := begin(t, m, b); o.Length != 40*time.Minute {
		t.Errorf("length %v", o.Length)
	}
}

// The form opens on the last session's choices, a length off the presets
// among them.
func TestFormPreselectsTheLastChoices(t *testing.T) {
	m, b := formModel(t, func(c *Choices) {
		c.Length, c.Voice, c.Soundscape, c.Guide = 25, "none", "none", "builtin"
	})
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"[25]", "[none]", "[builtin]"} {
		if !strings.Contains(v, want) {
			t.Errorf("the form does not show %s:\n%s", want, v)
		}
	}
	o := begin(t, m, b)
	if o.Length != 25*time.Minute || o.Voice != "none" || o.Soundscape != "none" || o.Guide != "builtin" {
		t.Errorf("began with %+v", o)
	}
}

// With an LLM for a guide the form has a model field, the configured model
// its default; a model typed there goes to the run. Without one, tab
// passes it by.
func TestFormModelField(t *testing.T) {
	m, b := formModel(t, nil)
	m, _ = press(m, "tab", "tab", "tab", "tab") // intention, sleep, guide, model
	if m.form.focus != fieldModel {
		t.Fatalf("focus %d", m.form.focus)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Model       gpt-4.1-mini") {
		t.Errorf("the model field:\n%s", v)
	}
	for range len("gpt-4.1-mini") {
		m, _ = press(m, "backspace")
	}
	m, _ = press(m, "o", "4", " ", "q")
	if o := begin(t, m, b); o.Model != "o4q" || o.Guide != "openai" {
		t.Errorf("began with model %q, guide %q", o.Model, o.Guide)
	}

	m, b = formModel(t, nil)
	if o := begin(t, m, b); o.Model != "" {
		t.Errorf("the configured model was passed as a choice: %q", o.Model)
	}
	m, _ = formModel(t, nil)
	m, _ = press(m, "tab", "tab", "tab", "right", "tab") // guide builtin: on to the voice
	if m.form.focus != fieldVoice {
		t.Errorf("with the built-in guide, tab went to field %d", m.form.focus)
	}
	if v := ansi.Strip(m.View().Content); strings.Contains(v, "Model ") {
		t.Errorf("a model field for the built-in guide:\n%s", v)
	}
}

// At 40×12 the form scrolls: every field can be reached and is seen when
// focused, Begin too.
func TestFormScrollsOnASmallTerminal(t *testing.T) {
	m, _ := formModel(t, nil)
	m = sized(m, 40, 12)
	names := map[formField]string{fieldLength: "Length", fieldIntention: "Intention", fieldSleep: "Sleep", fieldGuide: "Guide",
		fieldModel: "Model", fieldVoice: "Voice", fieldSoundscape: "Soundscape", fieldMood: "Mood", fieldBegin: "Begin"}
	seen := map[formField]bool{}
	for range len(names) {
		v := ansi.Strip(m.View().Content)
		if lines := strings.Count(v, "\n") + 1; lines > 12 {
			t.Errorf("%d lines on a 12-line terminal", lines)
		}
		var focused string
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "› ") && !strings.Contains(l, "‹") || strings.Contains(l, "› "+names[m.form.focus]) {
				focused = l
			}
		}
		if !strings.Contains(focused, names[m.form.focus]) {
			t.Errorf("%s is focused but not seen:\n%s", names[m.form.focus], v)
		}
		seen[m.form.focus] = true
		m, _ = press(m, "tab")
	}
	if len(seen) != len(names) {
		t.Errorf("reached %d of %d fields", len(seen), len(names))
	}
	// The voices do not fit in 40 columns: the one chosen is shown.
	m, _ = press(m, "tab", "tab", "tab", "tab", "tab")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "auto › 1 of 3") && !strings.Contains(v, "[auto]") {
		t.Errorf("the chosen voice is not seen:\n%s", v)
	}
}

// Goldens: the form with a mood, and the end screen with mood and note.
func TestGoldenMoodViews(t *testing.T) {
	form, _ := formModel(t, nil)
	form, _ = press(form, "shift+tab", "shift+tab", "2")
	completed := sessionState()
	completed.Status = engine.Completed
	completed.MoodBefore = 2
	completed.Summary = &engine.Summary{Duration: 10*time.Minute + 2*time.Second, Sentences: 71}
	end := sessionModel(completed, 80, 24)
	end.run = finishedRun(t, false, 2) // the keys go to a run
	end, _ = press(end, "4", "tab", "w", "a", "r", "m", " ", "h", "a", "n", "d", "s")
	for _, dark := range []bool{true, false} {
		suffix := "_dark"
		if !dark {
			suffix = "_light"
		}
		golden(t, "form_mood"+suffix, styled(form, dark).View().Content)
		golden(t, "end_mood"+suffix, styled(end, dark).View().Content)
	}
}
