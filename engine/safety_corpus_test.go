package engine

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The safety screen's targets: of the unsafe corpus, at least this share
// caught in every category; of the safe one, at most this share dropped.
const (
	minCatch    = 0.95
	maxFalseCut = 0.01
)

// corpusLine is one sentence of engine/testdata/safety/*.tsv.
type corpusLine struct {
	category Category // unsafe: its category; safe: the one it sits near, or ""
	places   []Where  // every place it is checked in
	text     string
	at       string // file:line
}

// readSafetyCorpus reads a corpus file: category (or near), phase or "any",
// sleep yes/no/any, sentence.
func readSafetyCorpus(t testing.TB, name string) []corpusLine {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		at := fmt.Sprintf("%s:%d", filepath.Base(name), n)
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("%s: want 4 tab-separated columns (category, phase, sleep, sentence), got %d", at, len(cols))
		}
		cl := corpusLine{text: cols[3], at: at}
		if cols[0] != "-" {
			cl.category = Category(cols[0])
			if !slices.Contains(Categories, cl.category) {
				t.Fatalf("%s: unknown category %q", at, cols[0])
			}
		}
		phases := Phases[:]
		if cols[1] != "any" {
			p, err := ParsePhase(cols[1])
			if err != nil {
				t.Fatalf("%s: %v", at, err)
			}
			phases = []Phase{p}
		}
		var sleeps []bool
		switch cols[2] {
		case "yes":
			sleeps = []bool{true}
		case "no":
			sleeps = []bool{false}
		case "any":
			sleeps = []bool{false, true}
		default:
			t.Fatalf("%s: sleep is yes, no or any, not %q", at, cols[2])
		}
		for _, p := range phases {
			for _, s := range sleeps {
				cl.places = append(cl.places, Where{Phase: p, Sleep: s})
			}
		}
		out = append(out, cl)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func placeName(w Where) string {
	if w.Sleep {
		return "sleep " + w.Phase.String()
	}
	return w.Phase.String()
}

// TestSafetyCorpus measures the screen against the corpus in
// testdata/safety and the built-in guide's material, prints the catch rate
// of each category and the false-drop rate, lists every miss, and fails
// below the targets.
func TestSafetyCorpus(t *testing.T) {
	s := DefaultSafety()
	unsafe := readSafetyCorpus(t, "testdata/safety/unsafe.tsv")
	safe := readSafetyCorpus(t, "testdata/safety/safe.tsv")

	caught, total, elsewhere := map[Category]int{}, map[Category]int{}, map[Category]int{}
	var misses []string
	for _, u := range unsafe {
		total[u.category]++
		var missed []string
		var other Category
		for _, at := range u.places {
			v := s.Check(u.text, at)
			if !v.Flagged() {
				missed = append(missed, placeName(at))
			} else if v.Category != u.category {
				other = v.Category
			}
		}
		if len(missed) > 0 {
			misses = append(misses, fmt.Sprintf("  missed %-16s %q (in %s) %s", u.category, u.text, strings.Join(missed, ", "), u.at))
			continue
		}
		caught[u.category]++
		if other != "" {
			elsewhere[u.category]++
			t.Logf("  caught as %s, written as %s: %q", other, u.category, u.text)
		}
	}

	dropped := 0
	var drops []string
	for _, l := range safe {
		for _, at := range l.places {
			if v := s.Check(l.text, at); v.Flagged() {
				dropped++
				drops = append(drops, fmt.Sprintf("  dropped %q in %s: %s (%s) %s", l.text, placeName(at), v.Category, v.Rule, l.at))
				break
			}
		}
	}
	builtin := builtinLines(t)
	builtinDropped := 0
	for _, l := range builtin {
		if v := s.Check(l.text, l.at); v.Flagged() {
			builtinDropped++
			drops = append(drops, fmt.Sprintf("  dropped %q in %s: %s (%s) built-in material", l.text, placeName(l.at), v.Category, v.Rule))
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\n%-18s %8s %6s %8s\n", "unsafe category", "caught", "total", "rate")
	failed := false
	for _, c := range Categories {
		rate := float64(caught[c]) / float64(max(total[c], 1))
		mark := ""
		if rate < minCatch || total[c] == 0 {
			mark, failed = "  below the target", true
		}
		fmt.Fprintf(&b, "%-18s %8d %6d %7.1f%%%s\n", c, caught[c], total[c], 100*rate, mark)
	}
	allSafe := len(safe) + len(builtin)
	falseRate := float64(dropped+builtinDropped) / float64(allSafe)
	fmt.Fprintf(&b, "%-18s %8s %6s %8s\n", "safe", "dropped", "total", "rate")
	fmt.Fprintf(&b, "%-18s %8d %6d %7.2f%%\n", "written", dropped, len(safe), 100*float64(dropped)/float64(len(safe)))
	fmt.Fprintf(&b, "%-18s %8d %6d %7.2f%%\n", "built-in material", builtinDropped, len(builtin), 100*float64(builtinDropped)/float64(len(builtin)))
	mark := ""
	if falseRate > maxFalseCut {
		mark, failed = "  above the target", true
	}
	fmt.Fprintf(&b, "%-18s %8d %6d %7.2f%%%s\n", "all safe", dropped+builtinDropped, allSafe, 100*falseRate, mark)
	for _, m := range misses {
		b.WriteString(m + "\n")
	}
	for _, d := range drops {
		b.WriteString(d + "\n")
	}
	t.Log(b.String())
	if failed {
		t.Errorf("the safety screen misses its targets: at least %.0f%% caught in each category, at most %.0f%% of safe sentences dropped", 100*minCatch, 100*maxFalseCut)
	}
	if len(unsafe) < 300 || len(safe)+len(builtin) < 500 {
		t.Errorf("the corpus is too small: %d unsafe (want 300), %d safe (want 500)", len(unsafe), len(safe)+len(builtin))
	}
	for _, c := range Categories {
		if total[c] < 40 {
			t.Errorf("%s: %d unsafe sentences, want at least 40", c, total[c])
		}
	}
}
