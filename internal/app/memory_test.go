package app

import (
	"io"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/guide"
	"github.com/lull-dev/lull/internal/llm"
	"github.com/lull-dev/lull/internal/testutil/openaitest"
)

// memories records each memory the built-in guide is made with.
type memories struct {
	mu  sync.Mutex
	got []guide.Memory
}

func recordMemories(a *App) *memories {
	m := &memories{}
	a.newBuiltin = func(mem guide.Memory) (engine.Guide, error) {
		m.mu.Lock()
		m.got = append(m.got, mem)
		m.mu.Unlock()
		return defaultBuiltin(mem)
	}
	return m
}

// last is the memory the latest built-in guide was made with.
func (m *memories) last(t *testing.T) [][]string {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.got) == 0 {
		t.Fatal("no built-in guide was made")
	}
	return m.got[len(m.got)-1].Heard
}

func (m *memories) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.got)
}

// speakSome lets r speak at least n more sentences, then closes it, and
// returns what its session has said in all.
func speakSome(t *testing.T, a *App, r *Run, n int) []string {
	t.Helper()
	spoken := func() int { st := r.Snapshot(); return st.Spoken() }
	from := spoken()
	deadline := time.Now().Add(60 * time.Second)
	for spoken() < from+n {
		if time.Now().After(deadline) {
			t.Fatalf("session %s spoke %d sentences in a minute", r.ID(), spoken()-from)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	st, _, err := a.Store().Load(r.ID())
	if err != nil {
		t.Fatal(err)
	}
	return st.Said()
}

// at makes the app create sessions at t; the engine speaks on the real clock.
func at(a *App, t time.Time) { a.opts.Now = func() time.Time { return t } }

// Every built-in guide made for a session hears what the listener heard
// in the sessions created before it, newest first, within its window:
// when it begins, when it is resumed (in another lull, after others have
// spoken since), and when it is rendered.
func TestTheBuiltinGuideRemembersEarlierSessions(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	a.opts.TimeScale = 100
	mem := recordMemories(a)
	now := time.Now()
	start := func(o engine.Options) *Run {
		t.Helper()
		r, err := a.Start(o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}

	at(a, now.Add(-guide.MemoryWindow-9*24*time.Hour))
	speakSome(t, a, start(engine.Options{Seed: 1}), 2) // too long ago
	if heard := mem.last(t); len(heard) != 0 {
		t.Errorf("the first session ever remembers %d sessions", len(heard))
	}
	at(a, now.Add(-2*24*time.Hour))
	twoDays := speakSome(t, a, start(engine.Options{Seed: 2}), 3)
	at(a, now.Add(-24*time.Hour))
	yesterdayRun := start(engine.Options{Seed: 3})
	yesterday := speakSome(t, a, yesterdayRun, 2)

	a.opts.Now = time.Now
	tonight := start(engine.Options{Seed: 4})
	began := mem.last(t)
	if want := [][]string{yesterday, twoDays}; !reflect.DeepEqual(began, want) {
		t.Fatalf("a new session remembers %q\nwant %q", began, want)
	}
	tonightSaid := speakSome(t, a, tonight, 2)

	// Yesterday's session is resumed after tonight's began, and speaks on.
	// Its own memory is of what came before it, never itself or tonight.
	// (The sessions here are created on a clock set back, but speak on
	// the real one: nothing was said before yesterday's began.)
	r, err := a.Resume(yesterdayRun.ID())
	if err != nil {
		t.Fatal(err)
	}
	if heard := mem.last(t); len(heard) != 0 {
		t.Errorf("yesterday's session, resumed, remembers %q", heard)
	}
	speakSome(t, a, r, 2)
	later := speakSome(t, a, start(engine.Options{Seed: 5}), 2)

	// Tonight's session, resumed in another lull, remembers what it began with.
	other, err := New(Options{Paths: a.opts.Paths, Config: a.opts.Config, TimeScale: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	otherMem := recordMemories(other)
	r, err = other.Resume(tonight.ID())
	if err != nil {
		t.Fatal(err)
	}
	if heard := otherMem.last(t); !reflect.DeepEqual(heard, began) {
		t.Errorf("resumed in another lull, it remembers %q\nwant what it began with %q", heard, began)
	}
	r.Close()

	// A render is a session like any other.
	rendered, err := a.Render(engine.Options{Seed: 6}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	rendered.Close()
	heard := mem.last(t)
	if len(heard) != 4 || !reflect.DeepEqual(heard[0], later) || !reflect.DeepEqual(heard[1], tonightSaid) {
		t.Errorf("a render remembers %q", heard)
	}
}

// When the LLM fails, the built-in guide that carries on — at once, or
// when the listener asks after an interruption — remembers too; it is the
// one made for the run, which fills for the LLM meanwhile.
func TestTheBuiltinGuideThatTakesOverRemembers(t *testing.T) {
	t.Parallel()
	a := testApp(t)
	a.opts.TimeScale = 100
	mem := recordMemories(a)
	at(a, time.Now().Add(-time.Hour))
	earlier := speakSome(t, a, func() *Run {
		r, err := a.Start(engine.Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}(), 2)
	a.opts.Now = time.Now

	srv := openaitest.New()
	defer srv.Close()
	srv.DieAfter(0)
	for _, interrupt := range []bool{false, true} {
		a.opts.Guide = GuideChoice{Guide: "openai", Interrupt: interrupt,
			LLM: llm.Config{APIKey: "sk-test", BaseURL: srv.URL, Model: "gpt-4.1-mini"}}
		made := mem.count()
		r, err := a.Start(engine.Options{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		if interrupt {
			// It does not fall back, yet the built-in guide is made: it
			// fills for the LLM, and is the one that takes over if asked.
			if mem.count() != made+1 {
				t.Errorf("%d built-in guides made for a session on the LLM, want 1 (its filler)", mem.count()-made)
			}
			select {
			case <-r.Done():
			case <-time.After(60 * time.Second):
				t.Fatal("the dead server never interrupted the session")
			}
			if st := r.Snapshot().Status; st != engine.Interrupted {
				t.Fatalf("the session is %s, want interrupted", st)
			}
			if err := r.ContinueBuiltin(); err != nil {
				t.Fatal(err)
			}
		}
		if mem.count() != made+1 {
			t.Errorf("interrupt=%v: %d built-in guides made, want 1", interrupt, mem.count()-made)
		}
		if heard := mem.last(t); !reflect.DeepEqual(heard, [][]string{earlier}) {
			t.Errorf("interrupt=%v: the built-in guide that takes over remembers %q", interrupt, heard)
		}
		r.Close()
	}
}
