package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

var epoch = time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)

func newSession(t *testing.T, minutes int, intention string) State {
	t.Helper()
	st, err := NewState("test-session", Options{Length: time.Duration(minutes) * time.Minute, Intention: intention, Seed: 7}, epoch)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func newEngine(t *testing.T, st State, g Guide, s Speaker, store Store) *Engine {
	t.Helper()
	f, _ := g.(Forgetter) // a fake remote guide forgets what it stored
	e, err := New(st, Config{Screen: fakeScreen{}, Guide: g, Speaker: s, Store: store, Forgetter: f, Now: func() time.Time { return epoch }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// collect reads every event until the subscription's context ends.
func collect(ctx context.Context, sub *Subscription) <-chan []Event {
	out := make(chan []Event, 1)
	go func() {
		var all []Event
		for {
			evs, err := sub.Next(ctx)
			if err != nil {
				out <- all
				return
			}
			all = append(all, evs...)
		}
	}()
	return out
}

func TestWholeSessionHeadless(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	e := newEngine(t, newSession(t, 10, "calm before a talk"), &scriptGuide{}, spk, store)
	ctx, cancel := context.WithCancel(context.Background())
	sub := e.Subscribe()
	events := collect(ctx, sub)

	if err := e.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	cancel()
	evs := <-events
	st := e.Snapshot()

	if st.Status != Completed {
		t.Fatalf("status %s, want completed", st.Status)
	}
	for i, r := range st.Phases {
		if r.Status != PhaseCompleted {
			t.Errorf("%s is %s", r.Phase, r.Status)
		}
		if r.Spoken < 3 {
			t.Errorf("%s spoke %d sentences, want ≥ 3", r.Phase, r.Spoken)
		}
		if i > 0 && r.StartedAt.Before(st.Phases[i-1].CompletedAt) {
			t.Errorf("%s started before %s completed", r.Phase, st.Phases[i-1].Phase)
		}
	}
	// On time to the percent, every phase near its share.
	if off := st.Elapsed - st.Length; off < -st.Length/100 || off > st.Length/100 {
		t.Errorf("elapsed %v for a %v session", st.Elapsed, st.Length)
	}
	for _, p := range Phases {
		share := float64(st.Phases[p].Elapsed) / float64(st.Elapsed)
		if d := share - p.Share(st.Length, st.Sleep); d < -0.02 || d > 0.02 {
			t.Errorf("%s took %.1f%% of the session, want about %.0f%%", p, share*100, p.Share(st.Length, st.Sleep)*100)
		}
	}
	said := st.Said()
	if got := spk.Played(); !slices.Equal(got, said) {
		t.Errorf("spoken %d lines but history has %d", len(got), len(said))
	}
	if st.History[0].Role != RoleUser || st.History[0].Text != "calm before a talk" {
		t.Errorf("history should open with the intention, got %+v", st.History[0])
	}
	if st.SealedAt.IsZero() {
		t.Error("intention not sealed")
	}
	if spk.chimes != 6 {
		t.Errorf("%d chimes, want 6 (start, four phase changes, end)", spk.chimes)
	}
	if st.Summary == nil || st.Summary.Sentences != len(said) {
		t.Errorf("summary %+v", st.Summary)
	}

	// Events: increasing ids, phases in order, a sentence event per line.
	var phases []Phase
	var sentences int
	for i, ev := range evs {
		if i > 0 && ev.ID != evs[i-1].ID+1 {
			t.Fatalf("event ids jump from %d to %d", evs[i-1].ID, ev.ID)
		}
		switch ev.Kind {
		case EventPhaseStarted:
			phases = append(phases, ev.Phase)
		case EventSentence:
			sentences++
		}
	}
	if !slices.Equal(phases, Phases[:]) {
		t.Errorf("phases started %v", phases)
	}
	if sentences != len(said) {
		t.Errorf("%d sentence events for %d lines", sentences, len(said))
	}
	if last := evs[len(evs)-1]; last.Kind != EventCompleted {
		// The final checkpoint may follow, but completed is the last event.
		t.Errorf("last event %s, want completed", last.Kind)
	}

	// Checkpoints: after every sentence, transition and the end.
	if len(store.saves) < len(said)+5 {
		t.Errorf("%d checkpoints for %d sentences", len(store.saves), len(said))
	}
	if got := store.last(); got.Status != Completed {
		t.Errorf("last checkpoint is %s", got.Status)
	}
	if len(store.transcript) != len(said) {
		t.Errorf("transcript has %d lines, want %d", len(store.transcript), len(said))
	}
}

func TestGuideRequestsCarryPhaseBudgetAndIntention(t *testing.T) {
	g := &scriptGuide{}
	e := newEngine(t, newSession(t, 10, "sleep"), g, newFakeSpeaker(), nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	windDowns := map[Phase]int{}
	for _, r := range g.requests {
		if r.Intention != "sleep" || r.Seed != 7 || r.Length != 10*time.Minute {
			t.Fatalf("request %+v", r)
		}
		if r.WindDown {
			windDowns[r.Phase]++
			if r.Spoken < r.Budget.WindDownAt {
				t.Errorf("%s wind-down asked at %d, before its point %d", r.Phase, r.Spoken, r.Budget.WindDownAt)
			}
		}
	}
	for _, p := range Phases {
		if windDowns[p] != 1 {
			t.Errorf("%s had %d wind-down calls, want 1", p, windDowns[p])
		}
	}
}

func TestPauseFreezesAndResumeContinues(t *testing.T) {
	spk := newFakeSpeaker()
	e := newEngine(t, newSession(t, 10, ""), &scriptGuide{}, spk, &memStore{})
	paused := make(chan struct{})
	spk.onPlay = func(l Line, n int) {
		if l.Phase == Sensory && l.Index == 4 {
			if err := e.Pause(); err != nil {
				t.Errorf("Pause: %v", err)
			}
			close(paused)
		}
	}
	done := make(chan error, 1)
	go func() { done <- e.Run(context.Background()) }()
	<-paused

	st := e.Snapshot()
	if st.Status != Paused || st.Phase != Sensory || st.Position.Sentence != 4 {
		t.Fatalf("after pause: %s in %s at %d", st.Status, st.Phase, st.Position.Sentence)
	}
	before := e.Progress()
	playedBefore := len(spk.Played())
	time.Sleep(30 * time.Millisecond)
	if after := e.Progress(); after.Elapsed != before.Elapsed {
		t.Errorf("the clock moved while paused: %v → %v", before.Elapsed, after.Elapsed)
	}
	if len(spk.Played()) != playedBefore {
		t.Error("lines were spoken while paused")
	}
	if err := e.Pause(); !errors.As(err, new(*TransitionError)) {
		t.Errorf("pausing twice: %v, want a TransitionError", err)
	}
	spk.onPlay = nil
	if err := e.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	played := spk.Played()
	if i := slices.Index(played, "Sensory body, script 4."); i != playedBefore {
		t.Errorf("after resume the first line was %q, want sensory line 4", played[playedBefore])
	}
	if e.Snapshot().Status != Completed {
		t.Error("not completed after resume")
	}
}

// quitInRelaxation runs a 10-minute session until its third relaxation
// sentence is about to play, and quits there (pause, stop, save): what a
// listener's quit leaves in store.
func quitInRelaxation(t *testing.T, spk *fakeSpeaker, store *memStore) {
	t.Helper()
	quitAt(t, newSession(t, 10, "rest"), spk, store, func(_ *Engine, l Line) bool { return l.Phase == Relaxation && l.Index == 2 })
}

// quitAt runs st and quits it (pause, stop, save) as the first line at
// picks begins to play.
func quitAt(t *testing.T, st State, spk *fakeSpeaker, store *memStore, at func(e *Engine, l Line) bool) {
	t.Helper()
	e := newEngine(t, st, &scriptGuide{}, spk, store)
	ctx, cancel := context.WithCancel(context.Background())
	spk.onPlay = func(l Line, n int) {
		if ctx.Err() == nil && at(e, l) {
			if err := e.Pause(); err != nil {
				t.Error(err)
			}
			cancel()
		}
	}
	if err := e.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after quit: %v", err)
	}
}

// A quit (pause, stop, save) and a resume in a new engine pick up at the
// same phase and sentence and speak nothing twice.
func TestQuitAndResumeInANewEngine(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	quitInRelaxation(t, spk, store)
	saved := store.last()
	if saved.Status != Paused || saved.Phase != Relaxation || saved.Position.Sentence != 2 {
		t.Fatalf("saved %s in %s at %d", saved.Status, saved.Phase, saved.Position.Sentence)
	}
	first := spk.Played()

	spk2 := newFakeSpeaker()
	e2 := newEngine(t, saved, &scriptGuide{}, spk2, store)
	if err := e2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	second := spk2.Played()
	if second[0] != "Relaxation body, script 2." {
		t.Errorf("resumed with %q", second[0])
	}
	all := append(first, second...)
	seen := map[string]bool{}
	for _, s := range all {
		if seen[s] {
			t.Errorf("%q spoken twice", s)
		}
		seen[s] = true
	}
	st := e2.Snapshot()
	if st.Status != Completed || !slices.Equal(st.Said(), all) {
		t.Errorf("status %s; history %d lines, spoken %d", st.Status, len(st.Said()), len(all))
	}
	if st.Phases[Relaxation].StartedAt.IsZero() || st.Phases[Atmosphere].Spoken != saved.Phases[Atmosphere].Spoken {
		t.Error("earlier phases changed on resume")
	}
}

func TestAbandon(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	e := newEngine(t, newSession(t, 10, ""), &scriptGuide{}, spk, store)
	spk.onPlay = func(l Line, n int) {
		if l.Phase == Breathing && l.Index == 1 {
			if err := e.Abandon(); err != nil {
				t.Error(err)
			}
		}
	}
	if err := e.Run(context.Background()); !errors.Is(err, ErrAbandoned) {
		t.Fatalf("Run: %v, want ErrAbandoned", err)
	}
	if got := store.last().Status; got != Abandoned {
		t.Errorf("saved as %s", got)
	}
	if err := e.Run(context.Background()); !errors.As(err, new(*TransitionError)) {
		t.Errorf("running an abandoned session: %v", err)
	}
}

func TestTransitionsTable(t *testing.T) {
	all := []Status{Created, Running, Paused, Interrupted, Completed, Abandoned}
	allowed := map[[2]Status]bool{
		{Created, Running}: true, {Created, Abandoned}: true,
		{Running, Paused}: true, {Running, Interrupted}: true, {Running, Completed}: true, {Running, Abandoned}: true,
		{Paused, Running}: true, {Paused, Completed}: true, {Paused, Abandoned}: true,
		{Interrupted, Running}: true, {Interrupted, Completed}: true, {Interrupted, Abandoned}: true,
	}
	for _, from := range all {
		for _, to := range all {
			if got := CanTransition(from, to); got != allowed[[2]Status{from, to}] {
				t.Errorf("%s → %s allowed=%v", from, to, got)
			}
		}
	}
	e := newEngine(t, newSession(t, 10, ""), &scriptGuide{}, newFakeSpeaker(), nil)
	var terr *TransitionError
	if err := e.Pause(); !errors.As(err, &terr) || terr.From != Created || terr.To != Paused {
		t.Errorf("pausing a created session: %v", err)
	}
	if err := e.Resume(); err == nil {
		t.Error("resuming a session that is not running should fail")
	}
}

func TestStatusEventsForEveryTransition(t *testing.T) {
	spk := newFakeSpeaker()
	e := newEngine(t, newSession(t, 5, ""), &scriptGuide{}, spk, nil)
	spk.onPlay = func(l Line, n int) {
		if n == 3 {
			_ = e.Pause()
			go func() { _ = e.Resume() }()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := collect(ctx, e.Subscribe())
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	var changes []string
	for _, ev := range <-events {
		if ev.Kind == EventStatus {
			changes = append(changes, string(ev.Prev)+">"+string(ev.Status))
		}
	}
	want := []string{"created>running", "running>paused", "paused>running", "running>completed"}
	if !slices.Equal(changes, want) {
		t.Errorf("status events %v, want %v", changes, want)
	}
}

// Whatever the voice's pace, the session ends within 1 % of its length:
// the silences take up the difference, and the number of sentences when the
// difference is large.
func TestSessionsEndOnTime(t *testing.T) {
	for _, minutes := range []int{5, 10, 20, 30, 60} {
		for _, slow := range []float64{0.6, 1, 1.5, 3} {
			spk := newFakeSpeaker()
			spk.slow = slow
			e := newEngine(t, newSession(t, minutes, ""), &scriptGuide{}, spk, nil)
			if err := e.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			st := e.Snapshot()
			off := float64(st.Elapsed-st.Length) / float64(st.Length)
			if off < -0.01 || off > 0.01 {
				t.Errorf("%d min, speech ×%.1f: took %v (%.2f%% off)", minutes, slow, st.Elapsed, off*100)
			}
			if spk.Position() != st.Elapsed {
				t.Errorf("%d min, speech ×%.1f: the output played %v, the session counted %v", minutes, slow, spk.Position(), st.Elapsed)
			}
			// Resolution's whole grounding and the last chime are a floor
			// that a five-minute session's 15 % barely holds.
			tolerance := 0.03
			if minutes == 5 {
				tolerance = 0.05
			}
			for _, p := range Phases {
				share := float64(st.Phases[p].Elapsed) / float64(st.Elapsed)
				if d := share - p.Share(st.Length, st.Sleep); d < -tolerance || d > tolerance {
					t.Errorf("%d min, speech ×%.1f: %s took %.1f%%, want about %.0f%%", minutes, slow, p, share*100, p.Share(st.Length, st.Sleep)*100)
				}
			}
			if st.Phases[Resolution].Spoken < MinSentences(Resolution, false) {
				t.Errorf("speech ×%.1f: resolution spoke %d", slow, st.Phases[Resolution].Spoken)
			}
		}
	}
}

func TestResolutionAlwaysRuns(t *testing.T) {
	// Speech ten times longer than planned: the early phases eat the clock,
	// yet resolution still runs its whole close.
	spk := newFakeSpeaker()
	spk.slow = 10
	e := newEngine(t, newSession(t, 5, ""), &scriptGuide{}, spk, nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e.Snapshot()
	res := st.Phases[Resolution]
	if res.Status != PhaseCompleted || res.Spoken < MinSentences(Resolution, false) {
		t.Fatalf("resolution %s with %d sentences", res.Status, res.Spoken)
	}
	said := st.Said()
	if !strings.HasPrefix(said[len(said)-1], "Resolution leads on") || !strings.HasPrefix(said[len(said)-2], "Resolution leads on") {
		t.Errorf("the close was cut: %q", said[len(said)-2:])
	}
	for _, r := range st.Phases[:Resolution] {
		if r.Spoken < 3 {
			t.Errorf("%s spoke %d", r.Phase, r.Spoken)
		}
	}
}

func TestUnsafeSentenceIsDroppedAndCounted(t *testing.T) {
	spk := newFakeSpeaker()
	g := &scriptGuide{unsafe: map[string]bool{"breathing/1": true}}
	e := newEngine(t, newSession(t, 10, ""), g, spk, nil)
	ctx, cancel := context.WithCancel(context.Background())
	events := collect(ctx, e.Subscribe())
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	st := e.Snapshot()
	if st.Phases[Breathing].Dropped != 1 || st.Dropped() != 1 {
		t.Errorf("dropped %d in breathing, %d in all", st.Phases[Breathing].Dropped, st.Dropped())
	}
	for _, s := range spk.Played() {
		if strings.Contains(s, "thirty seconds") {
			t.Fatal("the unsafe sentence was spoken")
		}
	}
	for _, ev := range <-events {
		if strings.Contains(ev.Text, "thirty seconds") {
			t.Fatal("the unsafe sentence reached a view")
		}
	}
	if st.Summary.Dropped != 1 {
		t.Errorf("summary counts %d dropped", st.Summary.Dropped)
	}
}

func TestGuideFailureInterruptsThenResumes(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	g := &scriptGuide{failFrom: 4}
	e := newEngine(t, newSession(t, 10, ""), g, spk, store)
	err := e.Run(context.Background())
	var gerr *GuideError
	if !errors.As(err, &gerr) {
		t.Fatalf("Run: %v, want a GuideError", err)
	}
	st := store.last()
	if st.Status != Interrupted {
		t.Fatalf("status %s, want interrupted", st.Status)
	}
	last := st.History[len(st.History)-1]
	if last.Role != RoleSystem || !strings.Contains(last.Text, "503") {
		t.Errorf("the error is not in the history: %+v", last)
	}
	// The provider recovers: the same engine runs on.
	g.mu.Lock()
	g.failFrom = 0
	g.mu.Unlock()
	if err := e.Run(context.Background()); err != nil {
		t.Fatalf("second Run: %v", err)
	}
	if e.Snapshot().Status != Completed {
		t.Error("not completed")
	}
}

func TestGuideFailureFallsBack(t *testing.T) {
	spk := newFakeSpeaker()
	g := &scriptGuide{name: "remote", failFrom: 5}
	fb := &scriptGuide{name: "builtin"}
	e, err := New(newSession(t, 10, ""), Config{Screen: fakeScreen{}, Guide: g, Fallback: fb, Speaker: spk})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	st := e.Snapshot()
	if st.Status != Completed || st.Guide != "builtin" {
		t.Fatalf("status %s on guide %s", st.Status, st.Guide)
	}
	var notes []string
	for _, h := range st.History {
		if h.Role == RoleSystem {
			notes = append(notes, h.Text)
		}
	}
	// The hand-over says why, and to whom.
	if len(notes) != 2 || !strings.Contains(notes[0], "503") || notes[1] != "503 service unavailable. Continuing with the built-in guide." {
		t.Errorf("system notes %q", notes)
	}
}

func TestVoiceFailureGoesOnAsText(t *testing.T) {
	spk := newFakeSpeaker()
	spk.failWith = errors.New("espeak-ng: exit status 1")
	e := newEngine(t, newSession(t, 5, ""), &scriptGuide{}, spk, nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := e.Snapshot()
	if st.Status != Completed {
		t.Fatal(st.Status)
	}
	var notices int
	for _, h := range st.History {
		if h.Role == RoleSystem && strings.Contains(h.Text, "voice failed") {
			notices++
		}
	}
	if notices != 1 {
		t.Errorf("%d voice notices, want exactly 1", notices)
	}
	if off := st.Elapsed - st.Length; off < -st.Length/20 || off > st.Length/20 {
		t.Errorf("text-only pacing: %v for %v", st.Elapsed, st.Length)
	}
}

func TestFailedSaveKeepsRunningAndSaysSo(t *testing.T) {
	store := &memStore{fail: errors.New("no space left on device")}
	e := newEngine(t, newSession(t, 5, ""), &scriptGuide{}, newFakeSpeaker(), store)
	ctx, cancel := context.WithCancel(context.Background())
	events := collect(ctx, e.Subscribe())
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	var errs int
	for _, ev := range <-events {
		if ev.Kind == EventError && strings.Contains(ev.Text, "not saved") {
			errs++
		}
	}
	if errs != 1 {
		t.Errorf("%d 'not saved' errors, want one for the whole failing streak", errs)
	}
	if e.Snapshot().Status != Completed {
		t.Error("a failing disk stopped the session")
	}
}

func TestCrisisIntentionIsRefused(t *testing.T) {
	st := newSession(t, 10, "I want to die")
	_, err := New(st, Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: newFakeSpeaker()})
	if !errors.Is(err, errCrisis) {
		t.Fatalf("New: %v, want the screen's refusal", err)
	}
}

func TestLeftRunningBecomesAnInterruption(t *testing.T) {
	spk := newFakeSpeaker()
	store := &memStore{}
	e := newEngine(t, newSession(t, 5, ""), &scriptGuide{}, spk, store)
	ctx, cancel := context.WithCancel(context.Background())
	spk.onPlay = func(l Line, n int) {
		if n == 5 {
			cancel() // the process "dies": no pause
		}
	}
	_ = e.Run(ctx)
	crashed := store.last()
	if crashed.Status != Running {
		t.Fatalf("status %s", crashed.Status)
	}
	e2 := newEngine(t, crashed, &scriptGuide{}, newFakeSpeaker(), store)
	if err := e2.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var note bool
	for _, h := range e2.Snapshot().History {
		note = note || h.Role == RoleSystem && strings.Contains(h.Text, "stopped unexpectedly")
	}
	if !note {
		t.Error("no note of the unexpected stop")
	}
}

func TestInvalidStateRefused(t *testing.T) {
	st := newSession(t, 10, "")
	st.Phases[Sensory].Status = PhaseCompleted
	if _, err := New(st, Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: newFakeSpeaker()}); err == nil {
		t.Error("a phase completed before its predecessors started was accepted")
	}
	st = newSession(t, 10, "")
	st.Length = 90 * time.Minute
	if _, err := New(st, Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: newFakeSpeaker()}); err == nil {
		t.Error("a 90-minute session was accepted")
	}
}

func TestSubscriptionResyncsAfterFallingBehind(t *testing.T) {
	var f feed
	sub := f.subscribe()
	for i := 0; i < ringSize+10; i++ {
		f.publish(Event{Kind: EventSentence, Index: i})
	}
	evs, err := sub.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if evs[0].Kind != EventResync {
		t.Fatalf("first event %s, want resync", evs[0].Kind)
	}
	if len(evs) != ringSize+1 || evs[1].ID != 11 || evs[len(evs)-1].ID != ringSize+10 {
		t.Errorf("got %d events from %d to %d", len(evs), evs[1].ID, evs[len(evs)-1].ID)
	}
	f.publish(Event{Kind: EventNotice})
	evs, _ = sub.Next(context.Background())
	if len(evs) != 1 || evs[0].Kind != EventNotice {
		t.Errorf("then %v", evs)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := sub.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting with nothing new: %v", err)
	}
}

// unsafeGuide only ever writes lines the safety check drops.
type unsafeGuide struct{ calls int }

func (g *unsafeGuide) Name() string { return "unsafe" }
func (g *unsafeGuide) Stream(context.Context, Request) (Stream, error) {
	g.calls++
	return &chunkStream{text: "Hold your breath for a full minute. Breathe as fast as you can. "}, nil
}

func TestGuideOfOnlyFlaggedLinesDoesNotLoop(t *testing.T) {
	g := &unsafeGuide{}
	e := newEngine(t, newSession(t, 5, ""), g, newFakeSpeaker(), nil)
	done := make(chan error, 1)
	go func() { done <- e.Run(context.Background()) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the engine kept asking a guide that only writes flagged lines (%d calls)", g.calls)
	}
	st := e.Snapshot()
	if st.Spoken() != 0 || st.Dropped() != 2*g.calls {
		t.Errorf("spoke %d, dropped %d over %d calls", st.Spoken(), st.Dropped(), g.calls)
	}
	if g.calls != 2*len(Phases) {
		t.Errorf("%d calls, want a body and a wind-down per phase", g.calls)
	}
}

func TestRequestsCountThePlayingSentenceAsPending(t *testing.T) {
	g := &scriptGuide{}
	e := newEngine(t, newSession(t, 10, ""), g, newFakeSpeaker(), nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var withPending int
	for _, r := range g.requests {
		said := 0
		for _, h := range r.History {
			if h.Role == RoleGuide && h.Phase == r.Phase {
				said++
			}
		}
		if said+len(r.Pending) != r.Spoken {
			t.Errorf("%s call at %d: %d said in the phase + %d pending", r.Phase, r.Spoken, said, len(r.Pending))
		}
		if len(r.Pending) > 0 {
			withPending++
		}
	}
	if withPending == 0 {
		t.Error("no request was made while a sentence played; the test proves nothing")
	}
}
