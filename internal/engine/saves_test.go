package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// heldStore lets every save through at once, except one it is armed for:
// that one reads the state it was given, waits to be released, and reads
// it again. A store encodes what it is given while the engine goes on;
// the state must not change under it.
type heldStore struct {
	mu      sync.Mutex
	armed   bool
	saving  chan struct{} // closed when the armed save has begun
	release chan struct{} // the armed save goes on when this is closed
	before  string        // the armed save's Stored, as it began
	after   string        // and once released
}

func newHeldStore() *heldStore {
	return &heldStore{saving: make(chan struct{}), release: make(chan struct{})}
}

func (s *heldStore) arm() { s.mu.Lock(); s.armed = true; s.mu.Unlock() }

func (s *heldStore) Save(st State) error {
	s.mu.Lock()
	armed := s.armed
	s.armed = false
	s.mu.Unlock()
	if !armed {
		return nil
	}
	close(s.saving)
	before := storedIDs(st.Stored) // as an encoder would, while forget runs
	<-s.release
	after := storedIDs(st.Stored)
	s.mu.Lock()
	s.before, s.after = before, after
	s.mu.Unlock()
	return nil
}

func (s *heldStore) Transcribe(Entry) error { return nil }

// gatedForgetter forgets the first two responses once told to.
type gatedForgetter struct {
	called  chan struct{}
	proceed <-chan struct{}
}

func storedIDs(stored []Stored) string {
	var ids []string
	for _, s := range stored {
		ids = append(ids, s.ID)
	}
	return strings.Join(ids, ",")
}

func (f *gatedForgetter) Forget(_ context.Context, _ string, ids []string) ([]string, error) {
	close(f.called)
	<-f.proceed
	return ids[:2], nil
}

// within waits for ch, failing the test after a deadline that only
// bounds a failure.
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(30 * time.Second):
		t.Fatalf("waited 30 s for %s", what)
	}
}

// forget drops the responses a provider deleted from the session while a
// checkpoint on another goroutine may be encoding the same state: it must
// make a new list, not compact the old one in place (a data race, and a
// save that writes a list nobody had).
func TestForgetLeavesASaveUnderWayAlone(t *testing.T) {
	st := newSession(t, 5, "")
	st.Stored = []Stored{{ID: "resp_a"}, {ID: "resp_b"}, {ID: "resp_c"}}
	store := newHeldStore()
	forgetter := &gatedForgetter{called: make(chan struct{}), proceed: store.saving}
	e, err := New(st, Config{Screen: fakeScreen{}, Guide: &scriptGuide{}, Speaker: newFakeSpeaker(), Store: store, Forgetter: forgetter,
		Now: func() time.Time { return epoch }})
	if err != nil {
		t.Fatal(err)
	}

	abandoned := make(chan error, 1)
	go func() { abandoned <- e.Abandon() }() // saves, then forgets
	within(t, forgetter.called, "the provider to be asked to forget")
	store.arm()
	set := make(chan struct{})
	go func() { e.SetSoundscape("rain"); close(set) }() // a checkpoint, held in Save
	// Once forget has dropped what the provider deleted, let the held
	// save finish reading what it was given.
	for deadline := time.Now().Add(30 * time.Second); storedIDs(e.Snapshot().Stored) != "resp_c"; {
		if time.Now().After(deadline) {
			t.Fatalf("forget never dropped the deleted responses: %v", e.Snapshot().Stored)
		}
		time.Sleep(time.Millisecond)
	}
	close(store.release)
	within(t, set, "the held save")
	if err := <-abandoned; err != nil {
		t.Fatal(err)
	}
	store.mu.Lock()
	defer store.mu.Unlock()
	if want := "resp_a,resp_b,resp_c"; store.before != want || store.after != want {
		t.Errorf("the save under way was given %q and then found %q: the list changed under it (want %q both times)",
			store.before, store.after, want)
	}
}

// flakyStore fails every save and transcript line while down.
type flakyStore struct {
	memStore
	down bool
}

func (s *flakyStore) setDown(down bool) {
	s.mu.Lock()
	s.down = down
	s.mu.Unlock()
}

func (s *flakyStore) isDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.down
}

func (s *flakyStore) Save(st State) error {
	if s.isDown() {
		return errors.New("writing session.yaml.tmp: no space left on device")
	}
	return s.memStore.Save(st)
}

func (s *flakyStore) Transcribe(e Entry) error {
	if s.isDown() {
		return errors.New("writing transcript.md: no space left on device")
	}
	return s.memStore.Transcribe(e)
}

// While saves fail, every checkpoint tries again, the transcript's lines
// too: once the disk takes them again the transcript holds every sentence
// in order, with no gap where the disk was full.
func TestFailedSavesAreRetriedWithoutAGap(t *testing.T) {
	spk := newFakeSpeaker()
	store := &flakyStore{}
	e := newEngine(t, newSession(t, 5, ""), &scriptGuide{}, spk, store)
	spk.onPlay = func(_ Line, n int) {
		switch n {
		case 3:
			store.setDown(true)
		case 8:
			store.setDown(false)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	events := collect(ctx, e.Subscribe())
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	cancel()
	var failed, again int
	for _, ev := range <-events {
		switch {
		case ev.Kind == EventError && strings.HasPrefix(ev.Text, "not saved: "):
			failed++
		case ev.Kind == EventNotice && ev.Text == "saved again":
			again++
		}
	}
	if failed != 1 || again != 1 {
		t.Errorf("%d 'not saved' and %d 'saved again', want one of each", failed, again)
	}
	var said []string
	for _, en := range store.transcript {
		said = append(said, en.Text)
	}
	final := e.Snapshot()
	if want := final.Said(); !slices.Equal(said, want) {
		t.Errorf("the transcript holds %d lines, the session spoke %d: every spoken line must reach it, in order", len(said), len(want))
	}
	if last := store.last(); last.Status != Completed {
		t.Errorf("the last save is %s, want completed", last.Status)
	}
}

// The engine keeps the truth about its last checkpoint for whoever says
// "saved": a session that completed on a full disk is not saved, and one
// save that works again makes it so.
func TestLastSaveTellsTheTruth(t *testing.T) {
	spk := newFakeSpeaker()
	store := &flakyStore{}
	e := newEngine(t, newSession(t, 5, ""), &scriptGuide{}, spk, store)
	spk.onPlay = func(_ Line, n int) {
		if n == 3 {
			store.setDown(true) // and it stays full to the end
		}
	}
	if err := e.LastSave(); err != nil {
		t.Fatalf("before any checkpoint: %v", err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if e.Snapshot().Status != Completed {
		t.Fatal("a full disk stopped the session")
	}
	err := e.LastSave()
	if err == nil || !strings.Contains(err.Error(), "no space left on device") {
		t.Fatalf("LastSave after completing on a full disk: %v", err)
	}
	if last := store.last(); last.Status == Completed {
		t.Fatal("the store has a completed session it was never given")
	}
	store.setDown(false)
	e.SetSoundscape("rain") // any checkpoint
	if err := e.LastSave(); err != nil {
		t.Errorf("after a save that worked: %v", err)
	}
	if last := store.last(); last.Status != Completed || len(store.transcript) != last.Spoken() {
		t.Errorf("the save that worked holds %s with %d of %d lines transcribed", last.Status, len(store.transcript), last.Spoken())
	}
}
