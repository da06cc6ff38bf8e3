package engine

import (
	"context"
	"math"
	"testing"
)

// Each call's cost is booked to the phase it was made in, and the phases'
// costs add up to the session's.
func TestCostIsBookedPerPhase(t *testing.T) {
	g := &remoteGuide{provider: "p"}
	store := &memStore{}
	e := newEngine(t, newSession(t, 10, ""), g, newFakeSpeaker(), store)
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := store.last()
	g.mu.Lock()
	calls := map[Phase]int{}
	for _, r := range g.requests {
		calls[r.Phase]++
	}
	g.mu.Unlock()
	sum := 0.0
	for _, r := range st.Phases {
		// receiptStream's receipt costs 0.001 a call.
		if want := 0.001 * float64(calls[r.Phase]); calls[r.Phase] == 0 || math.Abs(r.Cost-want) > 1e-12 {
			t.Errorf("%s: cost %v for %d calls, want %v", r.Phase, r.Cost, calls[r.Phase], want)
		}
		sum += r.Cost
	}
	if math.Abs(sum-st.Cost) > 1e-12 {
		t.Errorf("phases cost %v in all, the session %v", sum, st.Cost)
	}
}
