package engine

import (
	"context"
	"sync"
	"time"
)

// EventKind names what happened.
type EventKind string

const (
	EventPhaseStarted EventKind = "phase_started"
	EventSentence     EventKind = "sentence"
	EventTransition   EventKind = "phase_transition"
	EventStatus       EventKind = "status"
	EventError        EventKind = "error"
	EventNotice       EventKind = "notice"
	EventCompleted    EventKind = "completed"
	// EventDrifting follows a sleep session's completion: its soundscape
	// plays on after the last word, for Duration. It comes again when the
	// listener pauses (Status Paused) or resumes (Status Running) that
	// sound, with Duration what is left of it.
	EventDrifting EventKind = "drifting"
	// EventResync tells a subscriber it fell too far behind: rebuild the
	// view from Engine.Snapshot and carry on from this event.
	EventResync EventKind = "resync"
)

// Event is one thing that happened in a session, in order: IDs only grow.
type Event struct {
	ID     uint64
	At     time.Time
	Kind   EventKind
	Phase  Phase  // the phase it happened in (the new phase for a transition)
	From   Phase  // transition: the phase that ended
	Index  int    // sentence: its index within the phase
	Text   string // sentence text, error or notice message
	Status Status // status: the new status; drifting: whether the sound plays
	Prev   Status // status: the old status

	Duration time.Duration // sentence: how long it is spoken; drifting: how long the sound plays on
	// GuideFailed marks an error that is a guide's failure, quoted as the
	// server gave it: a listener is told in plain words elsewhere.
	GuideFailed bool
}

// ringSize is how many recent events a late view can catch up on.
const ringSize = 512

// feed numbers events, keeps the recent ones and wakes subscribers.
type feed struct {
	mu     sync.Mutex
	ring   [ringSize]Event
	last   uint64 // ID of the newest event; IDs start at 1
	waking []chan struct{}
}

func (f *feed) publish(e Event) Event {
	f.mu.Lock()
	f.last++
	e.ID = f.last
	f.ring[e.ID%ringSize] = e
	subs := f.waking
	f.mu.Unlock()
	for _, ch := range subs {
		select {
		case ch <- struct{}{}:
		default: // already woken; it will read everything new
		}
	}
	return e
}

// since returns the events after id. ok is false when some of them have
// already left the ring.
func (f *feed) since(id uint64) (events []Event, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id >= f.last {
		return nil, true
	}
	first := id + 1
	if f.last-id > ringSize {
		first = f.last - ringSize + 1
		ok = false
	} else {
		ok = true
	}
	for n := first; n <= f.last; n++ {
		events = append(events, f.ring[n%ringSize])
	}
	return events, ok
}

func (f *feed) subscribe() *Subscription {
	ch := make(chan struct{}, 1)
	f.mu.Lock()
	f.waking = append(f.waking, ch)
	f.mu.Unlock()
	return &Subscription{feed: f, wake: ch}
}

func (f *feed) unsubscribe(ch chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, c := range f.waking {
		if c == ch {
			f.waking = append(f.waking[:i], f.waking[i+1:]...)
			return
		}
	}
}

// Subscription follows a session's events from the first one on. It never
// blocks the engine: events wait in the ring until Next reads them.
type Subscription struct {
	feed *feed
	wake chan struct{}
	last uint64
}

// Next returns every event since the previous call, waiting for at least
// one. When the subscriber fell further behind than the ring reaches, the
// batch starts with an EventResync.
func (s *Subscription) Next(ctx context.Context) ([]Event, error) {
	for {
		events, ok := s.feed.since(s.last)
		if len(events) > 0 {
			s.last = events[len(events)-1].ID
			if !ok {
				resync := Event{At: events[0].At, Kind: EventResync}
				events = append([]Event{resync}, events...)
			}
			return events, nil
		}
		select {
		case <-s.wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Close stops the subscription.
func (s *Subscription) Close() { s.feed.unsubscribe(s.wake) }
