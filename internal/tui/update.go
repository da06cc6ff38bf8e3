package tui

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/crisis"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// Messages from commands. Those about a run carry its generation.
type (
	sessionsMsg struct {
		infos    []SessionInfo
		problems []Problem
	}
	runStartedMsg struct {
		run Run
		err error
	}
	eventsMsg struct {
		gen    int
		events []engine.Event
		err    error
	}
	tickMsg   struct{ gen, seq int }
	actionMsg struct {
		gen int
		err error
	}
	// endedMsg says a sleep session's run has stopped: its words and the
	// sound after them are over.
	endedMsg struct{ gen int }
	// closedMsg says a run has been paused, saved and let go of.
	closedMsg struct {
		id   string
		err  error
		quit bool // then leave lull; otherwise go back to the list

		// st is the session as it was let go of.
		st engine.State
	}
	deletedMsg struct{ err error }
	noticesMsg []string
	// unsavedMsg is whether the run's last save reached the disk.
	unsavedMsg struct {
		gen int
		err error
	}
	// stoppedMsg is why the guide stopped the run, in plain words.
	stoppedMsg struct {
		gen      int
		what, do string
	}
)

func (m Model) loadSessions() tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		infos, problems := b.List()
		return sessionsMsg{infos: infos, problems: problems}
	}
}

// follow waits for the run's next events (bubbletea's realtime pattern):
// re-armed after each batch.
func (m Model) follow() tea.Cmd {
	sub, ctx, gen := m.sub, m.followCtx, m.gen
	return func() tea.Msg {
		evs, err := sub.Next(ctx)
		return eventsMsg{gen: gen, events: evs, err: err}
	}
}

// tick arms the screen's next look at the session's clock (nextTick).
func (m *Model) tick() tea.Cmd {
	gen, seq, every := m.gen, m.tickSeq, m.nextTick()
	m.idling = every == idleTick
	return tea.Tick(every, func(time.Time) tea.Msg { return tickMsg{gen: gen, seq: seq} })
}

// wake starts the ticks again at once when the session moves again
// after the slow ticks of a pause (or of its start): the ticks armed
// before are dropped.
func (m *Model) wake(wasRunning bool) tea.Cmd {
	if m.sess.status != engine.Running || (wasRunning && !m.idling) {
		return nil
	}
	m.tickSeq++
	return m.tick()
}

// showNotices reads the run's notices for the status line.
func (m Model) showNotices() tea.Cmd {
	r, notes := m.run, m.notes
	return func() tea.Msg { return noticesMsg(append(slices.Clip(notes), r.Notices()...)) }
}

// checkSaved asks, off the UI goroutine, whether the run's last save
// reached the disk, and if not, what the disk holds.
func (m Model) checkSaved() tea.Cmd {
	r, gen := m.run, m.gen
	return func() tea.Msg { return unsavedMsg{gen: gen, err: r.Unsaved()} }
}

// stopped asks, off the UI goroutine, why the guide stopped the run.
func (m Model) stopped() tea.Cmd {
	r, gen := m.run, m.gen
	return func() tea.Msg {
		what, do := r.Stopped()
		return stoppedMsg{gen: gen, what: what, do: do}
	}
}

// act runs one of the engine's controls off the UI goroutine: each saves.
func (m Model) act(f func() error) tea.Cmd {
	gen := m.gen
	return func() tea.Msg { return actionMsg{gen: gen, err: f()} }
}

// closeRun pauses, saves and lets go of the run, then quits or goes home.
func (m *Model) closeRun(quit bool) tea.Cmd {
	if m.run == nil {
		if quit {
			return tea.Quit
		}
		return nil
	}
	if m.closing {
		return nil
	}
	m.closing = true
	r := m.run
	var cmd tea.Cmd
	if !m.sess.status.Finished() { // a finished session was saved as it finished
		cmd = m.status.set("Saving…", levelInfo, 0)
	}
	return tea.Batch(cmd, func() tea.Msg {
		err := r.Close()
		return closedMsg{id: r.ID(), err: err, quit: quit, st: r.Snapshot()}
	})
}

// awaitEnd waits for a sleep session's run to stop — its sound after the
// words ended, or stopped — to let lull go quietly.
func (m Model) awaitEnd() tea.Cmd {
	r, ctx, gen := m.run, m.followCtx, m.gen
	return func() tea.Msg {
		select {
		case <-r.Done():
			return endedMsg{gen: gen}
		case <-ctx.Done():
			return nil
		}
	}
}

func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.still = false // until a tick or the run's events show they changed nothing (frame.go)
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.BackgroundColorMsg:
		m.restyle(msg.IsDark())
		return m, nil
	case statusTimeoutMsg:
		m.status.timeout(msg)
		return m, nil
	case noticesMsg:
		if len(msg) == 0 {
			return m, nil
		}
		return m, m.status.set(strings.Join(msg, " · "), levelWarn, 10*time.Second)
	case sessionsMsg:
		msg.infos, msg.problems = printableSessions(msg.infos, msg.problems)
		cmd := m.home.SetSessions(msg.infos, msg.problems)
		m.offerRecovery(msg.infos)
		m.askSleep(msg.infos)
		return m, tea.Batch(cmd, m.loadPractice())
	case formChoicesMsg:
		if m.screen != screenHome || m.dialog != dialogNone {
			return m, nil // the listener went elsewhere meanwhile
		}
		m.openFormWith(msg.c)
		return m, m.form.setFocus(fieldLength)
	case practiceMsg:
		m.stats.SetReport(msg.report)
		m.home.SetPractice(PracticeLine(msg.report))
		return m, nil
	case recoveredMsg:
		return m.onRecovered(msg)
	case salvagedMsg:
		return m.onSalvaged(msg)
	case runStartedMsg:
		if errors.As(msg.err, new(*crisis.Error)) && m.crisis != "" {
			m.dialog = dialogCrisis
			return m, m.status.set("", levelInfo, 0)
		}
		if msg.err != nil {
			cmd := m.status.set(friendly(msg.err), levelError, 10*time.Second)
			if len(m.recovery.offers) > 0 || m.recovery.askStale {
				cmd = tea.Batch(cmd, m.loadSessions()) // on to the next offer
			}
			return m, cmd
		}
		m.notes = nil // they were about the run lull opened on
		m.attach(msg.run)
		cmd := tea.Batch(m.follow(), m.tick(), m.showNotices(), m.readSound()) // before m is returned: tick marks it
		return m, cmd
	case eventsMsg:
		return m.onEvents(msg)
	case endedMsg:
		if msg.gen != m.gen || m.run == nil {
			return m, nil
		}
		// The listener is asleep: lull leaves without a word, the
		// session complete.
		return m, m.closeRun(true)
	case tickMsg:
		if msg.gen != m.gen || msg.seq != m.tickSeq || m.run == nil || m.closing {
			m.still = true // dropped: nothing changed
			return m, nil
		}
		before := m.face()
		m.sess.setProgress(m.run.Progress())
		m.still = m.face() == before
		cmd := m.tick()
		return m, cmd
	case soundMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.sess.sound = msg.now
		if msg.text == "" {
			return m, nil
		}
		return m, m.status.set(msg.text, levelInfo, 3*time.Second)
	case actionMsg:
		if msg.gen == m.gen && msg.err != nil {
			m.sess.unask() // the engine's word stands
			return m, m.status.set(friendly(msg.err), levelError, 6*time.Second)
		}
		return m, nil
	case StopMsg:
		return m.stop()
	case resumedMsg:
		return m.onResumed(msg)
	case closedMsg:
		return m.onClosed(msg)
	case stoppedMsg:
		if msg.gen == m.gen && m.run != nil && m.sess.status == engine.Interrupted {
			m.sess.problem, m.sess.todo = human.Line(msg.what), human.Line(msg.do)
		}
		return m, nil
	case unsavedMsg:
		if msg.gen == m.gen && m.run != nil {
			m.sess.unsaved = ""
			if msg.err != nil {
				m.sess.unsaved = human.Lines(msg.err.Error())
			}
		}
		return m, nil
	case remarkedMsg:
		return m.onRemarked(msg)
	case rereadMsg:
		return m.onReread(msg)
	case deletedMsg:
		var cmd tea.Cmd
		if msg.err != nil {
			cmd = m.status.set(friendly(msg.err), levelError, 8*time.Second)
		} else {
			cmd = m.status.set("Deleted.", levelInfo, 3*time.Second)
		}
		return m, tea.Batch(cmd, m.loadSessions())
	case tea.KeyPressMsg:
		return m.onKey(msg)
	}
	// Everything else (cursor blinks, filter matches) goes to the screen's
	// components.
	switch m.screen {
	case screenHome:
		return m, m.home.Update(msg)
	case screenForm:
		_, cmd := m.form.Update(msg, m.keys)
		return m, cmd
	case screenSession:
		if m.sess.asksAfter() && m.sess.end.typing { // the note's cursor, a paste
			var cmd tea.Cmd
			m.sess.end.note, cmd = m.sess.end.note.Update(msg)
			return m, cmd
		}
	case screenReread:
		return m, m.reread.Update(msg)
	}
	return m, nil
}

func (m Model) onEvents(msg eventsMsg) (tea.Model, tea.Cmd) {
	if msg.gen != m.gen || m.run == nil {
		return m, nil // from a run this view has let go of
	}
	if msg.err != nil {
		return m, nil // the follow context ended
	}
	before, wasRunning, resynced := m.face(), m.sess.status == engine.Running, false
	var cmds []tea.Cmd
	check := false // whether saving may have begun or stopped failing
	for _, ev := range msg.events {
		switch ev.Kind {
		case engine.EventResync:
			m.sess.resync(m.run.Snapshot())
			check, resynced = true, true
			continue
		case engine.EventError:
			if !GuideFailed(ev) { // said plainly on the interrupted screen, or by the notice of the guide that carries on
				cmds = append(cmds, m.status.set(ev.Text, levelError, 12*time.Second))
			}
			check = true
		case engine.EventStatus:
			if ev.Status == engine.Interrupted {
				cmds = append(cmds, m.stopped())
			}
		case engine.EventNotice:
			cmds = append(cmds, m.status.set(ev.Text, levelWarn, 8*time.Second), m.readSound()) // a voice that failed hands over to the next, and says so
			check = true
		case engine.EventCompleted:
			m.sess.summary = m.run.Snapshot().Summary
			check = true
			if m.sess.sleep {
				cmds = append(cmds, m.awaitEnd())
			}
		}
		m.sess.apply(ev)
	}
	if check {
		// The screen says saved only if it was: a save that begins to
		// fail, or works again, after this comes with its own event.
		cmds = append(cmds, m.checkSaved())
	}
	m.sess.setProgress(m.run.Progress())
	m.still = !resynced && m.face() == before
	cmds = append(cmds, m.follow(), m.wake(wasRunning))
	return m, tea.Batch(cmds...)
}

func (m Model) onClosed(msg closedMsg) (tea.Model, tea.Cmd) {
	m.closing = false
	if m.runCancel != nil {
		m.runCancel()
	}
	if m.sub != nil {
		m.sub.Close()
	}
	m.run, m.sub, m.runCancel = nil, nil, nil
	m.gen++
	var cmd tea.Cmd
	// A new map, not the one earlier copies of the model share; a later
	// close of the same session says how it stands now.
	m.unsaved = maps.Clone(m.unsaved)
	if m.unsaved == nil {
		m.unsaved = map[string]error{}
	}
	delete(m.unsaved, msg.id)
	m.remember(msg)
	if msg.err != nil {
		// The error says what was not saved; its first line fits the
		// status line, and all of it is said again as lull exits.
		m.unsaved[msg.id] = msg.err
		first, _, _ := strings.Cut(friendly(msg.err), "\n")
		cmd = m.status.set(first, levelError, 0)
		if msg.quit {
			// Say it on screen rather than vanish with the error.
			m.setState(screenHome)
			return m, tea.Batch(cmd, m.loadSessions())
		}
	} else {
		cmd = m.status.set("", levelInfo, 0)
		if at := StoppedAt(msg.st); at != "" && !msg.quit {
			m.home.reselect = msg.id
			cmd = m.status.set(at+". Enter resumes it.", levelInfo, 10*time.Second)
		}
	}
	if msg.quit {
		return m, tea.Quit
	}
	m.direct = false
	if msg.st.ID != "" {
		// The list on screen was read before the run: until it is read
		// again, its row says how the run left the session, not "left
		// running" for one this lull has just paused.
		m.home.settle(msg.st)
	}
	m.setState(screenHome)
	return m, tea.Batch(cmd, m.loadSessions())
}

func (m Model) onKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.keys.Force) {
		// ctrl+c still saves: nothing is ever lost.
		cmd := m.closeRun(true)
		return m, cmd
	}
	if key.Matches(msg, m.keys.Suspend) {
		return m.stop()
	}
	if m.dialog != dialogNone {
		return m.onDialogKey(msg)
	}
	switch m.screen {
	case screenForm:
		return m.onFormKey(msg)
	case screenSession:
		return m.onSessionKey(msg)
	case screenStats:
		return m.onStatsKey(msg)
	case screenReread:
		return m.onRereadKey(msg)
	default:
		return m.onHomeKey(msg)
	}
}

func (m Model) onHomeKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.home.Filtering() {
		return m, m.home.Update(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m, tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
		return m, nil
	case key.Matches(msg, m.keys.Look):
		return m, m.lookAtUnreadable()
	case key.Matches(msg, m.keys.Stats):
		m.setState(screenStats)
		return m, m.loadPractice()
	case key.Matches(msg, m.keys.New):
		return m, m.askFormChoices()
	case key.Matches(msg, m.keys.Open):
		info, ok := m.home.Selected()
		if !ok {
			return m, nil
		}
		if info.Status.Finished() {
			return m, m.openReread(info.ID)
		}
		b, id := m.backend, info.ID
		return m, m.starting("Opening…", func() (Run, error) { return b.Resume(id) })
	case key.Matches(msg, m.keys.Replay):
		if info, ok := m.home.Selected(); ok {
			cmd := m.replay(info)
			return m, cmd
		}
		return m, nil
	case key.Matches(msg, m.keys.Delete):
		if info, ok := m.home.Selected(); ok {
			m.dialog = dialogDelete
			m.target = info.ID
		}
		return m, nil
	}
	return m, m.home.Update(msg)
}

func (m Model) onFormKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	res, cmd := m.form.Update(msg, m.keys)
	switch res {
	case editBack:
		if m.direct {
			return m, tea.Quit
		}
		m.setState(screenHome)
		return m, m.loadSessions()
	case editSubmit:
		b, opts := m.backend, m.form.Options()
		return m, m.starting("Beginning…", func() (Run, error) { return b.Start(opts) })
	}
	return m, cmd
}

func (m Model) onSessionKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.run == nil || m.closing {
		return m, nil
	}
	if m.sess.asksAfter() {
		return m.onEndKey(msg)
	}
	finished := m.sess.status.Finished()
	if m.sess.switching {
		return m.onSwitchKey(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m, m.closeRun(true)
	case finished && (key.Matches(msg, m.keys.Open) || key.Matches(msg, m.keys.Leave)):
		return m, m.closeRun(false) // to the sessions, as the key help says, after lull new too
	case finished:
		return m, nil
	case m.sess.status == engine.Interrupted && key.Matches(msg, m.keys.Retry):
		m.sess.problem = ""
		return m, tea.Batch(m.status.set("Trying the guide again…", levelInfo, 4*time.Second), m.act(m.run.Retry))
	case m.sess.status == engine.Interrupted && key.Matches(msg, m.keys.Switch):
		return m.openSwitch()
	case m.sess.status == engine.Interrupted && key.Matches(msg, m.keys.Builtin):
		m.sess.problem = ""
		return m, tea.Batch(m.status.set("Carrying on with the built-in guide.", levelInfo, 4*time.Second), m.act(m.run.ContinueBuiltin))
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
		return m, nil
	case m.sess.sitting && key.Matches(msg, m.keys.End):
		return m, m.act(m.run.End)
	case key.Matches(msg, m.keys.Pause):
		r := m.run
		switch m.sess.status {
		case engine.Running:
			m.sess.ask(engine.Paused) // shown at once; the engine confirms
			return m, m.act(r.Pause)
		case engine.Paused:
			m.sess.ask(engine.Running)
			return m, m.act(r.Resume)
		}
		return m, nil
	case key.Matches(msg, m.keys.Cancel):
		m.dialog = dialogCancel
		m.target = m.run.ID()
		// The session waits while the listener decides, and goes on
		// after a "no" only if it was playing.
		m.cancelPaused = m.sess.status == engine.Running
		if m.cancelPaused {
			m.sess.ask(engine.Paused)
			return m, m.act(m.run.Pause)
		}
		return m, nil
	case key.Matches(msg, m.keys.Louder):
		return m, m.sound(func(r Run) string { return volumeWords(r.Louder()) })
	case key.Matches(msg, m.keys.Softer):
		return m, m.sound(func(r Run) string { return volumeWords(r.Softer()) })
	case key.Matches(msg, m.keys.Slower):
		return m, m.sound(func(r Run) string { return engine.VoiceRateWords(r.Slower()) })
	case key.Matches(msg, m.keys.Faster):
		return m, m.sound(func(r Run) string { return engine.VoiceRateWords(r.Faster()) })
	case key.Matches(msg, m.keys.SoundscapeSofter):
		return m, m.sound(func(r Run) string { return engine.SoundscapeWords(r.SoundscapeSofter()) })
	case key.Matches(msg, m.keys.SoundscapeLouder):
		return m, m.sound(func(r Run) string { return engine.SoundscapeWords(r.SoundscapeLouder()) })
	case key.Matches(msg, m.keys.Voice):
		return m, m.sound(func(r Run) string {
			if r.ToggleVoice() {
				return "Voice on."
			}
			return "Voice off: the words go on, on screen."
		})
	case key.Matches(msg, m.keys.Soundscape):
		return m, m.sound(func(r Run) string { return "Soundscape: " + r.NextSoundscape() + "." })
	case key.Matches(msg, m.keys.Leave):
		// Paused and saved, to the sessions, as the key help says: after
		// lull new and lull resume too (q is the way out to the shell).
		return m, m.closeRun(false)
	}
	return m, nil
}

func (m Model) onDialogKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.dialog == dialogCrisis {
		// On a short screen ↑/↓ read on; any other key goes back.
		if by, ok := map[string]int{"up": -1, "k": -1, "down": 1, "j": 1, "pgup": -5, "pgdown": 5}[msg.String()]; ok {
			m.scrollCrisis(by)
			return m, nil
		}
		m.dialog, m.crisisTop = dialogNone, 0
		return m, nil
	}
	if m.dialog == dialogSalvage {
		return m.onSalvageKey(msg)
	}
	if m.dialog == dialogSleepMood {
		return m.onSleepMoodKey(msg)
	}
	if m.dialog == dialogLeftRunning || m.dialog == dialogStale {
		return m.onRecoveryKey(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Yes):
		d := m.dialog
		m.dialog = dialogNone
		switch d {
		case dialogDelete:
			b, id := m.backend, m.target
			if m.left.ID == id {
				m.left = engine.State{} // nothing to resume once it is gone
			}
			return m, func() tea.Msg { return deletedMsg{err: b.Delete(id)} }
		case dialogCancel:
			r := m.run
			if r == nil {
				return m, nil
			}
			m.closing = true
			return m, func() tea.Msg {
				err := r.Abandon()
				if cerr := r.Close(); err == nil {
					err = cerr
				}
				return closedMsg{id: r.ID(), err: err, st: r.Snapshot()}
			}
		}
	case key.Matches(msg, m.keys.No):
		d := m.dialog
		m.dialog = dialogNone
		if d == dialogCancel && m.cancelPaused && m.run != nil && m.sess.status == engine.Paused {
			m.cancelPaused = false
			m.sess.ask(engine.Running)
			return m, m.act(m.run.Resume)
		}
	}
	return m, nil
}

// volumeWords says a volume level as the listener hears it.
func volumeWords(level int) string { return engine.VolumeWords(level) }

// friendly is an error as the listener should read it.
func friendly(err error) string {
	var terr *engine.TransitionError
	if errors.As(err, &terr) {
		return "Not now: " + terr.Error() + "."
	}
	return err.Error()
}
