package tui

import (
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// clockRun is a session whose clock runs on the test's clock: from at
// when it starts, moving in steps of step (the speaker's buffer; 0 moves
// smoothly), in phase, with the breath drawn when breathing.
type clockRun struct {
	*scriptedRun
	mu     sync.Mutex
	from   time.Time
	at     time.Duration
	step   time.Duration
	phase  engine.Phase
	paused bool
}

func newClockRun(t *testing.T, phase engine.Phase, at, step time.Duration) *clockRun {
	return &clockRun{scriptedRun: newScriptedRun(t), from: time.Now(), at: at, step: step, phase: phase}
}

func (r *clockRun) Progress() engine.Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := engine.Progress{Status: engine.Running, Phase: r.phase, Elapsed: r.at, Length: 10 * time.Minute,
		PhaseElapsed: r.at / 2, PhaseTarget: 2 * r.at}
	if r.paused {
		p.Status = engine.Paused
		return p
	}
	moved := time.Since(r.from)
	if r.step > 0 {
		moved = moved.Truncate(r.step)
	}
	p.Elapsed += moved
	p.PhaseElapsed += moved
	if r.phase == engine.Breathing {
		b := engine.DefaultBreath.At(moved)
		p.Breath = &b
	}
	return p
}

func (r *clockRun) Snapshot() engine.State {
	st := r.scriptedRun.Snapshot()
	st.Status, st.Phase = r.Progress().Status, r.phase
	return st
}

// pause stops the clock where it is; resume starts it again from there.
func (r *clockRun) pause() {
	p := r.Progress()
	r.mu.Lock()
	r.at, r.paused = p.Elapsed, true
	r.mu.Unlock()
}

func (r *clockRun) resume() {
	r.mu.Lock()
	r.from, r.paused = time.Now(), false
	r.mu.Unlock()
}

// played is what the screen did over a span of the session: the ticks it
// handled, the times it drew itself, and the clock it showed after each
// tick.
type played struct {
	ticks, draws int
	changes      int // ticks after which the screen differed from the one before
	clocks       []time.Duration
}

// play drives the model as Bubble Tea does — each tick handled, then the
// view asked for — for span on the test's clock, starting with the tick
// cmd. Every view handed back, drawn or kept, must be the screen as it is.
func play(t *testing.T, m Model, cmd tea.Cmd, span time.Duration) (Model, tea.Cmd, played) {
	t.Helper()
	var out played
	last := m.View().Content
	drawn := m.frame.drawn
	end := time.Now().Add(span)
	for time.Now().Before(end) {
		if cmd == nil {
			t.Fatal("the screen stopped ticking")
		}
		msg := cmd() // waits on the test's clock
		if _, ok := msg.(tickMsg); !ok {
			t.Fatalf("a tick cmd gave %T", msg)
		}
		next, c := m.Update(msg)
		m, cmd = next.(Model), c
		out.ticks++
		got := m.View().Content
		fresh := m
		fresh.frame = nil // drawn anew, nothing kept
		if want := fresh.View().Content; got != want {
			t.Fatalf("after a tick the screen kept a stale frame:\n%s\nwant:\n%s", ansi.Strip(got), ansi.Strip(want))
		}
		out.clocks = append(out.clocks, clockOf(t, got))
		if got != last {
			out.changes++
		}
		last = got
	}
	out.draws = m.frame.drawn - drawn
	return m, cmd, out
}

// clockOf reads the elapsed clock off a screen.
func clockOf(t *testing.T, content string) time.Duration {
	t.Helper()
	c := shownElapsed.FindStringSubmatch(ansi.Strip(content))
	if c == nil {
		t.Fatalf("no clock on the screen:\n%s", ansi.Strip(content))
	}
	m, s, _ := strings.Cut(c[1], ":")
	d, err := time.ParseDuration(m + "m" + s + "s")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// seconds checks that the clocks shown go up a second at a time, none
// skipped, and says how many times the clock turned.
func seconds(t *testing.T, clocks []time.Duration) (turns int) {
	t.Helper()
	for i := 1; i < len(clocks); i++ {
		switch d := clocks[i] - clocks[i-1]; d {
		case 0:
		case time.Second:
			turns++
		default:
			t.Fatalf("the clock went from %v to %v (shown: %v)", clocks[i-1], clocks[i], clocks)
		}
	}
	return turns
}

func clockModel(r Run, w, h int) (Model, tea.Cmd) {
	m := sized(New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }}), w, h)
	m.sess.started = true
	m.View()
	return m, m.tick()
}

// A minute of a session playing in the atmosphere phase: only the clock
// changes, once a second, so the screen ticks and draws itself once a
// second, each time showing the next second — none skipped, none shown
// twice — not four times a second.
func TestPlayingMinuteDrawsOncePerSecond(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newClockRun(t, engine.Atmosphere, 2*time.Minute+3270*time.Millisecond, 0)
		m, cmd := clockModel(r, 80, 24)
		_, _, got := play(t, m, cmd, time.Minute)
		if got.ticks < 59 || got.ticks > 61 {
			t.Errorf("%d ticks in a minute, want 60", got.ticks)
		}
		if turns := seconds(t, got.clocks); turns != got.ticks-1 {
			t.Errorf("the clock turned %d times in %d ticks: each tick should show the next second (%v)", turns, got.ticks, got.clocks)
		}
		if got.draws != got.ticks {
			t.Errorf("%d draws in %d ticks, want one a tick", got.draws, got.ticks)
		}
	})
}

// The engine's clock moves in the speaker's steps (a tenth of a second):
// a tick that lands before the second has turned draws nothing, and the
// clock still shows every second, once.
func TestSteppedClockStillShowsEverySecond(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newClockRun(t, engine.Atmosphere, 47*time.Second+30*time.Millisecond, 100*time.Millisecond)
		m, cmd := clockModel(r, 80, 24)
		_, _, got := play(t, m, cmd, time.Minute)
		turns := seconds(t, got.clocks)
		if turns < 58 || turns > 61 {
			t.Errorf("the clock turned %d times in a minute", turns)
		}
		if got.draws != got.changes {
			t.Errorf("%d draws for %d changes on screen: a tick that changes nothing must not draw", got.draws, got.changes)
		}
		if got.ticks > 2*turns+2 {
			t.Errorf("%d ticks for %d turns of the clock", got.ticks, turns)
		}
	})
}

// While the breath is drawn and moves, the screen runs at the animation's
// rate; in a terminal too small to draw it, only the clock moves.
func TestBreathAnimatesOnlyWhenDrawn(t *testing.T) {
	for _, c := range []struct {
		name       string
		height     int
		ticks      [2]int
		drawsTicks bool
	}{
		{"drawn", 24, [2]int{590, 601}, true},
		{"no room for it", 12, [2]int{59, 61}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newClockRun(t, engine.Breathing, 90*time.Second, 0)
				m, cmd := clockModel(r, 80, c.height)
				_, _, got := play(t, m, cmd, time.Minute)
				if got.ticks < c.ticks[0] || got.ticks > c.ticks[1] {
					t.Errorf("%d ticks in a minute, want %d–%d", got.ticks, c.ticks[0], c.ticks[1])
				}
				seconds(t, got.clocks)
				if got.draws < got.ticks-1 {
					t.Errorf("%d draws in %d ticks: the animation should move every tick", got.draws, got.ticks)
				}
			})
		})
	}
}

// A paused session looks at its clock seldom and draws nothing while
// nothing changes; resumed, its ticks start again at once, and the slow
// ticks armed before the resume are dropped, not kept beside the new ones.
func TestPausedMinuteDrawsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newClockRun(t, engine.Breathing, 3*time.Minute, 0)
		m, cmd := clockModel(r, 80, 24)
		m, cmd, _ = play(t, m, cmd, 5*time.Second)
		r.pause()
		next, _ := m.Update(eventsMsg{gen: m.gen, events: []engine.Event{{Kind: engine.EventStatus, Status: engine.Paused, Prev: engine.Running}}})
		m = next.(Model)
		m.View()
		m, cmd, got := play(t, m, cmd, time.Minute)
		if got.draws > 1 { // the first tick may still find the breath moved
			t.Errorf("paused for a minute, the screen was drawn %d times", got.draws)
		}
		if got.ticks > 31 {
			t.Errorf("paused for a minute, %d ticks", got.ticks)
		}

		r.resume()
		seq := m.tickSeq
		next, _ = m.Update(eventsMsg{gen: m.gen, events: []engine.Event{{Kind: engine.EventStatus, Status: engine.Running, Prev: engine.Paused}}})
		m = next.(Model)
		if m.tickSeq == seq || m.idling {
			t.Fatal("resumed, the events did not arm new ticks")
		}
		m.View()
		next, c := m.Update(cmd()) // the slow tick armed while paused
		m = next.(Model)
		if c != nil {
			t.Error("a slow tick armed before the resume was kept going")
		}
		// The tick the events armed, as they armed it.
		_, _, got = play(t, m, m.tick(), time.Second)
		if got.ticks > 11 || got.draws < got.ticks-1 {
			t.Errorf("resumed: %d ticks, %d draws in its first second", got.ticks, got.draws)
		}
	})
}

// The run's events that change nothing on screen (a phase transition,
// which the next phase's start shows; a status the screen already shows)
// cost no drawing; a spoken sentence does.
func TestEventsThatChangeNothingDrawNothing(t *testing.T) {
	r := newScriptedRun(t)
	r.set(engine.Progress{Status: engine.Running, Phase: engine.Atmosphere, Elapsed: 150 * time.Second,
		PhaseElapsed: 30 * time.Second, PhaseTarget: 2 * time.Minute})
	m := sized(New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }}), 80, 24)
	m.sess.started = true
	m.View()
	events := func(evs ...engine.Event) int {
		t.Helper()
		before := m.frame.drawn
		next, _ := m.Update(eventsMsg{gen: m.gen, events: evs})
		m = next.(Model)
		got := m.View().Content
		fresh := m
		fresh.frame = nil
		if want := fresh.View().Content; got != want {
			t.Fatalf("after %v the screen kept a stale frame:\n%s\nwant:\n%s", evs, ansi.Strip(got), ansi.Strip(want))
		}
		return m.frame.drawn - before
	}
	events(engine.Event{Kind: engine.EventSentence, Phase: engine.Atmosphere, Text: "Let the room settle around you."})
	if n := events(engine.Event{Kind: engine.EventTransition, From: engine.Atmosphere, Phase: engine.Breathing}); n != 0 {
		t.Errorf("a phase transition alone drew the screen %d times", n)
	}
	if n := events(engine.Event{Kind: engine.EventStatus, Status: engine.Running, Prev: engine.Running}); n != 0 {
		t.Errorf("a status the screen shows already drew it %d times", n)
	}
	if n := events(engine.Event{Kind: engine.EventSentence, Phase: engine.Atmosphere, Text: "Notice the air, cool at the nose."}); n != 1 {
		t.Errorf("a spoken sentence drew the screen %d times, want 1", n)
	}
}

// A key's effect shows on the next frame, even right after a tick that
// kept the frame before it.
func TestKeyAfterAStillTickIsDrawn(t *testing.T) {
	r := newScriptedRun(t)
	r.set(engine.Progress{Status: engine.Running, Phase: engine.Atmosphere, Elapsed: 150 * time.Second,
		PhaseElapsed: 30 * time.Second, PhaseTarget: 2 * time.Minute})
	m := sized(New(Options{Backend: &fakeBackend{}, Run: r, Now: func() time.Time { return testNow }}), 80, 24)
	m.sess.started = true
	m.View()
	next, _ := m.Update(tickMsg{gen: m.gen, seq: m.tickSeq})
	m = next.(Model)
	if !m.still {
		t.Fatal("a tick that changed nothing did not keep the frame")
	}
	m.View()
	m, _ = press(m, "space")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "paused") {
		t.Errorf("space after a still tick: the screen does not say paused:\n%s", v)
	}
}
