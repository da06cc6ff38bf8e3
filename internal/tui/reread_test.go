package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

func (b *fakeBackend) Reread(id string) (Reread, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.rereads[id]
	if !ok {
		return Reread{}, errors.New("no such session")
	}
	return r, nil
}

func (b *fakeBackend) Replay(id string) (Run, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.replayed = append(b.replayed, id)
	if b.fail != nil {
		return nil, b.fail
	}
	st, _ := engine.NewState("2026-11-23-1400-rpl1", engine.Options{Length: 15 * time.Minute}, testNow)
	st.ReplayOf = id
	r := startTestRun(st)
	b.runs = append(b.runs, r)
	return r, nil
}

// sampleReread is the completed session of sampleSessions, to read again.
func sampleReread() Reread {
	words := map[engine.Phase][]string{
		engine.Atmosphere: {"Welcome. There is nowhere else you need to be tonight.", "Let the room grow quiet around you, and the day with it."},
		engine.Breathing:  {"Breathe in slowly through your nose, for a count of four.", "And let it go, long and easy, through softened lips."},
		engine.Sensory:    {"Notice the weight of the blanket, warm and even.", "Hear the rain on the window, far away and steady."},
		engine.Relaxation: {"Let your jaw soften, your tongue rest.", "Your shoulders sink a little lower with each breath out."},
		engine.Resolution: {"Stay as long as you like in this quiet.", "Sleep well."},
	}
	r := Reread{
		ID: "2026-11-20-0700-zz12", Title: "sleep", Replayable: true,
		Summary: []SummaryRow{
			{"Date", "Fri 20 Nov 2026, 07:00"},
			{"Length", "15 min · 15:01 spoken"},
			{"Intention", "sleep"},
			{"Guide", "openai (gpt-4.1-mini)"},
			{"Voice", "espeak-ng · soundscape rain"},
			{"Mood", "before 2/5 · after 4/5"},
			{"Note", "the rain helped"},
		},
	}
	for _, p := range engine.Phases {
		r.Phases = append(r.Phases, PhaseWords{Phase: p, Lines: words[p]})
	}
	return r
}

// rereadHome is the home screen on sampleSessions with the completed one
// (the third) selected, its words on file.
func rereadHome(t *testing.T) (Model, *fakeBackend) {
	t.Helper()
	b := &fakeBackend{infos: sampleSessions(), rereads: map[string]Reread{"2026-11-20-0700-zz12": sampleReread()}}
	m := New(Options{Backend: b, Now: func() time.Time { return testNow }})
	m = sized(m, 80, 24)
	next, _ := m.Update(sessionsMsg{infos: b.infos})
	m, _ = press(next.(Model), "down", "down")
	if info, _ := m.home.Selected(); info.Status != engine.Completed {
		t.Fatalf("selected %+v, want the completed session", info)
	}
	return m, b
}

// Issue 12: enter on a completed session opens it read-only — its summary
// and its words by phase — instead of saying it is completed; esc and q
// go back to the list. Nothing is resumed.
func TestEnterOnACompletedSessionOpensItReadOnly(t *testing.T) {
	m, b := rereadHome(t)
	m, cmd := press(m, "enter")
	m = run(t, m, cmd)
	if m.screen != screenReread {
		t.Fatalf("screen %v after enter on a completed session; status %q", m.screen, m.status.text)
	}
	v := ansi.Strip(m.View().Content)
	for _, want := range []string{"sleep", "15 min · 15:01 spoken", "openai (gpt-4.1-mini)", "espeak-ng · soundscape rain",
		"before 2/5 · after 4/5", "the rain helped", "— Atmosphere —", "Welcome. There is nowhere else you need to be tonight.", "r replay"} {
		if !strings.Contains(v, want) {
			t.Errorf("the read-only view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "press n") {
		t.Errorf("the view still sends the listener away:\n%s", v)
	}
	if len(b.resumed) > 0 || len(b.replayed) > 0 {
		t.Errorf("reading resumed %v, replayed %v", b.resumed, b.replayed)
	}
	for _, back := range []string{"esc", "q"} {
		again, cmd := press(m, back)
		if again.screen != screenHome {
			t.Errorf("%s leaves screen %v, want the list", back, again.screen)
		}
		if cmd != nil {
			if _, quit := cmd().(tea.QuitMsg); quit {
				t.Errorf("%s quits lull instead of going back", back)
			}
		}
	}
}

// Issue 12: the words scroll in a viewport: the last phase is below the
// fold at first, and in view after paging down.
func TestRereadScrolls(t *testing.T) {
	m, _ := rereadHome(t)
	m, cmd := press(m, "enter")
	m = run(t, m, cmd)
	v := ansi.Strip(m.View().Content)
	if strings.Contains(v, "Sleep well.") {
		t.Fatalf("the whole session fits at 80×24; the test needs more words:\n%s", v)
	}
	for range 6 {
		next, _ := m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
		m = next.(Model)
	}
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "Sleep well.") || !strings.Contains(v, "of 27") {
		t.Errorf("paging down does not reach the end:\n%s", v)
	}
}

// Issue 12: r replays a completed session, from the list and from the
// read-only view; a session still to finish is not replayed.
func TestReplayKey(t *testing.T) {
	m, b := rereadHome(t)
	next, cmd := press(m, "r")
	next = run(t, next, cmd)
	if len(b.replayed) != 1 || b.replayed[0] != "2026-11-20-0700-zz12" || next.screen != screenSession {
		t.Fatalf("r on the completed session: replayed %v, screen %v", b.replayed, next.screen)
	}
	if next.run.Snapshot().ReplayOf != "2026-11-20-0700-zz12" {
		t.Error("the session on screen is not the replay")
	}

	m, b = rereadHome(t)
	m, cmd = press(m, "enter")
	m = run(t, m, cmd)
	m, cmd = press(m, "r")
	m = run(t, m, cmd)
	if len(b.replayed) != 1 || m.screen != screenSession {
		t.Errorf("r in the read-only view: replayed %v, screen %v", b.replayed, m.screen)
	}

	m, b = rereadHome(t)
	m, _ = press(m, "k", "k") // the paused session
	m, _ = press(m, "r")
	if len(b.replayed) != 0 || !strings.Contains(m.status.text, "resume") {
		t.Errorf("r on a paused session: replayed %v, status %q", b.replayed, m.status.text)
	}
}

func TestRereadGolden(t *testing.T) {
	for _, dark := range []bool{true, false} {
		suffix := "_dark"
		if !dark {
			suffix = "_light"
		}
		m, _ := rereadHome(t)
		m, cmd := press(m, "enter")
		m = run(t, m, cmd)
		golden(t, "reread"+suffix, styled(m, dark).View().Content)
	}
}
