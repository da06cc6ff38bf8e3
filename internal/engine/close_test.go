package engine

import (
	"context"
	"strings"
	"testing"
)

// A model asked for resolution's close writes seven lines, some of forty
// words, the last a farewell: the close is fitted to the time the phase
// has left — its first line and its farewell always said, the lines
// between that do not fit left out — and the session ends on time.
func TestResolutionCloseFitsItsTimeAndKeepsTheFarewell(t *testing.T) {
	for _, minutes := range []int{5, 10, 20, 30} {
		g := &modelGuide{}
		logs := &logBuffer{}
		spk := newFakeSpeaker()
		e, err := New(newSession(t, minutes, ""), Config{Screen: fakeScreen{}, Guide: g, Speaker: spk, Logger: logs.logger()})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		st := e.Snapshot()
		if off := float64(st.Elapsed-st.Length) / float64(st.Length); off < -0.01 || off > 0.01 {
			t.Errorf("%d min: took %v (%+.2f%%)", minutes, st.Elapsed, off*100)
		}
		said := saidIn(st, Resolution)
		var close []string
		for _, l := range said {
			if strings.HasPrefix(l, "Gently begin") || strings.HasPrefix(l, "Thank you") {
				close = append(close, l)
			}
		}
		t.Logf("%d min: resolution said %d lines, %d of the close's 7", minutes, len(said), len(close))
		if len(close) < 2 || !strings.HasPrefix(said[len(said)-1], "Thank you") || !strings.HasSuffix(close[0], " 0.") {
			t.Errorf("%d min: the close said %q", minutes, close)
		}
		if len(close) < 7 && !strings.Contains(logs.String(), "close shortened") {
			t.Errorf("%d min: lines of the close were left out unlogged", minutes)
		}
		if st.Phases[Resolution].Budget.Sentences != len(said) {
			t.Errorf("%d min: resolution's budget says %d lines, %d were said", minutes, st.Phases[Resolution].Budget.Sentences, len(said))
		}
	}
}
