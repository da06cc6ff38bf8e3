package llm

import (
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/engine"
)

// passed runs text through the line pre-pass and the splitter as an
// attempt does, fed in pieces of the given size, and returns each sentence
// with the tag it was remembered with ("-" for none).
func passed(t *testing.T, breathing bool, text string, size int) []string {
	t.Helper()
	g := &Guide{}
	a := &attemptState{s: &stream{g: g}, lines: newLinePass(breathing)}
	rs := []rune(text)
	for i := 0; i < len(rs); i += size {
		a.lines.feed(string(rs[i:min(i+size, len(rs))]), a.take)
	}
	a.lines.flush(a.take)
	rest := a.split.Flush()
	a.tag(rest, a.lines.current())
	var out []string
	var said []string
	for _, w := range a.unchecked {
		said = append(said, w.text)
	}
	for _, s := range append(said, rest...) {
		tag := "-"
		if st, ok := g.Cue(s); ok {
			tag = tagOf(st)
		}
		out = append(out, tag+" "+s)
	}
	return out
}

func TestBreathTagsAreReadLenientlyAndNeverSpoken(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"the asked format", "[in] Breathe in slowly through the nose.\n[out] And breathe out, long and slow.\n",
			[]string{"[in] Breathe in slowly through the nose.", "[out] And breathe out, long and slow."}},
		{"a hold and a rest", "[IN] Breathe in.\n[hold] Rest softly here.\n[ out ] Let it go.\n[rest] Empty and still.",
			[]string{"[in] Breathe in.", "[hold] Rest softly here.", "[out] Let it go.", "[rest] Empty and still."}},
		{"colons", "In: Let the air come in.\nOut: Let the air leave you.\nExhale: Soften the jaw.",
			[]string{"[in] Let the air come in.", "[out] Let the air leave you.", "[out] Soften the jaw."}},
		{"parentheses and dashes", "(in) Draw the air in gently.\nOUT - Let the breath flow out.\nIN — Fill up softly.\nHOLD – Stay at the top.",
			[]string{"[in] Draw the air in gently.", "[out] Let the breath flow out.", "[in] Fill up softly.", "[hold] Stay at the top."}},
		{"markdown around the tag", "**In:** Breathe in through the nose.\n- **Exhale:** Release it all.\n* [out] Let go.",
			[]string{"[in] Breathe in through the nose.", "[out] Release it all.", "[out] Let go."}},
		{"long tag words", "[Breathe in] The air comes in.\n[out-breath] The air goes out.\n{inhale} Again, in.",
			[]string{"[in] The air comes in.", "[out] The air goes out.", "[in] Again, in."}},
		{"no tag: the engine guesses", "Breathe in slowly.\nAnd breathe out.",
			[]string{"- Breathe in slowly.", "- And breathe out."}},
		{"words that look like tags are words", "Out here the air is cool.\nIn the quiet, breathe in.\nRest your hands in your lap.",
			[]string{"- Out here the air is cool.", "- In the quiet, breathe in.", "- Rest your hands in your lap."}},
		{"a tag mid-line starts a line", "[in] Breathe in slowly. [out] And out, long and slow.",
			[]string{"[in] Breathe in slowly.", "[out] And out, long and slow."}},
		{"other brackets are the cleaner's", "[in] Breathe in (gently) now.",
			[]string{"[in] Breathe in, gently, now."}},
		{"a line without a full stop still ends, and gets one", "[in] Breathe in for four\n[out] Breathe out for six",
			[]string{"[in] Breathe in for four.", "[out] Breathe out for six."}},
		{"blank lines and CRLF", "[in] Breathe in.\r\n\r\n[out] Breathe out.\r\n",
			[]string{"[in] Breathe in.", "[out] Breathe out."}},
	} {
		for _, size := range []int{1, 3, 7, 1000} {
			got := passed(t, true, tc.text, size)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("%s, fed %d at a time:\n got %q\nwant %q", tc.name, size, got, tc.want)
				break
			}
		}
	}
}

func TestOtherPhasesEndASentenceAtEachLine(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"one a line, no full stop", "Let the shoulders soften\nLet the jaw rest\n",
			[]string{"- Let the shoulders soften.", "- Let the jaw rest."}},
		{"a sentence wrapped onto the next line is joined", "Let the shoulders soften and the jaw\nrest a little more.\nNotice the hands.",
			[]string{"- Let the shoulders soften and the jaw rest a little more.", "- Notice the hands."}},
		{"tags are not read outside breathing", "In: the quiet room.",
			[]string{"- In: the quiet room."}},
		{"several sentences on a line", "Rest here. Nothing to do.\nSoften.",
			[]string{"- Rest here.", "- Nothing to do.", "- Soften."}},
	} {
		for _, size := range []int{1, 4, 1000} {
			got := passed(t, false, tc.text, size)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("%s, fed %d at a time:\n got %q\nwant %q", tc.name, size, got, tc.want)
				break
			}
		}
	}
}

func TestCueMemoryIsBoundedAndForgiving(t *testing.T) {
	var c cues
	c.remember("And breathe out, long and slow, letting the shoulders lower.", engine.StageExhale)
	for _, text := range []string{
		"And breathe out, long and slow, letting the shoulders lower.",
		"and breathe out — long and slow — letting the shoulders lower",
		"letting the shoulders lower.", // a piece of it, split by a cleaner
	} {
		if s, ok := c.stage(text); !ok || s != engine.StageExhale {
			t.Errorf("%q: %v %v", text, s, ok)
		}
	}
	if _, ok := c.stage("lower."); ok {
		t.Error("a short piece finds a sentence")
	}
	for i := range 2 * maxCues {
		c.remember("Breathe in, number "+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26)), engine.StageInhale)
	}
	if len(c.order) != maxCues || len(c.stages) != maxCues {
		t.Errorf("%d remembered (%d keys), want at most %d", len(c.order), len(c.stages), maxCues)
	}
	if _, ok := c.stage("And breathe out, long and slow, letting the shoulders lower."); ok {
		t.Error("the oldest cue is still remembered")
	}
}
