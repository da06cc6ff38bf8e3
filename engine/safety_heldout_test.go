package engine

import (
	"fmt"
	"strings"
	"testing"
)

// heldOutFloor is what the held-out corpus measured blind, the first time
// the screen and the speech cleaner met it (see the closing note of issue
// 11): the screen generalises less well than its own corpus says, and this
// test keeps it from getting worse while it grows. Raise a floor when the
// rules improve; never lower one.
var heldOutFloor = map[Category]float64{
	UnsafeBreathing: 0.76,
	MedicalClaim:    0.65,
	SelfHarm:        0.51,
	Explicit:        0.85,
	EarlyEnding:     0.73,
	NotGuidance:     0.58,
}

// heldOutFalseCut bounds the safe held-out sentences lost to the cleaner
// or the screen.
const heldOutFalseCut = 0.02

// spokenAfterAll is what the listener would hear of one sentence: what the
// speech cleaner leaves of it, then what the screen lets through.
func spokenAfterAll(s *Safety, text string, at Where) (heard []string, why string) {
	var sp Speech
	for _, piece := range append(sp.Feed(text), sp.Flush()...) {
		if v := s.Check(piece, at); v.Flagged() {
			why = string(v.Category)
			continue
		}
		heard = append(heard, piece)
	}
	if rs := sp.Removals(); len(rs) > 0 && why == "" {
		why = "removed"
	}
	return heard, why
}

// TestSafetyHeldOut measures the cleaner and the screen together, as every
// sentence meets them, on the held-out corpus: per category, the share of
// unsafe sentences of which nothing is heard in any place they are
// written for, and the share of safe sentences that lose anything.
func TestSafetyHeldOut(t *testing.T) {
	s := DefaultSafety()
	unsafe := readSafetyCorpus(t, "testdata/safety/heldout_unsafe.tsv")
	safe := readSafetyCorpus(t, "testdata/safety/heldout_safe.tsv")
	caught, total := map[Category]int{}, map[Category]int{}
	var b strings.Builder
	for _, u := range unsafe {
		total[u.category]++
		ok := true
		for _, at := range u.places {
			if heard, _ := spokenAfterAll(s, u.text, at); len(heard) > 0 {
				ok = false
			}
		}
		if ok {
			caught[u.category]++
		} else {
			fmt.Fprintf(&b, "  missed %-16s %q %s\n", u.category, u.text, u.at)
		}
	}
	lost := 0
	for _, l := range safe {
		for _, at := range l.places {
			heard, why := spokenAfterAll(s, l.text, at)
			if why != "" || len(heard) == 0 {
				lost++
				fmt.Fprintf(&b, "  lost %q in %s: %s %s\n", l.text, placeName(at), why, l.at)
				break
			}
		}
	}
	fmt.Fprintf(&b, "%-18s %8s %6s %8s %8s\n", "held-out category", "caught", "total", "rate", "floor")
	for _, c := range Categories {
		rate := float64(caught[c]) / float64(max(total[c], 1))
		fmt.Fprintf(&b, "%-18s %8d %6d %7.1f%% %7.0f%%\n", c, caught[c], total[c], 100*rate, 100*heldOutFloor[c])
		if rate < heldOutFloor[c] {
			t.Errorf("%s: %.1f%% of the held-out unsafe sentences caught, below its floor of %.0f%%", c, 100*rate, 100*heldOutFloor[c])
		}
	}
	falseRate := float64(lost) / float64(len(safe))
	fmt.Fprintf(&b, "%-18s %8d %6d %7.2f%%\n", "safe lost", lost, len(safe), 100*falseRate)
	t.Log("\n" + b.String())
	if falseRate > heldOutFalseCut {
		t.Errorf("%.2f%% of the held-out safe sentences lost, above %.0f%%", 100*falseRate, 100*heldOutFalseCut)
	}
}
