package human

import (
	"slices"
	"testing"
)

func TestNearFindsTyposAndPrefixes(t *testing.T) {
	commands := []string{"new", "resume", "render", "breathe", "sessions", "doctor", "version", "stats", "replay", "config", "man"}
	for word, want := range map[string][]string{
		"sesions":    {"sessions"},                   // a letter missing
		"sessinos":   {"sessions"},                   // two swapped: one edit, not two
		"rsume":      {"resume"},                     //
		"vresion":    {"version"},                    //
		"re":         {"resume", "render", "replay"}, // a prefix
		"Stats":      nil,                            // the same word in other case is no typo
		"x":          nil,                            // one letter is near everything: nothing
		"nw":         {"new"},                        //
		"frobnicate": nil,
		"docter":     {"doctor"},
		"brethe":     {"breathe"},
	} {
		if got := Near(word, commands); !slices.Equal(got, want) {
			t.Errorf("Near(%q) = %q, want %q", word, got, want)
		}
	}
	if got := Near("espek", []string{"auto", "espeak-ng", "flite", "none"}); !slices.Equal(got, []string{"espeak-ng"}) {
		t.Errorf("the beginning of a name, with a typo: %q", got)
	}
	if got := Near("--lenght", []string{"--length", "--intention", "--seed"}); !slices.Equal(got, []string{"--length"}) {
		t.Errorf("a flag: %q", got)
	}
}

func TestNearestComeFirst(t *testing.T) {
	got := Near("shwo", []string{"summarize", "show", "shows"})
	if !slices.Equal(got, []string{"show", "shows"}) {
		t.Errorf("%q, want show (one swap) before shows (two edits)", got)
	}
}

func TestDidYouMean(t *testing.T) {
	for word, want := range map[string]string{
		"sesions": `; did you mean "sessions"?`,
		"re":      `; did you mean "resume", "render" or "replay"?`,
		"zzz":     "",
	} {
		if got := DidYouMean(word, []string{"sessions", "resume", "render", "replay"}); got != want {
			t.Errorf("DidYouMean(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestTypoDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"ab", "ba", 1}, {"ca", "abc", 3}, {"kitten", "sitting", 3}, {"lenght", "length", 1}, {"été", "ete", 2}} {
		if got := typoDistance(c.a, c.b); got != c.d {
			t.Errorf("typoDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
