package speech

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/lull-dev/lull/internal/prompts"
)

// speechCase is a model's reply as models really write them (from memory
// of how they fail), what the listener should hear of it, and what the
// cleaner should count as removed.
type speechCase struct {
	name    string
	in      string
	want    []string
	removed map[Reason]int
}

var speechCases = []speechCase{
	// OpenAI gpt-4o-mini: eager opener, label, warm closer, offers more.
	{
		name: "gpt-4o-mini chatty opener and closer",
		in: "Absolutely! Here's a calming atmosphere for your relaxation session:\n\n" +
			"Welcome to this quiet moment. Find a comfortable position, and let your body be fully supported.\n\n" +
			"Feel free to let me know if you'd like any adjustments! 😊",
		want:    []string{"Welcome to this quiet moment.", "Find a comfortable position, and let your body be fully supported."},
		removed: map[Reason]int{RemovedChatter: 2, RemovedMeta: 1},
	},
	{
		name: "gpt-4o-mini hopes it helped",
		in: "Let the warmth of the room settle around you. I hope this brings you a sense of calm. " +
			"Enjoy your relaxation! Thank you for using this app!",
		want:    []string{"Let the warmth of the room settle around you."},
		removed: map[Reason]int{RemovedChatter: 3},
	},
	{
		name:    "one word openers",
		in:      "Sure! Certainly. Of course! Let your hands rest open.",
		want:    []string{"Let your hands rest open."},
		removed: map[Reason]int{RemovedChatter: 3},
	},
	// Llama 3 announces what it writes, then asks for a verdict.
	{
		name: "llama 3 here is a guided relaxation",
		in: "Here is a guided relaxation script for the atmosphere phase:\n\n" +
			"As you settle into a comfortable position, allow your eyes to gently close. " +
			"Imagine yourself in a peaceful place, where the air is calm and still.\n\n" +
			"Let me know if you would like me to continue with the breathing phase!",
		want: []string{
			"As you settle into a comfortable position, allow your eyes to gently close.",
			"Imagine yourself in a peaceful place, where the air is calm and still.",
		},
		removed: map[Reason]int{RemovedMeta: 1, RemovedChatter: 1},
	},
	{
		name: "llama 3 pauses in parentheses",
		in: "Take a slow breath in... (pause for 5 seconds) and let it go. " +
			"(Pause) Notice how your body feels heavier now. (Soft music continues)",
		want: []string{
			"Take a slow breath in... and let it go.",
			"Notice how your body feels heavier now.",
		},
	},
	// Mistral: markdown headings, bold, lists and a closing note.
	{
		name: "mistral markdown",
		in: "### Atmosphere Phase\n\n" +
			"**Welcome.** Take a moment to find a comfortable position.\n\n" +
			"- *Feel* the support beneath you.\n" +
			"- Let your **shoulders** drop away from your ears.\n\n" +
			"---\n\n" +
			"*Note: This script is designed to be read slowly, with pauses between sentences.*",
		want: []string{
			"Welcome.",
			"Take a moment to find a comfortable position.",
			"Feel the support beneath you.",
			"Let your shoulders drop away from your ears.",
		},
		removed: map[Reason]int{RemovedHeading: 1},
	},
	{
		name: "bold label line and a title",
		in: "**Sensory Awareness:**\nNotice the air on your skin.\n\nThe Quiet Room\n" +
			"Listen to the sounds far away.",
		want:    []string{"Notice the air on your skin.", "Listen to the sounds far away."},
		removed: map[Reason]int{RemovedHeading: 2},
	},
	// Qwen and Gemma: emoji, bare pause marks, starred directions.
	{
		name: "qwen emoji and pause",
		in: "🌙 Let the soft light of the evening wash over you. (pause) 🌿 " +
			"Breathe in the calm of this moment... ✨\n\n*pauses*\n\nYour shoulders soften. 😊🙏",
		want: []string{
			"Let the soft light of the evening wash over you.",
			"Breathe in the calm of this moment...",
			"Your shoulders soften.",
		},
	},
	{
		name: "gemma okay heres and starred asides",
		in: "Okay, here's the sensory phase, focusing on gentle awareness:\n\n" +
			"*(Soft, ambient music fades in)*\n\n" +
			"Notice the feeling of the air as it touches your skin. **(Pause for 5 seconds)** " +
			"Let your attention *gently* rest on your hands.",
		want: []string{
			"Notice the feeling of the air as it touches your skin.",
			"Let your attention gently rest on your hands.",
		},
		removed: map[Reason]int{RemovedChatter: 1},
	},
	{
		name: "square brackets always go, links keep their text",
		in: "[Inhale] Breathe in slowly. [Exhale] And breathe out. [pause 5 seconds] " +
			"Picture a [quiet lake](https://example.com/lake) at dusk. ![calm](https://example.com/a.png) Rest here.",
		want: []string{"Breathe in slowly.", "And breathe out.", "Picture a quiet lake at dusk.", "Rest here."},
	},
	{
		name: "a real parenthetical is said between commas",
		in:   "Let your shoulders drop (if that feels right) and rest. (If you like) close your eyes.",
		want: []string{"Let your shoulders drop, if that feels right, and rest.", "If you like, close your eyes."},
	},
	// DeepSeek-R1 behind a server that does not separate the reasoning.
	{
		name: "r1 think block closed",
		in: "<think>\nOkay, the user wants the breathing phase. I should keep each sentence short. " +
			"Let me make sure the counts are right: in for four, out for six.\n</think>\n\n" +
			"Breathe in gently for four. And breathe out slowly for six.",
		want:    []string{"Breathe in gently for four.", "And breathe out slowly for six."},
		removed: map[Reason]int{RemovedThinking: 1},
	},
	{
		name: "r1 only a closing tag, as its chat template leaves it",
		in: "Okay, so the user wants a calm opening for a relaxation session. Let me think about the tone. " +
			"It should be warm and slow.\n</think>\n\nSettle into your seat. Let the day go for now.",
		want:    []string{"Settle into your seat.", "Let the day go for now."},
		removed: map[Reason]int{RemovedThinking: 1},
	},
	{
		name:    "r1 think never closed",
		in:      "<think>\nAlright, I need to write the relaxation phase. The user said sleep. Let me start with the feet",
		removed: map[Reason]int{RemovedThinking: 1},
	},
	{
		name: "reasoning without tags, no closing tag: said after all but the reasoning",
		in: "Okay, so I need to write the sensory phase. I should mention sounds. " +
			"Listen for the farthest sound you can hear. Then the nearest one.",
		want:    []string{"Listen for the farthest sound you can hear.", "Then the nearest one."},
		removed: map[Reason]int{RemovedThinking: 2},
	},
	// SSML from a model told it writes "for a TTS engine".
	{
		name: "ssml for a tts engine",
		in: `<speak><prosody rate="slow" pitch="low">Welcome to this moment of rest.</prosody>` +
			`<break time="3s"/>Let your body <emphasis level="moderate">soften</emphasis> into the chair.` +
			`<break time="2s"/><p>Notice the quiet around you.</p></speak>`,
		want: []string{"Welcome to this moment of rest.", "Let your body soften into the chair.", "Notice the quiet around you."},
	},
	{
		name: "html and special tokens",
		in:   "<p>Let the evening settle.<br>Rest your hands.</p><|eot_id|>",
		want: []string{"Let the evening settle.", "Rest your hands."},
	},
	// Lists: the markers go, each item is its own sentence.
	{
		name: "numbered list",
		in: "Here are three ways to release tension:\n" +
			"1. Let your jaw soften\n2. Drop your shoulders\n3) Unclench your hands\n\nRest here for a while.",
		want:    []string{"Let your jaw soften.", "Drop your shoulders.", "Unclench your hands.", "Rest here for a while."},
		removed: map[Reason]int{RemovedMeta: 1},
	},
	{
		name:    "step labels",
		in:      "Step 1: Find a comfortable position. Step 2: Close your eyes softly.\n\nPhase 2: Breathing",
		want:    []string{"Find a comfortable position.", "Close your eyes softly."},
		removed: map[Reason]int{RemovedHeading: 1},
	},
	// Refusals, vendor by vendor.
	{
		name: "refusals",
		in: "I'm sorry, but I can't help with that request. I'm sorry, but I can't assist with that. " +
			"I apologize, but I don't feel comfortable writing that. I can't provide a guided relaxation that includes that. " +
			"I'm not able to help with that, as I'm only a language model. I'm unable to fulfill this request. " +
			"Sorry, but I can't assist with that.",
		removed: map[Reason]int{RemovedRefusal: 7},
	},
	{
		name: "as an ai",
		in: "As an AI language model, I don't have a body, but I can guide you. " +
			"I'm an AI, so I cannot feel calm myself. Let your breath slow down.",
		want:    []string{"Let your breath slow down."},
		removed: map[Reason]int{RemovedAI: 2},
	},
	// Questions: those that want an answer go; invitations to notice stay.
	{
		name: "questions",
		in: "Can you feel the weight of your hands? How are you feeling? " +
			"Was this helpful? Would you like to continue? Where in your body is it quietest right now?",
		want:    []string{"Can you feel the weight of your hands?", "Where in your body is it quietest right now?"},
		removed: map[Reason]int{RemovedQuestion: 3},
	},
	// Other languages.
	{
		name: "a french reply",
		in: "Fermez doucement les yeux. Laissez votre corps se détendre. " +
			"Respirez lentement, et sentez l'air qui entre.",
		removed: map[Reason]int{RemovedLanguage: 3},
	},
	{
		name:    "a spanish reply",
		in:      "Cierra los ojos y respira profundamente. Deja que tu cuerpo se relaje.",
		removed: map[Reason]int{RemovedLanguage: 2},
	},
	{
		name:    "a german reply",
		in:      "Schließe die Augen und atme tief ein. Lass deinen Körper ganz ruhig werden.",
		removed: map[Reason]int{RemovedLanguage: 2},
	},
	{
		name:    "other scripts",
		in:      "请闭上眼睛，慢慢呼吸。 Закройте глаза. Let your eyes close.",
		want:    []string{"Let your eyes close."},
		removed: map[Reason]int{RemovedLanguage: 2},
	},
	{
		name: "english with one foreign word stays",
		in:   "Let a quiet namaste rest on your lips. Imagine a café on a quiet street in Provence.",
		want: []string{"Let a quiet namaste rest on your lips.", "Imagine a café on a quiet street in Provence."},
	},
	// A run-on: split at natural points, each piece a sentence.
	{
		name: "120-word run-on",
		in: "Let your whole body grow heavy and warm as you sink into the surface beneath you, feeling the weight of your arms and legs, " +
			"the softness of your belly, the stillness of your chest, and then let that heaviness spread through your shoulders and down your back; " +
			"the breath moves slowly in and out, carrying away any tension that remains, while your mind becomes quiet and still like a lake at dusk, " +
			"with no ripples on its surface, only the soft reflection of the sky, and you can rest here for as long as you like, " +
			"knowing there is nothing to do and nowhere to go, just this moment, and this breath, and the next one.",
		// Fed whole or in pieces, the splitter cuts it as it streams: after
		// twice the bound, at the best natural point within the bound.
		want: []string{
			"Let your whole body grow heavy and warm as you sink into the surface beneath you.",
			"Feeling the weight of your arms and legs, the softness of your belly, the stillness of your chest.",
			"And then let that heaviness spread through your shoulders and down your back.",
			"The breath moves slowly in and out, carrying away any tension that remains, while your mind becomes quiet and still like a lake at dusk.",
			"With no ripples on its surface, only the soft reflection of the sky.",
			"You can rest here for as long as you like, knowing there is nothing to do and nowhere to go, just this moment.",
			"This breath, and the next one.",
		},
	},
	{
		name: "meta and notes",
		in: "Continuing with the relaxation phase. Let your legs grow heavy. " +
			"(Word count: 150) Note: each sentence is followed by a pause. Now your arms.",
		want:    []string{"Let your legs grow heavy.", "Now your arms."},
		removed: map[Reason]int{RemovedMeta: 2},
	},
	{
		name: "ordinary guidance stays as it is",
		in: "Of course, your mind may wander, and that is fine. Here is a place where nothing is asked of you. " +
			"Notice how you are feeling right now. Let the sounds die away on their own. " +
			"If you like, you can rest here a little longer. Thank yourself for taking this time. " +
			"Sure and steady, the breath comes and goes. What would you like to let go of tonight? " +
			"Step by step, the body grows heavier. Note the warmth in your palms. " +
			"In this moment, there is nothing you need to answer. Let the word calm rest on the out-breath.",
		want: []string{
			"Of course, your mind may wander, and that is fine.", "Here is a place where nothing is asked of you.",
			"Notice how you are feeling right now.", "Let the sounds die away on their own.",
			"If you like, you can rest here a little longer.", "Thank yourself for taking this time.",
			"Sure and steady, the breath comes and goes.", "What would you like to let go of tonight?",
			"Step by step, the body grows heavier.", "Note the warmth in your palms.",
			"In this moment, there is nothing you need to answer.", "Let the word calm rest on the out-breath.",
		},
	},
	{
		name: "escape sequences, controls and symbols",
		in:   "Rest \x1b]0;pwned\x07here\x1b[2J\x00 now. Breathe → slowly ★ and evenly.",
		want: []string{"Rest here now.", "Breathe slowly and evenly."},
	},
}

func removedCounts(rs []Removal) map[Reason]int {
	if len(rs) == 0 {
		return nil
	}
	m := map[Reason]int{}
	for _, r := range rs {
		m[r.Reason]++
	}
	return m
}

// speak runs text through a Speech in chunks of the given sizes (cycled;
// none: whole).
func speak(text string, sizes ...int) ([]string, []Removal) {
	var s Speech
	var out []string
	var rs []Removal
	if len(sizes) == 0 {
		out = s.Feed(text)
	}
	for k := 0; text != "" && len(sizes) > 0; k++ {
		// Pieces of bytes: a rune may be cut between two.
		n := min(sizes[k%len(sizes)], len(text))
		out = append(out, s.Feed(text[:n])...)
		rs = append(rs, s.Removals()...)
		text = text[n:]
	}
	out = append(out, s.Flush()...)
	return out, append(rs, s.Removals()...)
}

func TestSpeechCleansWhatModelsWrite(t *testing.T) {
	for _, c := range speechCases {
		t.Run(c.name, func(t *testing.T) {
			check := func(how string, got []string, rs []Removal) bool {
				t.Helper()
				ok := true
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("%s: said\n%q\nwant\n%q", how, got, c.want)
					ok = false
				}
				if !reflect.DeepEqual(removedCounts(rs), c.removed) {
					t.Errorf("%s: removed %v, want %v (%q)", how, removedCounts(rs), c.removed, rs)
					ok = false
				}
				return ok
			}
			got, rs := speak(c.in)
			check("whole", got, rs)
			got, rs = speak(c.in, 1)
			check("rune by rune", got, rs)
			rng := rand.New(rand.NewPCG(uint64(len(c.in)), 11))
			for range 20 {
				sizes := make([]int, 8)
				for k := range sizes {
					sizes[k] = 1 + rng.IntN(12)
				}
				got, rs = speak(c.in, sizes...)
				if !check(fmt.Sprintf("in chunks of %v", sizes), got, rs) {
					break
				}
			}
			// Clean speech fed again comes out the same, with nothing removed.
			for _, sep := range []string{"\n\n", " "} {
				again, rs := speak(strings.Join(c.want, sep))
				if !reflect.DeepEqual(again, c.want) || len(rs) > 0 {
					t.Errorf("fed again (joined by %q): %q, removed %q", sep, again, rs)
				}
			}
		})
	}
}

func TestSpeechSentencesAreProper(t *testing.T) {
	got, _ := speak("let your shoulders drop\n\nand rest,\n\nthe light is low and warm around you:")
	want := []string{"Let your shoulders drop.", "And rest.", "The light is low and warm around you."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSpeechRunOnsFitTheBound(t *testing.T) {
	// No sentence end at all, streamed: the splitter cuts, the cleaner
	// finishes the pieces.
	long := strings.Repeat("the warm light rises slowly through the room and settles on your hands, ", 12)
	got, _ := speak(long, 7)
	if len(got) < 6 {
		t.Fatalf("%d pieces from %d words", len(got), len(strings.Fields(long)))
	}
	for _, g := range got {
		if n := len(strings.Fields(g)); n > MaxSpokenWords || n < minPiece {
			t.Errorf("%d words: %q", n, g)
		}
		if !unicode.IsUpper([]rune(g)[0]) || !strings.HasSuffix(g, ".") {
			t.Errorf("not a proper sentence: %q", g)
		}
	}
	// Every word said, in order, none cut: only "and" may go where a
	// piece starts.
	said := strings.Fields(strings.ToLower(strings.NewReplacer(".", "", ",", "").Replace(strings.Join(got, " "))))
	wrote := strings.Fields(strings.ToLower(strings.ReplaceAll(long, ",", "")))
	for i, j := 0, 0; i < len(wrote); i++ {
		if j < len(said) && said[j] == wrote[i] {
			j++
			continue
		}
		if wrote[i] != "and" {
			t.Fatalf("word %d %q of the run-on is not said (at %q)", i, wrote[i], said[min(j, len(said)-1)])
		}
	}
}

func TestSpeechCutDropsTheUnfinishedSentence(t *testing.T) {
	var s Speech
	got := append(s.Feed("Let your hands rest. The light is "), s.Cut()...)
	if !reflect.DeepEqual(got, []string{"Let your hands rest."}) {
		t.Errorf("got %q", got)
	}
}

func TestSpeechWordsLoad(t *testing.T) {
	l, err := compileSpeechWords()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.drop) != len(droppable) {
		t.Errorf("drop.txt has %d reasons, lull knows %d", len(l.drop), len(droppable))
	}
}

func TestPhraseSyntax(t *testing.T) {
	for _, c := range []struct {
		phrase string
		match  []string
		miss   []string
	}{
		{"^ i cant/cannot help", []string{"I can't help with that.", "I cannot help."}, []string{"You can't help noticing.", "Sadly, I can't help."}},
		{"here is ... script", []string{"Here is the next part of your script.", "here is a script"}, []string{"Here is a place to rest, far from anything to do, write or read in a script."}},
		{"^ sure $", []string{"Sure!", "sure."}, []string{"Sure footing beneath you."}},
		{"i apologi*", []string{"I apologise.", "I apologize, but no."}, []string{"Apologies are not needed."}},
		{"whats on your mind ?", []string{"What's on your mind?"}, []string{"Notice what's on your mind."}},
		{"^ note :", []string{"Note: read slowly."}, []string{"Note the warmth of your hands."}},
	} {
		p, _, err := compilePhrase(c.phrase)
		if err != nil {
			t.Fatalf("%q: %v", c.phrase, err)
		}
		for _, m := range c.match {
			if !p.in(normalForm(m)) {
				t.Errorf("%q should match %q (%q)", c.phrase, m, normalForm(m))
			}
		}
		for _, m := range c.miss {
			if p.in(normalForm(m)) {
				t.Errorf("%q should not match %q", c.phrase, m)
			}
		}
	}
	for _, bad := range []string{"I'm sorry", "...", "a ^ b", "... here", "Sure", "a**"} {
		if _, _, err := compilePhrase(bad); err == nil {
			t.Errorf("%q should be refused", bad)
		}
	}
}

// FuzzSpeech: whatever a model writes, the cleaner never panics, nothing
// it says holds markup or emoji, and what it says comes out the same when
// fed again.
func FuzzSpeech(f *testing.F) {
	for _, c := range speechCases {
		f.Add(c.in, uint8(5))
	}
	f.Add("<think>a</think>b <b>*c*</b> [d](e) (f) _g_ `h` # i\n- j\n1. k", uint8(1))
	f.Add("**", uint8(0))
	f.Fuzz(func(t *testing.T, text string, chunk uint8) {
		var got []string
		if chunk == 0 {
			got, _ = speak(text)
		} else {
			got, _ = speak(text, int(chunk%16)+1)
		}
		for _, s := range got {
			if strings.ContainsAny(s, "<>*#[]`") {
				t.Errorf("markup said: %q", s)
			}
			for _, r := range s {
				if unicode.In(r, unicode.So, unicode.Sk, unicode.Cs, unicode.Co) || r == '\ufe0f' || r == '\u200d' {
					t.Errorf("symbol %U said: %q", r, s)
				}
			}
			if n := len(strings.Fields(s)); n > MaxSpokenWords {
				t.Errorf("%d words said at once: %q", n, s)
			}
		}
		again, rs := speak(strings.Join(got, "\n\n"))
		if !reflect.DeepEqual(again, got) {
			t.Errorf("not idempotent:\nfirst  %q\nsecond %q (removed %q)", got, again, rs)
		}
	})
}

func TestLanguageListsKeepEnglishApart(t *testing.T) {
	_, err := newLanguageProfile([]prompts.WordList{{Name: "en", Entries: []string{"the in"}}, {Name: "de", Entries: []string{"der in"}}})
	if err == nil || !strings.Contains(err.Error(), `"in"`) {
		t.Errorf("a word in English and German: %v", err)
	}
	if _, err := newLanguageProfile([]prompts.WordList{{Name: "fr", Entries: []string{"le"}}}); err == nil {
		t.Error("no list for the session's language should be an error")
	}
}

// A piece never ends on a small word: "…the skin of your hands and." was
// heard when a run-on with no comma was cut before "as".
func TestSpeechRunOnNeverEndsOnASmallWord(t *testing.T) {
	text := "Notice the air on the skin of your hands and as you rest here with nothing at all to do you might notice how the quiet gathers around you softly and slowly like a warm blanket settling over the whole of your body."
	got, _ := speak(text, 5)
	if len(got) < 2 {
		t.Fatalf("not split: %q", got)
	}
	for _, g := range got {
		words := strings.Fields(strings.TrimSuffix(g, "."))
		if last := strings.ToLower(words[len(words)-1]); small[last] {
			t.Errorf("a piece ends on %q: %q", last, g)
		}
	}
}

// A run-on is one thought: when a piece of it would be removed, all of it
// is, so the listener never hears a thought cut in the middle.
func TestSpeechRunOnIsKeptWholeOrDroppedWhole(t *testing.T) {
	kept := "Let your attention drift down through the body now, from the crown of the head, past the forehead and the brow, " +
		"down over the eyes resting heavy, and the cheeks and the jaw that loosen as the teeth part a little, and on into the throat."
	said, _ := speak(kept)
	if len(said) < 2 || !strings.HasPrefix(said[0], "Let your attention drift") {
		t.Fatalf("the run-on was heard as %q", said)
	}
	spoilt := "Let your attention drift down through the body now, from the crown of the head, past the forehead and the brow, " +
		"down over the eyes resting heavy, and the cheeks and the jaw that loosen, and as an AI language model I hope this helps you today."
	said, rs := speak(spoilt)
	if len(said) != 0 || len(rs) != 1 {
		t.Errorf("heard %q of a run-on with a piece that is not guidance (%d removed)", said, len(rs))
	}
}
