package engine

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// panickySpeaker panics the first time it is asked to play a line.
type panickySpeaker struct {
	*fakeSpeaker
	once sync.Once
}

func (s *panickySpeaker) Play(ctx context.Context, u Utterance) error {
	s.once.Do(func() { panic("the sound card fell over") })
	return s.fakeSpeaker.Play(ctx, u)
}

// A panic in a speaker call becomes the call's error, and the log keeps
// the stack it happened on, to be found again.
func TestASpeakerPanicIsLoggedWithItsStack(t *testing.T) {
	st, err := NewState("panic", Options{Length: 5 * time.Minute, Seed: 1}, epoch)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	w := &lockedWriter{w: &log}
	e, err := New(st, Config{Screen: fakeScreen{}, Guide: &scriptGuide{lines: prose, leads: proseLeads},
		Speaker: &panickySpeaker{fakeSpeaker: newFakeSpeaker()}, Now: func() time.Time { return epoch },
		Logger: slog.New(slog.NewTextHandler(w, nil))})
	if err != nil {
		t.Fatal(err)
	}
	_ = e.Run(context.Background()) // how the session goes on is the engine's other tests' business
	w.mu.Lock()
	defer w.mu.Unlock()
	got := log.String()
	if !strings.Contains(got, "speaker panic") || !strings.Contains(got, "the sound card fell over") {
		t.Fatalf("the panic is not in the log:\n%s", got)
	}
	if !strings.Contains(got, "stack=") || !strings.Contains(got, "goroutine ") || !strings.Contains(got, "panic_test.go") {
		t.Errorf("the log has no stack for the panic:\n%s", got)
	}
}
