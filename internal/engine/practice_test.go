package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

func newPractice(t *testing.T, minutes int, pattern string) State {
	t.Helper()
	st, err := NewState("test-practice", Options{Length: time.Duration(minutes) * time.Minute, Seed: 7,
		Practice: PracticeBreathe, Pattern: pattern}, epoch)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestParseBreath(t *testing.T) {
	s := time.Second
	for _, c := range []struct {
		in   string
		want BreathPattern
		name string
	}{
		{"box", BreathPattern{4 * s, 4 * s, 4 * s, 4 * s}, "box"},
		{" 4-7-8 ", BreathPattern{Inhale: 4 * s, Hold: 7 * s, Exhale: 8 * s}, "4-7-8"},
		{"Coherent", BreathPattern{Inhale: 5500 * time.Millisecond, Exhale: 5500 * time.Millisecond}, "coherent"},
		{"5.5-5.5", BreathPattern{Inhale: 5500 * time.Millisecond, Exhale: 5500 * time.Millisecond}, "coherent"},
		{"4-2-6", DefaultBreath, "4-2-6"},
		{"4-4-4-4", BreathPattern{4 * s, 4 * s, 4 * s, 4 * s}, "box"},
		{"5-0-7", BreathPattern{Inhale: 5 * s, Exhale: 7 * s}, "5-0-7"},
		{"3-1-5-2", BreathPattern{3 * s, 1 * s, 5 * s, 2 * s}, "3-1-5-2"},
	} {
		b, name, err := ParseBreath(c.in)
		if err != nil || b != c.want || name != c.name {
			t.Errorf("ParseBreath(%q) = %+v, %q, %v; want %+v, %q", c.in, b, name, err, c.want, c.name)
		}
		if again, _, err := ParseBreath(name); err != nil || again != b {
			t.Errorf("the name %q does not read back as %+v: %+v, %v", name, b, again, err)
		}
	}
	for _, bad := range []string{"", "square", "4", "4-7-8-2-1", "4-x-8", "4-8-8", "1-2-6", "4-2-12", "4-2-6-5", "-4-2-6", "NaN-2-6", "4-2-1e9"} {
		_, _, err := ParseBreath(bad)
		if err == nil {
			t.Errorf("ParseBreath(%q) accepted it", bad)
			continue
		}
		if !strings.Contains(err.Error(), "breathing pattern") {
			t.Errorf("ParseBreath(%q): %v does not say what it read", bad, err)
		}
	}
	if _, _, err := ParseBreath("square"); !strings.Contains(err.Error(), BreathNames()) {
		t.Errorf("an unknown name is not told the names: %v", err)
	}
}

// A practice has its own bound on length: 1 to 60 minutes, where a guided
// session takes 5 to 60; and it must have a pattern it can breathe.
func TestPracticeLengthAndPattern(t *testing.T) {
	for _, c := range []struct {
		opts Options
		ok   bool
	}{
		{Options{Length: time.Minute, Practice: PracticeBreathe, Pattern: "box"}, true},
		{Options{Length: 60 * time.Minute, Practice: PracticeBreathe, Pattern: "4-7-8"}, true},
		{Options{Length: 61 * time.Minute, Practice: PracticeBreathe, Pattern: "box"}, false},
		{Options{Length: 90 * time.Second, Practice: PracticeBreathe, Pattern: "box"}, false},
		{Options{Length: 0, Practice: PracticeBreathe, Pattern: "box"}, false},
		{Options{Length: 2 * time.Minute, Practice: PracticeBreathe}, false},
		{Options{Length: 2 * time.Minute, Practice: PracticeBreathe, Pattern: "4-12-8"}, false},
		{Options{Length: 2 * time.Minute}, false},
		{Options{Length: 10 * time.Minute, Pattern: "box"}, false},
		{Options{Length: 10 * time.Minute, Practice: "yoga"}, false},
	} {
		st, err := NewState("x", c.opts, epoch)
		if (err == nil) != c.ok {
			t.Errorf("NewState(%+v): %v", c.opts, err)
		}
		if err == nil {
			if err := st.Validate(); err != nil {
				t.Errorf("a new practice does not validate: %v", err)
			}
		}
	}
}

// A practice is a whole session of breathing alone: the tone from the
// first breath, cues on the first breaths' parts, whole breaths, a chime
// at each end; no guide is asked for a word; it ends within half a
// breath of its length, completed and valid.
func TestPracticeRunsWholeBreaths(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	g := &scriptGuide{}
	e := newEngine(t, newPractice(t, 2, "4-7-8"), g, spk, store)
	ctx, cancel := context.WithCancel(context.Background())
	events := collect(ctx, e.Subscribe())
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	st := e.Snapshot()
	if err := st.Validate(); err != nil {
		t.Fatalf("the completed practice does not validate: %v", err)
	}
	b := BreathPattern{Inhale: 4 * time.Second, Hold: 7 * time.Second, Exhale: 8 * time.Second}
	if st.Status != Completed || st.Summary == nil || st.Summary.Duration != st.Elapsed {
		t.Fatalf("status %s, summary %+v", st.Status, st.Summary)
	}
	if d := st.Elapsed - 2*time.Minute; d < -b.Period()/2 || d > b.Period()/2 {
		t.Errorf("the practice lasted %v, want 2:00 within half a breath", st.Elapsed)
	}
	if g.calls != 0 {
		t.Errorf("the guide was asked %d times", g.calls)
	}
	if spk.chimes != 2 || spk.paces != 1 || len(spk.fades) != 1 {
		t.Errorf("%d chimes, %d pacer starts, %d fades; want 2, 1, 1", spk.chimes, spk.paces, len(spk.fades))
	}
	// A breath of 19 s is taught over two breaths: in, hold, out.
	want := []string{"Breathe in…", "Hold…", "And breathe out…", "Breathe in…", "Hold…", "And breathe out…"}
	if got := spk.Played(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("cues %q, want %q", got, want)
	}
	// Each cue begins as its part of the breath begins, on the pacer's clock.
	for i, l := range spk.lines {
		at := spk.starts[i] - spk.anchor
		if br := b.At(at); br.Stage != CueStage(l.Text) || br.Progress > 0.01 {
			t.Errorf("%q at %v, in %s %.2f of the way", l.Text, at, br.Stage, br.Progress)
		}
	}
	if st.Phases[Breathing].Spoken != len(want) || len(st.Said()) != len(want) || len(store.transcript) != len(want) {
		t.Errorf("%d spoken, %d said, %d transcribed; want %d", st.Phases[Breathing].Spoken, len(st.Said()), len(store.transcript), len(want))
	}
	// Whole breaths: the closing chime comes a whole number of breaths after the tone began.
	closing := spk.fades[0].at - spk.anchor
	if closing%b.Period() != 0 || closing/b.Period() < 5 {
		t.Errorf("the breaths end %v after the tone began: not whole breaths of %v", closing, b.Period())
	}
	breaths := 0
	for _, ev := range <-events {
		switch ev.Kind {
		case EventBreath:
			breaths++
			if ev.Index != breaths || !strings.HasPrefix(ev.Text, "breath ") {
				t.Errorf("breath event %d: %+v", breaths, ev)
			}
		case EventPhaseStarted, EventTransition:
			t.Errorf("a practice announced a phase: %+v", ev)
		}
	}
	if time.Duration(breaths)*b.Period() != closing {
		t.Errorf("%d breath events for %v of breaths", breaths, closing)
	}
	if last := store.last(); last.Status != Completed || last.Practice != PracticeBreathe || last.Pattern != "4-7-8" {
		t.Errorf("saved as %s, %q %q", last.Status, last.Practice, last.Pattern)
	}
}

// No voice, no words: the tone alone leads.
func TestPracticeWithoutCues(t *testing.T) {
	spk := newFakeSpeaker()
	e, err := New(newPractice(t, 1, "coherent"), Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk, NoCues: true, Now: func() time.Time { return epoch }})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if played := spk.Played(); len(played) != 0 {
		t.Errorf("cues with no voice: %q", played)
	}
	if st := e.Snapshot(); st.Status != Completed || st.Spoken() != 0 {
		t.Errorf("%s with %d spoken", st.Status, st.Spoken())
	}
}

// A practice paused and quit mid-breath resumes in a new engine with the
// rhythm it began with — not the config's — and still ends on time.
func TestPracticeQuitAndResume(t *testing.T) {
	b := BreathPattern{4 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}
	spk := newFakeSpeaker()
	store := &memStore{}
	e := newEngine(t, newPractice(t, 3, "box"), &scriptGuide{}, spk, store)
	ctx, cancel := context.WithCancel(context.Background())
	rests := 0
	spk.onRest = func(time.Duration) {
		rests++
		if rests == 12 { // in the third breath
			if err := e.Pause(); err != nil {
				t.Error(err)
			}
			cancel()
		}
	}
	if err := e.Run(ctx); err == nil {
		t.Fatal("the practice completed through a quit")
	}
	quit := store.last()
	if quit.Status != Paused || quit.Phase != Breathing || quit.Elapsed <= 0 || quit.Elapsed >= 3*time.Minute {
		t.Fatalf("after the quit: %s in %s at %v", quit.Status, quit.Phase, quit.Elapsed)
	}
	spk2 := newFakeSpeaker()
	e2, err := New(quit, Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: spk2, Store: store, Breath: DefaultBreath, Now: func() time.Time { return epoch }})
	if err != nil {
		t.Fatal(err)
	}
	if e2.breath != b {
		t.Errorf("resumed with %+v, want the practice's own box %+v", e2.breath, b)
	}
	if err := e2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e2.Snapshot()
	if d := st.Elapsed - 3*time.Minute; st.Status != Completed || d < -b.Period() || d > b.Period() {
		t.Errorf("resumed practice: %s after %v, want completed at 3:00 ± a breath", st.Status, st.Elapsed)
	}
	if spk2.chimes != 1 {
		t.Errorf("the resumed run struck %d chimes, want the closing one", spk2.chimes)
	}
	if got := len(st.Said()); got != 2*len(b.stages()) {
		t.Errorf("%d cues in all, want two breaths' worth (%d)", got, 2*len(b.stages()))
	}
}
