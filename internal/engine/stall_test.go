package engine

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// The views are told while the guide is awaited — the filler's lines
// included — and no longer once its own words play.
func TestViewsAreToldWhileTheGuideIsAwaited(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &modelGuide{stalls: map[Phase]map[int]time.Duration{Relaxation: {1: 40 * time.Second}}}
		spk := newLiveSpeaker()
		e, err := New(newSession(t, 10, ""), Config{Screen: fakeScreen{}, Guide: g, Filler: &scriptGuide{name: "builtin"}, Speaker: spk})
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		waiting := map[string]bool{}
		spk.onPlay = func(l Line) {
			mu.Lock()
			waiting[l.Text] = e.Progress().Waiting
			mu.Unlock()
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		var filled int
		st := e.Snapshot()
		for _, l := range st.Said() {
			fill := strings.Contains(l, "builtin")
			if fill {
				filled++
			}
			if waiting[l] != fill {
				t.Errorf("%q played with Waiting %v", l, waiting[l])
			}
		}
		if filled == 0 {
			t.Fatal("nothing was filled: the test proves nothing")
		}
		if e.Progress().Waiting {
			t.Error("still waiting after the session")
		}
	})
}
