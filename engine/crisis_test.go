package engine

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The crisis screen's targets (issue 9): at least this share of crisis
// phrasings caught, at most this share of ordinary intentions refused.
const (
	crisisCaughtTarget    = 0.95
	ordinaryRefusedTarget = 0.01
)

// corpus is one file of testdata/crisis: intentions, one a line.
type corpus struct {
	file   string
	crisis bool // every line must be met with help
	// heldOut files were written after the signs were, and not looked at
	// while writing them: they measure how the screen generalizes.
	heldOut bool
}

var crisisCorpora = []corpus{
	{"crisis.txt", true, false},
	{"ordinary.txt", false, false},
	{"crisis_heldout.txt", true, true},
	{"ordinary_heldout.txt", false, true},
}

func readCorpus(t *testing.T, name string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "crisis", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// tally counts how one side of the corpus fared.
type tally struct{ flagged, total int }

func (c tally) rate() float64 { return float64(c.flagged) / float64(max(c.total, 1)) }

func TestCrisisScreenCorpus(t *testing.T) {
	s := DefaultSafety()
	var all, held [2]tally // [0] ordinary, [1] crisis
	for _, c := range crisisCorpora {
		lines := readCorpus(t, c.file)
		side := 0
		if c.crisis {
			side = 1
		}
		for _, l := range lines {
			err := s.ScreenIntention(l)
			_, refused := err.(*CrisisError)
			if err != nil && !refused {
				t.Errorf("%q: %v, want nil or a CrisisError", l, err)
			}
			if refused {
				all[side].flagged++
				if c.heldOut {
					held[side].flagged++
				}
			}
			switch {
			case c.crisis && !refused:
				t.Logf("missed (%s): %q", c.file, l)
			case !c.crisis && refused:
				t.Logf("refused (%s): %q — %v", c.file, l, err)
			}
		}
		all[side].total += len(lines)
		if c.heldOut {
			held[side].total += len(lines)
		}
	}
	t.Logf("crisis phrasings caught:     %3d/%3d = %5.1f %% (target ≥ %.0f %%); held out %d/%d = %.1f %%",
		all[1].flagged, all[1].total, 100*all[1].rate(), 100*crisisCaughtTarget, held[1].flagged, held[1].total, 100*held[1].rate())
	t.Logf("ordinary intentions refused: %3d/%3d = %5.1f %% (target ≤ %.0f %%); held out %d/%d = %.1f %%",
		all[0].flagged, all[0].total, 100*all[0].rate(), 100*ordinaryRefusedTarget, held[0].flagged, held[0].total, 100*held[0].rate())
	if all[1].total < 80 || all[0].total < 150 {
		t.Errorf("the corpus has %d crisis and %d ordinary lines, want at least 80 and 150", all[1].total, all[0].total)
	}
	if all[1].rate() < crisisCaughtTarget {
		t.Errorf("caught %.1f %% of crisis phrasings, want at least %.0f %%", 100*all[1].rate(), 100*crisisCaughtTarget)
	}
	if all[0].rate() > ordinaryRefusedTarget {
		t.Errorf("refused %.1f %% of ordinary intentions, want at most %.0f %%", 100*all[0].rate(), 100*ordinaryRefusedTarget)
	}
}

// The phrasings issue 9 saw start a session.
func TestCrisisScreenIssueExamples(t *testing.T) {
	s := DefaultSafety()
	for _, l := range []string{
		"I don't want to be here anymore",
		"I'd be better off dead",
		"kms",
		"thinking of ending it all",
		"I don't see the point of living anymore",
		"I feel hopeless and can't go on",
		"sleep, I feel hopeless and want it all to stop",
	} {
		if _, ok := s.ScreenIntention(l).(*CrisisError); !ok {
			t.Errorf("%q started a session, want help", l)
		}
	}
}

func TestNormalizeIntention(t *testing.T) {
	for in, want := range map[string]string{
		"I don’t WANNA diiie!!":          "i dont want to die",
		"I'd be beter off ded...":        "id be better off dead",
		"s*icide thoughts":               "suicide thoughts",
		"k1ll my self":                   "kill myself",
		"sleep, I feel hopeless":         "sleep , i feel hopeless",
		"self-harm":                      "self harm",
		"wake at 4am, 1 hour":            "wake at 4am , 1 hour",
		"i do not want to live any more": "i dont want to live anymore",
		"I wnat to end my lfie":          "i want to end my life",
		"homeless and tired":             "homeless and tired",
	} {
		if got := normalizeIntention(in); got != want {
			t.Errorf("normalizeIntention(%q) = %q, want %q", in, got, want)
		}
	}
}
