package cli

import (
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/lull-dev/lull/internal/human"

	tea "charm.land/bubbletea/v2"

	"github.com/lull-dev/lull/internal/app"
	"github.com/lull-dev/lull/internal/audio"
	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/guide"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/practice"
	"github.com/lull-dev/lull/internal/prompts"
	"github.com/lull-dev/lull/internal/sessions"
	"github.com/lull-dev/lull/internal/tui"
)

// onScreen opens the run start begins and hands it to the TUI, with
// notices to say first.
func (c *cli) onScreen(env *environment, start func() (*app.Run, error), notices ...string) error {
	r, err := start()
	if err != nil {
		return err
	}
	return c.runTUI(env, tui.Options{Run: r, Notices: notices})
}

// runTUI hands the terminal to the TUI. While it owns the screen, stderr
// goes to the log so nothing (ALSA, cgo) scribbles over it.
func (c *cli) runTUI(env *environment, o tui.Options) error {
	o.Backend = backend{app: env.app}
	o.Crisis = prompts.Crisis
	_, o.NoColor = os.LookupEnv("NO_COLOR")
	o.TimeScale, _ = timeScale() // open has refused a bad one already
	if jobControl() {
		o.Suspend = stopJob
	}
	restore := redirectStderr(env.logf)
	// Twenty frames a second: the breath animation needs ten, typing feels
	// instant, and an idle screen wakes a third as often as the default.
	// lull handles signals itself: Bubble Tea's handler would make SIGINT
	// an error and leave SIGHUP to kill lull with the session unsaved.
	p := tea.NewProgram(tui.New(o), tea.WithFPS(20), tea.WithoutSignalHandler())
	ends := watchEnding(func(first bool) {
		if first {
			go p.Quit() // the screen ends as q ends it: restored, then saved below
		} else {
			go p.Kill() // asked twice: do not wait for the screen
		}
	})
	stopForwarding := forwardStops(p)
	final, err := p.Run()
	stopForwarding()
	restore()
	m, _ := final.(tui.Model)
	open := m.Session()
	// Whatever the TUI left open is paused and saved before lull exits;
	// what could not be saved is said now the screen is gone.
	closeErr := errors.Join(m.Unsaved(), m.Close())
	ends.stop()
	if sig, ok := ends.Signal(); ok {
		// The signal says how the screen ended; a dead terminal's read
		// error says nothing more.
		if closeErr != nil {
			return &exitError{code: exitCode(sig), err: closeErr}
		}
		if open != nil {
			if note := stoppedNote(open.Snapshot()); note != "" {
				fprint(c.stderr, note+"\n")
			}
		}
		return &exitError{code: exitCode(sig)}
	}
	if err != nil {
		return fmt.Errorf("the screen failed: %w (try %s)", errors.Join(err, closeErr), human.Command("new --no-tui"))
	}
	if closeErr == nil {
		c.resumeHint(m, open)
	}
	return closeErr
}

// resumeHint says, once the screen has let go of the terminal, how to
// resume the session lull leaves paused: the one still open, or the one
// the screen last let go of.
func (c *cli) resumeHint(m tui.Model, open tui.Run) {
	st, ok := m.Left()
	if open != nil {
		st, ok = open.Snapshot(), true
	}
	if !ok {
		return
	}
	if note := stoppedNote(st); note != "" {
		fprint(c.stderr, note+"\n")
	}
}

// backend adapts the app to what the TUI asks.
type backend struct{ app *app.App }

func (b backend) List() ([]tui.SessionInfo, []tui.Problem) {
	list, problems := b.app.List()
	infos := make([]tui.SessionInfo, len(list))
	for i, s := range list {
		infos[i] = tui.SessionInfo{
			ID: s.ID, Intention: s.Intention, Status: s.Status, Phase: s.Phase, Progress: s.Progress, Partial: s.Partial,
			Length: s.Length, Created: s.Created, LastActive: s.LastActive, Open: s.Open, Holder: s.Holder,
			Sleep: s.Sleep, MoodAfter: s.MoodAfter, MoodAsked: s.MoodAsked, Unheard: s.Rendered > 0 && !practice.Counts(s.Info),
			ReplayOf: s.ReplayOf, ResumesOn: b.app.ResumesOn(s.Info), Newer: s.Newer,
		}
		infos[i].Practice, infos[i].Stage = s.Practice, s.Stage()
	}
	var out []tui.Problem
	for _, p := range problems {
		pr := tui.Problem{Text: p.Error()}
		var unreadable *sessions.UnreadableError
		if errors.As(p, &unreadable) {
			pr.ID = unreadable.ID
		}
		out = append(out, pr)
	}
	return infos, out
}

func (b backend) Salvage(id string) (tui.Salvaged, error) {
	sv, from, err := b.app.Salvage(id)
	if err != nil {
		return tui.Salvaged{}, err
	}
	out := tui.Salvaged{ID: id, From: from}
	for _, f := range sv.Files {
		line := fmt.Sprintf("%s, %d bytes", f.Name, f.Size)
		if f.Problem != "" {
			line += ": " + f.Problem
		}
		out.Found = append(out.Found, line)
	}
	if shows := sv.Transcript.Shows(); shows != "" {
		out.Found = append(out.Found, "The transcript shows "+shows+".")
	}
	return out, nil
}

func (b backend) Restore(id string, at engine.Phase) (tui.Run, error) {
	r, err := b.app.Restore(id, at)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (b backend) Delete(id string) error {
	notes, err := b.app.Delete(id)
	for _, n := range notes {
		b.app.Logger().Warn(n, "session", id)
	}
	return err
}

func (b backend) Summarize(id string) (engine.Summary, error) {
	st, notes, err := b.app.Summarize(id)
	b.logNotes(id, notes)
	if err != nil || st.Summary == nil {
		return engine.Summary{}, err
	}
	return *st.Summary, nil
}

func (b backend) Discard(id string) error {
	_, notes, err := b.app.Discard(id)
	b.logNotes(id, notes)
	return err
}

func (b backend) CleanUp(ids []string) (int, error) {
	var errs []error
	done := 0
	for _, id := range ids {
		_, notes, err := b.app.CleanUp(id)
		b.logNotes(id, notes)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		done++
	}
	return done, errors.Join(errs...)
}

// logNotes keeps what the TUI has no room to say: the session is still
// ended, and the log says what loading found or what was not forgotten.
func (b backend) logNotes(id string, notes []string) {
	for _, n := range notes {
		b.app.Logger().Warn(n, "session", id)
	}
}

func (b backend) Start(o engine.Options) (tui.Run, error) {
	r, err := b.app.Start(o)
	if err != nil {
		return nil, err // never a typed nil inside the interface
	}
	return r, nil
}

func (b backend) Resume(id string) (tui.Run, error) {
	r, err := b.app.Resume(id)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (b backend) Models() (string, []string) {
	model := b.app.Guide().LLM.Model
	if model == "" {
		model = llm.DefaultModel
	}
	return model, b.app.ProviderNames()
}

func (b backend) Choices() tui.Choices {
	cfg := b.app.Config()
	// Only the voices this machine has, so no choice on the form is a
	// dead end; a configured voice that went missing stays, so the form
	// shows what the config says.
	voices := []string{"auto"}
	for _, v := range audio.DescribeVoices(b.app.Voices()) {
		if v.Available || v.Name == cfg.Voice {
			voices = append(voices, v.Name)
		}
	}
	voices = append(voices, "none")
	g := b.app.Guide()
	guides := []string{engine.GuideBuiltin}
	if b.app.LLMReady() {
		guides = []string{engine.GuideOpenAI, engine.GuideBuiltin}
	}
	model, providers := b.Models()
	c := tui.Choices{
		Lengths: app.Lengths, Length: cfg.Length,
		Voices: voices, Voice: cfg.Voice,
		Soundscapes: app.Soundscapes, Soundscape: cfg.Soundscape,
		Guides: guides, Guide: g.Guide, Model: model, Providers: providers,
		SleepTail: cfg.Sleep.Tail(), ProposesSleep: guide.ProposesSleep,
	}
	lastChoices(&c, b.app)
	return c
}

// lastChoices makes the latest session's length, voice, soundscape and
// guide the form's defaults, where the form still offers them; with no
// session yet, the config's stay.
func lastChoices(c *tui.Choices, a *app.App) {
	last, ok := a.Latest()
	if !ok {
		return
	}
	if m := int(last.Length.Minutes()); engine.CheckLength(last.Length) == nil {
		c.Length = m // among the presets or not: the form shows it
	}
	if slices.Contains(c.Voices, last.Voice) {
		c.Voice = last.Voice
	}
	if slices.Contains(c.Soundscapes, last.Soundscape) {
		c.Soundscape = last.Soundscape
	}
	if slices.Contains(c.Guides, last.Guide) {
		c.Guide = last.Guide
	}
}

func (b backend) Remark(id string, r tui.Remark) error {
	sr := sessions.Remark{MoodAfter: r.MoodAfter, Asked: r.Asked}
	if r.Note != "" {
		sr.Note = &r.Note
	}
	_, err := b.app.Remark(id, sr)
	return err
}
