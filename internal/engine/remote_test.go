package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// remoteGuide is a provider that stores its responses: each call's
// stream has a receipt, complete only when it was read to its end.
type remoteGuide struct {
	mu        sync.Mutex
	provider  string
	extra     int          // body sentences written beyond what was asked: the engine cuts the call
	empty     map[int]bool // calls (by number) that reply with nothing
	calls     int
	requests  []Request
	streams   []*receiptStream
	forgot    [][]string
	forgotAt  []string // the server each forget was asked at
	forgetErr error
	server    string // what Server says
}

func (g *remoteGuide) Name() string     { return "remote" }
func (g *remoteGuide) Model() string    { return "model-x" }
func (g *remoteGuide) Provider() string { return g.provider }
func (g *remoteGuide) Server() string   { return g.server }

func (g *remoteGuide) Stream(ctx context.Context, req Request) (Stream, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls++
	g.requests = append(g.requests, req)
	n := req.Budget.WindDownAt - req.Spoken + g.extra
	if req.WindDown {
		n = max(1, req.Budget.Sentences-req.Spoken)
	}
	if g.empty[g.calls] {
		n = 0
	}
	var b strings.Builder
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "%s call %d line %d. ", req.Phase.Title(), g.calls, k)
	}
	st := &receiptStream{chunkStream: chunkStream{text: b.String()}, id: fmt.Sprintf("resp_%d", g.calls)}
	g.streams = append(g.streams, st)
	return st, nil
}

func (g *remoteGuide) Forget(ctx context.Context, server string, ids []string) ([]string, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.forgot = append(g.forgot, slices.Clone(ids))
	g.forgotAt = append(g.forgotAt, server)
	if g.forgetErr != nil {
		return ids[:1], g.forgetErr
	}
	return ids, nil
}

type receiptStream struct {
	chunkStream
	id    string
	ended bool
}

func (s *receiptStream) Next(ctx context.Context) (string, error) {
	text, err := s.chunkStream.Next(ctx)
	if err != nil && ctx.Err() == nil {
		s.ended = true
	}
	return text, err
}

// Receipt says the response completed once all its text was read: the
// provider finished it whether or not the engine asked for the end.
func (s *receiptStream) Receipt() Receipt {
	return Receipt{ResponseID: s.id, Completed: s.ended || s.text == "", Stored: []string{s.id},
		Tokens: Tokens{In: 100, Out: 20}, Cost: 0.001}
}

func TestRemoteCallsAreChainedBookedAndForgotten(t *testing.T) {
	g := &remoteGuide{provider: "http://x/v1#model-x"}
	store := &memStore{}
	e := newEngine(t, newSession(t, 10, ""), g, newFakeSpeaker(), store)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := store.last()
	if st.Status != Completed {
		t.Fatalf("status %s", st.Status)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.requests[0].Chain != "" {
		t.Errorf("the first call chains from %q", g.requests[0].Chain)
	}
	// Each call chains from the last one that completed before it (a call
	// the engine cut short, its phase running long, is not chained from).
	want, cut := "", 0
	for i, r := range g.requests {
		if r.Chain != want {
			t.Errorf("call %d chains from %q, want %q", i+1, r.Chain, want)
		}
		if s := g.streams[i]; s.ended || s.text == "" {
			want = s.id
		} else {
			cut++
		}
	}
	if cut > 1 {
		t.Errorf("%d of %d calls were cut short", cut, len(g.requests))
	}
	total := st.Tokens()
	if want := (Tokens{In: 100 * g.calls, Out: 20 * g.calls}); total != want || st.Summary.Tokens != want {
		t.Errorf("tokens %+v, summary %+v, want %+v", total, st.Summary.Tokens, want)
	}
	for _, r := range st.Phases {
		if r.Tokens.In == 0 {
			t.Errorf("%s has no tokens booked", r.Phase)
		}
	}
	if got := st.Summary.Cost; got < 0.001*float64(g.calls)-1e-9 || got > 0.001*float64(g.calls)+1e-9 {
		t.Errorf("cost %v for %d calls", got, g.calls)
	}
	if len(st.Runs) != 1 || st.Runs[0].Guide != "remote" || st.Runs[0].Model != "model-x" || st.Model != "model-x" {
		t.Errorf("runs %+v, model %q", st.Runs, st.Model)
	}
	if len(g.forgot) != 1 || len(g.forgot[0]) != g.calls {
		t.Errorf("forgot %v after %d calls", g.forgot, g.calls)
	}
	if len(st.Stored) != 0 {
		t.Errorf("still stored after the end: %v", st.Stored)
	}
}

func TestCallCutShortIsNotChained(t *testing.T) {
	g := &remoteGuide{provider: "p", extra: 5}
	e := newEngine(t, newSession(t, 10, ""), g, newFakeSpeaker(), nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	// Body calls write more than the phase takes, so the engine cuts one
	// to lead on: the next call continues the last whole response and is
	// told what the cut call said.
	var found bool
	for i, r := range g.requests[1:] {
		if len(r.Unchained) == 0 {
			continue
		}
		found = true
		prev := fmt.Sprintf("call %d line", i+1)
		for _, l := range r.Unchained {
			if !strings.Contains(l, prev) {
				t.Errorf("call %d: unchained line %q is not from the cut call before it", i+2, l)
			}
		}
		if r.Chain == fmt.Sprintf("resp_%d", i+1) {
			t.Errorf("call %d chains from the call that was cut", i+2)
		}
	}
	if !found {
		t.Error("no call after a cut one carried the cut call's lines")
	}
}

func TestChainOnlyAtItsProvider(t *testing.T) {
	st := newSession(t, 10, "")
	st.Chain = Chain{ResponseID: "resp_old", Provider: "elsewhere#m", Unchained: []string{"A line."}}
	g := &remoteGuide{provider: "here#m"}
	e := newEngine(t, st, g, newFakeSpeaker(), nil)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if r := g.requests[0]; r.Chain != "" || r.Unchained != nil {
		t.Errorf("a chain from another provider was passed on: %q %q", r.Chain, r.Unchained)
	}
}

func TestAbandonForgetsAndFailedForgetKeepsIDs(t *testing.T) {
	g := &remoteGuide{provider: "p", forgetErr: errors.New("network down")}
	spk := newFakeSpeaker()
	store := &memStore{}
	e := newEngine(t, newSession(t, 10, ""), g, spk, store)
	spk.onPlay = func(l Line, n int) {
		if n == 8 {
			e.Abandon() // before the line plays: the run cannot finish first
		}
	}
	if err := e.Run(context.Background()); !errors.Is(err, ErrAbandoned) {
		t.Fatalf("Run: %v", err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.forgot) != 1 {
		t.Fatalf("forget called %d times", len(g.forgot))
	}
	st := store.last()
	if want := len(g.forgot[0]) - 1; len(st.Stored) != want {
		t.Errorf("%d ids kept after a forget that managed one of %d", len(st.Stored), len(g.forgot[0]))
	}
}

// Each stored response is recorded with the server that keeps it and
// deleted there: a session that moved from one server to another asks
// each for its own, never the new one for the old one's.
func TestStoredResponsesAreForgottenWhereTheyLive(t *testing.T) {
	st := newSession(t, 5, "")
	st.Stored = []Stored{{ID: "resp_old", Server: "http://first/v1"}}
	g := &remoteGuide{provider: "http://second/v1#model-x", server: "http://second/v1"}
	rec := &remoteGuide{} // records what it is asked to forget, and where
	store := &memStore{}
	e, err := New(st, Config{Screen: fakeScreen{}, Guide: g, Speaker: newFakeSpeaker(), Store: store, Forgetter: rec,
		Now: func() time.Time { return epoch }})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.forgotAt) != 2 || rec.forgotAt[0] != "http://first/v1" || rec.forgotAt[1] != "http://second/v1" {
		t.Fatalf("asked to forget at %q, want the first server, then the second", rec.forgotAt)
	}
	if !slices.Equal(rec.forgot[0], []string{"resp_old"}) {
		t.Errorf("the first server was asked for %q", rec.forgot[0])
	}
	if len(rec.forgot[1]) == 0 || slices.Contains(rec.forgot[1], "resp_old") {
		t.Errorf("the second server was asked for %q", rec.forgot[1])
	}
	if left := store.last().Stored; len(left) != 0 {
		t.Errorf("still stored after the end: %v", left)
	}
}
