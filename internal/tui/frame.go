package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/human"
)

// Bubble Tea asks for the view after every message, and drawing it is
// most of what the screen costs while a session plays. A clock tick or a
// batch of the run's events that changes nothing on screen (a tick while
// paused, one that lands before the second turns, a phase transition the
// next phase's start shows) leaves the frame drawn before it standing:
// the model is still, and View hands the kept frame back.

// frame is the screen last drawn, shared by the model's copies.
type frame struct {
	face  face
	view  tea.View
	kept  bool
	drawn int // how many times the screen has been drawn

	next face // the face of the model asked for its view, for keep
}

// reuse is the frame drawn last, when the message just handled changed
// nothing on screen.
func (f *frame) reuse(m Model) (tea.View, bool) {
	if f == nil {
		return tea.View{}, false
	}
	f.next = m.face()
	if !m.still || !f.kept || f.face != f.next {
		return tea.View{}, false
	}
	return f.view, true
}

// keep remembers v, just drawn for the model reuse was asked about, as
// what the screen shows.
func (f *frame) keep(v tea.View) {
	if f == nil {
		return
	}
	f.face, f.view, f.kept = f.next, v, true
	f.drawn++
}

// face is what a tick or the run's events can change on screen, as the
// screen shows it: the clocks to the second, the phase bar to the cell.
// Two equal faces over the same messages draw the same screen.
type face struct {
	width, height int
	dark          bool
	screen        screen
	dialog        dialog
	helpAll       bool
	closing       bool
	status        statusLine
	sess          sessionFace
}

type sessionFace struct {
	status, asked      engine.Status
	word               string
	phase              engine.Phase
	elapsed, remaining time.Duration // as the clocks show them
	length             time.Duration
	filled             int // full cells of the current phase's part of the bar
	breath             engine.Breath
	words, current     int // lines ever added, the one being spoken
	started            bool
	sleep, drifting    bool
	drift              time.Duration
	summary            *engine.Summary
	problem, todo      string
	unsaved            string
	switching          bool
	breathNo, breaths  int
}

func (m Model) face() face {
	f := face{
		width: m.width, height: m.height, dark: m.isDark,
		screen: m.screen, dialog: m.dialog, helpAll: m.help.ShowAll, closing: m.closing,
		status: m.status,
	}
	if m.screen == screenSession {
		w, _ := m.contentSize()
		f.sess = m.sess.face(w, m.breathShown())
	}
	return f
}

// face is the session screen's, width cells wide, breath says whether it
// draws the breath.
func (v sessionView) face(width int, breath bool) sessionFace {
	p := v.progress
	f := sessionFace{
		status: v.status, asked: v.asked, word: v.statusWord(), phase: p.Phase,
		elapsed: human.Shown(p.Elapsed), remaining: human.Shown(max(p.Length-p.Elapsed, 0)), length: p.Length,
		words: v.words.added, current: v.words.current, started: v.started,
		sleep: v.sleep, drifting: v.drifting, drift: v.drift, summary: v.summary,
		problem: v.problem, todo: v.todo, unsaved: v.unsaved, switching: v.switching,
		breathNo: v.breathe.breath, breaths: v.breathe.breaths,
	}
	if segs := v.phaseBar().segments(width); int(p.Phase) >= 0 && int(p.Phase) < len(segs) {
		f.filled = segs[p.Phase].filled
	}
	if breath {
		f.breath = *p.Breath
	}
	return f
}

// breathShown reports whether the session screen draws the breath: the
// screen is measured only when there is a breath to draw.
func (m Model) breathShown() bool {
	if m.sess.progress.Breath == nil {
		return false
	}
	return m.sess.showsBreath(m.sessionHeight())
}

// sessionHeight is the rows the session screen has above the footer.
func (m Model) sessionHeight() int {
	w, _ := m.contentSize()
	return max(m.bodyHeight(m.footer(w)), 1)
}
