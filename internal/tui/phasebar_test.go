package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lull-dev/lull/internal/engine"
)

// span is a run of cells on a line: [from, to).
type span struct{ from, to int }

// runs are the runs of cells on a line that are not spaces.
func runs(line string) []span {
	var out []span
	col, in := 0, -1
	for _, r := range line {
		if r == ' ' {
			if in >= 0 {
				out = append(out, span{in, col})
				in = -1
			}
		} else if in < 0 {
			in = col
		}
		col++
	}
	if in >= 0 {
		out = append(out, span{in, col})
	}
	return out
}

// Each phase's name sits over its own part of the bar: "Relaxation" sat
// over Sensory's. The current phase's name is whole; the others are cut
// with "…" or left out when the room is short, never spilled over a
// neighbour's part.
func TestPhaseLabelsSitOverTheirSegments(t *testing.T) {
	st := NewStyles(true, false)
	for _, width := range []int{20, 36, 56, 76, 116} {
		for _, cur := range engine.Phases {
			for _, done := range []bool{false, true} {
				if done && cur != engine.Resolution {
					continue
				}
				p := phaseBar{current: cur, fill: 0.5, done: done}
				view := strings.Split(ansi.Strip(p.View(width, &st)), "\n")
				if len(view) != 2 {
					t.Fatalf("width %d: %d lines", width, len(view))
				}
				labels, bar := view[0], view[1]
				segs := runs(bar)
				if len(segs) != len(engine.Phases) {
					t.Fatalf("width %d: the bar has %d parts: %q", width, len(segs), bar)
				}
				if w := ansi.StringWidth(labels); w > width {
					t.Errorf("width %d, %s: the labels are %d wide: %q", width, cur, w, labels)
				}
				names := runs(labels)
				cells := []rune(labels)
				sawCurrent := false
				for _, n := range names {
					text := string(cells[n.from:n.to])
					ph, ok := phaseNamed(text)
					if !ok {
						t.Errorf("width %d, %s: %q is no phase's name: %q", width, cur, text, labels)
						continue
					}
					seg := segs[ph]
					if ph == cur {
						sawCurrent = true
						if text != ph.Title() {
							t.Errorf("width %d: the current phase's name is cut: %q", width, text)
						}
						// Over its part, moved left only at the bar's end.
						if n.from > seg.from || (n.from < seg.from && n.to != segs[len(segs)-1].to) {
							t.Errorf("width %d, %s: its name at %v, its part at %v: %q / %q", width, cur, n, seg, labels, bar)
						}
						continue
					}
					if n.from < seg.from || n.to > seg.to {
						t.Errorf("width %d, %s: %q at %v is not over its part %v:\n%s\n%s", width, cur, text, n, seg, labels, bar)
					}
					if text != ph.Title() && !strings.HasSuffix(text, "…") {
						t.Errorf("width %d: %q is cut without an ellipsis", width, text)
					}
				}
				if !sawCurrent {
					t.Errorf("width %d: the current phase %s is not named: %q", width, cur, labels)
				}
			}
		}
	}
}

// phaseNamed is the phase whose name text is, or begins ("Relaxat…").
func phaseNamed(text string) (engine.Phase, bool) {
	stem := strings.TrimSuffix(text, "…")
	for _, ph := range engine.Phases {
		if ph.Title() == text || (stem != text && strings.HasPrefix(ph.Title(), stem)) {
			return ph, true
		}
	}
	return 0, false
}

// The bar's parts are the phases' shares of this session: past twenty
// minutes the opening and the close take less of it and relaxation more,
// so a 45-minute bar is not a 20-minute one stretched.
func TestPhaseBarFollowsTheSessionsLength(t *testing.T) {
	cells := func(length time.Duration, sleep bool) []int {
		var out []int
		for _, s := range (phaseBar{length: length, sleep: sleep}).segments(105) {
			out = append(out, s.cells)
		}
		return out
	}
	short, long, asleep := cells(20*time.Minute, false), cells(45*time.Minute, false), cells(45*time.Minute, true)
	if long[engine.Atmosphere] >= short[engine.Atmosphere] || long[engine.Resolution] >= short[engine.Resolution] || long[engine.Relaxation] <= short[engine.Relaxation] {
		t.Errorf("45 minutes %v, 20 minutes %v: want a shorter opening and close and a longer relaxation", long, short)
	}
	if asleep[engine.Resolution] != short[engine.Resolution] {
		t.Errorf("a 45-minute sleep session's close is %d cells, want its whole share, %d", asleep[engine.Resolution], short[engine.Resolution])
	}
	if got := cells(0, false); !slices.Equal(got, short) {
		t.Errorf("a session of no known length %v, want the base shares %v", got, short)
	}
}
