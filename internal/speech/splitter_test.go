package speech

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitter(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"two sentences", "Settle in. Let the day go.", []string{"Settle in.", "Let the day go."}},
		{"question and exclamation", "Can you feel it? Yes! Good.", []string{"Can you feel it?", "Yes!", "Good."}},
		{"ellipsis flows on", "Breathe in... and slowly out.", []string{"Breathe in... and slowly out."}},
		{"ellipsis then new sentence", "Breathe in... Now release.", []string{"Breathe in...", "Now release."}},
		{"unicode ellipsis", "Rest here… and soften. Good.", []string{"Rest here… and soften.", "Good."}},
		{"decimal", "Inhale for 4.5 seconds. Then exhale.", []string{"Inhale for 4.5 seconds.", "Then exhale."}},
		{"doctor", "Dr. Lee wrote this. It helps.", []string{"Dr. Lee wrote this.", "It helps."}},
		{"initial", "As J. Smith said, rest. Then breathe.", []string{"As J. Smith said, rest.", "Then breathe."}},
		{"e.g.", "Notice a sound, e.g. the rain. Stay.", []string{"Notice a sound, e.g. the rain.", "Stay."}},
		{"closing quote stays", `She said, "Rest now." Then silence.`, []string{`She said, "Rest now."`, "Then silence."}},
		{"curly quotes", "“Let go.” The words drift. ‘Softly.’ Yes.", []string{"“Let go.”", "The words drift.", "‘Softly.’", "Yes."}},
		{"paren", "Rest (for now.) Then move.", []string{"Rest (for now.)", "Then move."}},
		{"paragraph break", "A line without a stop\n\nAnother line.", []string{"A line without a stop", "Another line."}},
		{"single newline is a space", "Let your\nshoulders drop.", []string{"Let your shoulders drop."}},
		{"no final stop", "Let it be", []string{"Let it be"}},
		{"markdown stripped", "**Breathe** in. Out.", []string{"Breathe in.", "Out."}},
		{"whitespace collapsed", "  Soft   light.   Warm air.  ", []string{"Soft light.", "Warm air."}},
		{"glued full stop not split", "version 2.0 is here.", []string{"version 2.0 is here."}},
		{"escape sequences and controls dropped", "Rest \x1b]0;pwned\x07here\x1b[2J\x00 now. Be\u202e still.", []string{"Rest here now.", "Be still."}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Whole, and fed one rune at a time as a stream would.
			for _, chunked := range []bool{false, true} {
				var s Splitter
				var got []string
				if chunked {
					for _, r := range tt.in {
						got = append(got, s.Feed(string(r))...)
					}
				} else {
					got = s.Feed(tt.in)
				}
				got = append(got, s.Flush()...)
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("chunked=%v: got %q, want %q", chunked, got, tt.want)
				}
			}
		})
	}
}

func TestSplitterHoldsBackUndecidedTail(t *testing.T) {
	var s Splitter
	if got := s.Feed("Breathe in."); len(got) != 0 {
		t.Fatalf("a stop at the end of the text so far is not yet a sentence: %q", got)
	}
	if got := s.Feed(".."); len(got) != 0 {
		t.Fatalf("got %q", got)
	}
	if got := s.Feed(" and out. "); !reflect.DeepEqual(got, []string{"Breathe in... and out."}) {
		t.Fatalf("got %q", got)
	}
}

func TestSplitterCutsRunawayText(t *testing.T) {
	var s Splitter
	long := strings.Repeat("and the warm light rises, ", 40)
	got := append(s.Feed(long), s.Flush()...)
	if len(got) < 4 {
		t.Fatalf("a %d-word run without a stop should be cut as it streams, got %d pieces", len(strings.Fields(long)), len(got))
	}
	for _, g := range got[:len(got)-1] {
		if n := len(strings.Fields(g)); n > MaxSpokenWords || n < minPiece {
			t.Errorf("piece of %d words (want %d to %d): %q", n, minPiece, MaxSpokenWords, g)
		}
		if !strings.HasSuffix(g, ",") {
			t.Errorf("not cut at a comma: %q", g)
		}
	}
	if n := len(strings.Fields(got[len(got)-1])); n > 2*MaxSpokenWords {
		t.Errorf("the rest holds %d words", n)
	}
	if strings.Join(got, " ") != strings.TrimSpace(strings.Join(strings.Fields(long), " ")) {
		t.Error("cutting lost or changed text")
	}
}
