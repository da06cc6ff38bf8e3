package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func newSit(t *testing.T, minutes int, bell string) State {
	t.Helper()
	st, err := NewState("test-sit", Options{Length: time.Duration(minutes) * time.Minute, Seed: 7,
		Practice: PracticeSit, Pattern: bell, Voice: "none"}, epoch)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// bells are the sit's bells as its events told them: "0@0s", "1@5m0s",
// "-1@19m49s".
func bells(evs []Event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Kind == EventBell {
			out = append(out, fmt.Sprintf("%d@%v", ev.Index, ev.Duration))
		}
	}
	return out
}

func TestParseBell(t *testing.T) {
	for in, want := range map[string]time.Duration{"5": 5 * time.Minute, " 5m ": 5 * time.Minute, "1h": time.Hour, "1": time.Minute, "10M": 10 * time.Minute} {
		d, name, err := ParseBell(in)
		if err != nil || d != want || name != fmt.Sprintf("%dm", int(want.Minutes())) {
			t.Errorf("ParseBell(%q) = %v, %q, %v; want %v", in, d, name, err, want)
		}
	}
	for _, bad := range []string{"", "x", "0", "-5", "30s", "90s", "5.5", "241", "1e3", "5 m"} {
		if _, _, err := ParseBell(bad); err == nil || !strings.Contains(err.Error(), "bell") {
			t.Errorf("ParseBell(%q) = %v, want a refusal that names the bell", bad, err)
		}
	}
}

// A sit lasts 1 to 240 minutes, or is open-ended (0); its bell rings
// within it.
func TestSitLengthAndBell(t *testing.T) {
	for _, c := range []struct {
		minutes int
		bell    string
		ok      bool
	}{
		{20, "5m", true}, {0, "", true}, {0, "10m", true}, {1, "", true}, {240, "60m", true},
		{241, "", false}, {20, "20m", false}, {20, "30m", false}, {20, "5", false}, {20, "x", false},
	} {
		st, err := NewState("x", Options{Length: time.Duration(c.minutes) * time.Minute, Practice: PracticeSit, Pattern: c.bell}, epoch)
		if (err == nil) != c.ok {
			t.Errorf("sit of %d min, bell %q: %v", c.minutes, c.bell, err)
		}
		if err == nil {
			if err := st.Validate(); err != nil {
				t.Errorf("a new sit does not validate: %v", err)
			}
		}
	}
	if _, err := NewState("x", Options{Practice: PracticeSit, Length: 20 * time.Minute, Pattern: "20m"}, epoch); err == nil || !strings.Contains(err.Error(), "shorter than the sit") {
		t.Errorf("a bell as long as the sit: %v", err)
	}
}

// A timed sit: a bell at the start, one every interval, the last one
// struck twice so that its ring ends on the sit's length; no word, no
// guide asked; completed, valid, and its minutes counted.
func TestSitTimedBells(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	g := &scriptGuide{}
	e := newEngine(t, newSit(t, 20, "5m"), g, spk, store)
	ctx, cancel := context.WithCancel(context.Background())
	events := collect(ctx, e.Subscribe())
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	st := e.Snapshot()
	if err := st.Validate(); err != nil {
		t.Fatalf("the completed sit does not validate: %v", err)
	}
	if st.Status != Completed || st.Elapsed != 20*time.Minute || st.Heard() != 20*time.Minute || st.Summary == nil || st.Summary.Duration != st.Elapsed {
		t.Fatalf("%s after %v (heard %v), summary %+v", st.Status, st.Elapsed, st.Heard(), st.Summary)
	}
	want := []string{"0@0s", "1@5m0s", "2@10m0s", "3@15m0s", "-1@19m49s"}
	if got := bells(<-events); !slices.Equal(got, want) {
		t.Errorf("bells %q, want %q", got, want)
	}
	if spk.chimes != 6 || len(spk.Played()) != 0 || g.calls != 0 || len(spk.fades) != 1 {
		t.Errorf("%d chimes (want 6: the last twice), %d lines, %d guide calls, %d fades", spk.chimes, len(spk.Played()), g.calls, len(spk.fades))
	}
	if last := store.last(); last.Status != Completed || last.Practice != PracticeSit || last.Pattern != "5m" {
		t.Errorf("saved as %s, %q %q", last.Status, last.Practice, last.Pattern)
	}
}

// An open-ended sit rings its bells until the listener ends it; then the
// last bell, and it is complete, its time the time sat.
func TestSitOpenEndedEnds(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	e := newEngine(t, newSit(t, 0, "10m"), &scriptGuide{}, spk, store)
	ended := false
	spk.onRest = func(time.Duration) {
		if spk.Position() == 30*time.Minute && !ended {
			ended = true
			if err := e.End(); err != nil {
				t.Error(err)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := collect(ctx, e.Subscribe())
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	st := e.Snapshot()
	if err := st.Validate(); err != nil {
		t.Fatal(err)
	}
	if st.Status != Completed || st.Length != 0 || st.Elapsed != 30*time.Minute+endBellGap+closingTail {
		t.Errorf("%s of length %v after %v", st.Status, st.Length, st.Elapsed)
	}
	want := []string{"0@0s", "1@10m0s", "2@20m0s", "3@30m0s", "-1@30m0s"}
	if got := bells(<-events); !slices.Equal(got, want) {
		t.Errorf("bells %q, want %q", got, want)
	}
	if err := e.End(); err == nil {
		t.Error("a completed sit ended again")
	}
}

// Ended as its run begins, before its wait for a bell (a resume still
// saving, under load), a sit rings its last bell and completes: the
// listener's End is never refused because the sit was not yet waiting.
func TestSitEndedAsItsRunBegins(t *testing.T) {
	spk := newFakeSpeaker()
	e := newEngine(t, newSit(t, 0, "5m"), &scriptGuide{}, spk, &memStore{})
	asked := false
	spk.onResume = func() {
		if !asked {
			asked = true
			if err := e.End(); err != nil {
				t.Errorf("ended as the run began: %v", err)
			}
		}
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := e.Snapshot(); st.Status != Completed || st.Elapsed != endBellGap+closingTail || spk.chimes != 2 {
		t.Errorf("%s after %v with %d chimes", st.Status, st.Elapsed, spk.chimes)
	}
	if err := e.End(); err == nil {
		t.Error("a completed sit ended again")
	}
}

// Left alone, an open-ended sit ends itself at MaxSitLength.
func TestSitOpenEndedBound(t *testing.T) {
	spk := newFakeSpeaker()
	e := newEngine(t, newSit(t, 0, ""), &scriptGuide{}, spk, &memStore{})
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := e.Snapshot(); st.Status != Completed || st.Elapsed != MaxSitLength || spk.chimes != 3 {
		t.Errorf("%s after %v with %d chimes", st.Status, st.Elapsed, spk.chimes)
	}
}

// Ended while paused, a sit rings its last bell and completes.
func TestSitEndWhilePaused(t *testing.T) {
	spk := newFakeSpeaker()
	e := newEngine(t, newSit(t, 0, "5m"), &scriptGuide{}, spk, &memStore{})
	paused := false
	spk.onRest = func(time.Duration) {
		if spk.Position() == 5*time.Minute && !paused {
			paused = true
			if err := e.Pause(); err != nil {
				t.Error(err)
			}
			go func() {
				time.Sleep(20 * time.Millisecond)
				if err := e.End(); err != nil {
					t.Error(err)
				}
			}()
		}
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := e.Snapshot(); st.Status != Completed || st.Elapsed != 5*time.Minute+endBellGap+closingTail {
		t.Errorf("%s after %v", st.Status, st.Elapsed)
	}
	if err := newEngine(t, newSession(t, 10, ""), &scriptGuide{}, newFakeSpeaker(), nil).End(); err == nil {
		t.Error("a guided session ended on request")
	}
}

// A sit paused mid-interval and quit resumes in a new engine with the
// same bell schedule, counted from the sit's own start: the time paused
// and away is not sat.
func TestSitQuitAndResumeKeepsBells(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	e := newEngine(t, newSit(t, 20, "5m"), &scriptGuide{}, spk, store)
	ctx, cancel := context.WithCancel(context.Background())
	spk.onRest = func(time.Duration) {
		if spk.Position() == 5*time.Minute { // the second interval begins; 2 minutes of it play
			spk.mu.Lock()
			spk.pos += 2 * time.Minute
			spk.mu.Unlock()
			if err := e.Pause(); err != nil {
				t.Error(err)
			}
			cancel()
		}
	}
	ectx, ecancel := context.WithCancel(context.Background())
	events := collect(ectx, e.Subscribe())
	if err := e.Run(ctx); err == nil {
		t.Fatal("the sit completed through a quit")
	}
	ecancel()
	if got, want := bells(<-events), []string{"0@0s", "1@5m0s"}; !slices.Equal(got, want) {
		t.Errorf("before the quit: bells %q, want %q", got, want)
	}
	quit := store.last()
	if quit.Status != Paused || quit.Elapsed != 7*time.Minute || quit.Pattern != "5m" {
		t.Fatalf("after the quit: %s at %v, bell %q", quit.Status, quit.Elapsed, quit.Pattern)
	}
	spk2 := newFakeSpeaker()
	spk2.pos = time.Hour // another output's clock: the sit keeps its own
	e2 := newEngine(t, quit, &scriptGuide{}, spk2, store)
	ctx2, cancel2 := context.WithCancel(context.Background())
	events2 := collect(ctx2, e2.Subscribe())
	if err := e2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel2()
	want := []string{"0@7m0s", "2@10m0s", "3@15m0s", "-1@19m49s"}
	if got := bells(<-events2); !slices.Equal(got, want) {
		t.Errorf("resumed: bells %q, want %q", got, want)
	}
	if st := e2.Snapshot(); st.Status != Completed || st.Elapsed != 20*time.Minute || st.Validate() != nil {
		t.Errorf("resumed sit: %s after %v: %v", st.Status, st.Elapsed, st.Validate())
	}
}

// A clock that moves in coarse steps (a busy machine, a clock run
// hundreds of times fast) rings each bell a little late: it is still the
// bell of its minute, and the last bell is the sit's end, as the listener
// is told ("Bell 1 · 1:07" was printed for the one-minute bell).
func TestSitBellsKeepTheirMinuteOnALateClock(t *testing.T) {
	spk := newFakeSpeaker()
	spk.onRest = func(time.Duration) {
		spk.mu.Lock()
		spk.pos += 7 * time.Second // every wait overshoots
		spk.mu.Unlock()
	}
	e := newEngine(t, newSit(t, 20, "5m"), &scriptGuide{}, spk, &memStore{})
	ctx, cancel := context.WithCancel(context.Background())
	events := collect(ctx, e.Subscribe())
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	want := []string{"0@0s", "1@5m0s", "2@10m0s", "3@15m0s", "-1@19m49s"}
	if got := bells(<-events); !slices.Equal(got, want) {
		t.Errorf("bells %q, want %q", got, want)
	}
}
