package safety

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lull-dev/lull/internal/crisis"
	"github.com/lull-dev/lull/internal/engine"

	"github.com/lull-dev/lull/internal/prompts"
)

var (
	inAtmosphere = Place{Phase: engine.Atmosphere}
	inBreathing  = Place{Phase: engine.Breathing}
	inSensory    = Place{Phase: engine.Sensory}
	inRelaxation = Place{Phase: engine.Relaxation}
	inResolution = Place{Phase: engine.Resolution}
	asleepEnding = Place{Phase: engine.Resolution, Sleep: true}
	asleepFirst  = Place{Phase: engine.Atmosphere, Sleep: true}
)

// TestSafetyIssueExamples: what issue 11 saw the keyword list get wrong,
// each in the place it is said, judged by the whole screen.
func TestSafetyIssueExamples(t *testing.T) {
	s := Default()
	for _, c := range []struct {
		text string
		at   Place
		want Category // empty: spoken
	}{
		// Dropped on main although safe.
		{"Hold this gentle focus for two minutes, and let the rest go.", inSensory, ""},
		{"There's no need to go as fast as you can, or anywhere at all.", inBreathing, ""},
		{"Nothing here needs a cure, only a little rest.", inRelaxation, ""},
		{"This is no reason to stop taking your medication, only a moment of rest beside it.", inAtmosphere, ""},
		{"The first stars are visible to the naked eye.", inSensory, ""},
		// Spoken on main although unsafe.
		{"Keep breathing this way until you feel dizzy.", inBreathing, UnsafeBreathing},
		{"Hold the breath at the top for a full sixty seconds.", inBreathing, UnsafeBreathing},
		{"Breathe faster and faster, letting each breath tumble into the next.", inBreathing, UnsafeBreathing},
		{"This practice is a proven treatment for depression.", inRelaxation, MedicalClaim},
		{"You will never need your pills again.", inRelaxation, MedicalClaim},
		{"Your doctor does not understand what your body already knows.", inSensory, MedicalClaim},
		{"You might welcome death as a gentle friend.", inRelaxation, SelfHarm},
		{"Imagine never waking again.", asleepEnding, SelfHarm},
		{"Feel your bare skin, sensual and warm.", inSensory, Explicit},
		{"Imagine a lover's touch tracing your thighs.", inRelaxation, Explicit},
		{"Slowly open your eyes.", inAtmosphere, EarlyEnding},
		{"Slowly open your eyes.", inResolution, ""},
		{"Slowly open your eyes.", asleepEnding, EarlyEnding},
		{"Please rate this session before you go.", inResolution, Chatter},
	} {
		if v := s.Sentence(c.text, c.at); v.Flagged() != (c.want != "") {
			t.Errorf("%q in %s: got %q (%s), want %q", c.text, placeName(c.at), v.Category, v.Rule, c.want)
		}
	}
}

// TestSafetyRules: each kind of harm, and what takes it back, judged by
// the whole screen: flagged or not (which layer and category is its own
// affair).
func TestSafetyRules(t *testing.T) {
	s := Default()
	for _, c := range []struct {
		text string
		at   Place
		want Category
	}{
		// Breath holds: a few counts are fine, more is not; a bare "hold"
		// is the breath's only in the breathing phase or with the breath named.
		{"Hold the breath gently for two counts, then let it go.", inBreathing, ""},
		{"Hold for a count of seven, if that feels comfortable.", inBreathing, ""},
		{"Hold it for four seconds, softly.", inBreathing, ""},
		{"Hold for seven, then breathe out for eight.", inBreathing, ""},
		{"Hold it for 20 seconds.", inBreathing, UnsafeBreathing},
		{"Hold it for 20 seconds.", inRelaxation, UnsafeBreathing},
		{"Pause here for a minute and listen.", inSensory, ""},
		{"Pause for a minute before the next breath.", inBreathing, UnsafeBreathing},
		{"Squeeze your fists and hold the tension for ten seconds.", inBreathing, ""},
		{"Breathe in, and hold it for twenty-five seconds.", inSensory, UnsafeBreathing},
		{"Hold, counting to twelve.", inBreathing, UnsafeBreathing},
		{"Hold your breath for two minutes.", inSensory, UnsafeBreathing},
		{"Stop breathing for a while.", inBreathing, UnsafeBreathing},
		{"Hold your breath as long as you can.", inSensory, UnsafeBreathing},
		{"If you like, hold your breath for thirty seconds.", inBreathing, UnsafeBreathing},
		{"There is no need to hold your breath for long.", inBreathing, ""},
		// Fast, forced, dizzy: as a goal, not as a condition to answer.
		{"Take rapid breaths, in and out.", inBreathing, UnsafeBreathing},
		{"If you notice rapid breathing, let it slow by itself.", inBreathing, ""},
		{"Breathing quickly is not needed here.", inBreathing, ""},
		{"If you feel dizzy, return to your natural breath.", inBreathing, ""},
		{"If you feel dizzy, keep going, it means it is working.", inBreathing, UnsafeBreathing},
		{"Breathe without strain, never forced.", inBreathing, ""},
		{"Hyperventilate gently.", inBreathing, UnsafeBreathing},

		// Self-harm, however gently put; grief and sleep are not.
		{"Some days you may want to end your life.", inRelaxation, SelfHarm},
		{"Drift into sleep and never wake up.", asleepEnding, SelfHarm},
		{"Let the worries drift away and never return.", inRelaxation, ""},
		{"If you are carrying grief for someone who died, let it rest here.", inRelaxation, ""},
		{"The wind dies down, and the trees grow still.", inSensory, ""},
		{"In the morning you will wake rested.", asleepEnding, SleepRousing}, // waking, in a sleep session's close

		// Explicit: a lover, desire, nudity; the air on your skin is not.
		{"Let a sexual warmth rise in you.", inSensory, Explicit},
		{"Slowly begin touching yourself.", inSensory, Explicit},
		{"The cool air brushes your upper lip as you breathe in.", inBreathing, ""},
		{"Let your hands rest on your thighs.", inRelaxation, ""},

		// Medical: claims and advice; deferring to a doctor is fine.
		{"This breathing cures anxiety.", inBreathing, MedicalClaim},
		{"Meditation reverses high blood pressure.", inSensory, MedicalClaim},
		{"It is clinically proven to work.", inSensory, MedicalClaim},
		{"There is no need to see a doctor.", inSensory, MedicalClaim},
		{"If you have any health concerns, speak with your doctor.", inAtmosphere, Chatter}, // a disclaimer: not guidance
		{"Dr. Lee's garden was quiet in the evening light.", inSensory, ""},

		// Ending early: fine in a waking close, nowhere else.
		{"Bring your awareness back to the room.", inResolution, ""},
		{"Bring your awareness back to the room.", inRelaxation, EarlyEnding},
		{"Bring your awareness back to the breath.", inRelaxation, ""},
		{"As we come to a close, notice how you feel.", inSensory, EarlyEnding},
		{"As the day comes to a close, let it go.", asleepFirst, ""},
		{"At the end of the out-breath, rest for a moment.", inBreathing, ""},
		{"Get up slowly when you are ready.", asleepEnding, EarlyEnding},
		{"If you would rather keep your eyes open, lower your gaze.", inAtmosphere, ""},
		{"You may drift on to sleep.", asleepEnding, ""},

		// Not guidance: asking, advising, diagnosing.
		{"Tell me how you feel right now.", inResolution, NotGuidance},
		{"Tell yourself, quietly, that you are safe.", inResolution, ""},
		{"You should really quit that job.", inRelaxation, NotGuidance},
		{"Your anxiety disorder does not define you.", inRelaxation, NotGuidance},
		{"Let your anxiety soften a little.", inRelaxation, ""},
	} {
		if v := s.Sentence(c.text, c.at); v.Flagged() != (c.want != "") {
			t.Errorf("%q in %s: got %q (%s), want %q", c.text, placeName(c.at), v.Category, v.Rule, c.want)
		}
	}
}

// testRules compiles a small rule set written for a test.
func testRules(t *testing.T, files map[string]string) *Screen {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys["r/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	sr, err := prompts.LoadSafety(fsys, "r")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sr)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const testCommon = `[GAP]
Small words.
the
your
[NOT]
Negation.
no need to
never
[FIGURES]
Figures of speech.
fast asleep
`

// TestSafetyMatching: how the screen reads phrases and conditions, on a
// rule set of its own.
func TestSafetyMatching(t *testing.T) {
	s := testRules(t, map[string]string{
		"common.txt": testCommon,
		"unsafe_breathing.txt": `[HOLD]
Holding the breath.
hold [BREATH]
[BREATH]
The breath.
breath
air
[LONG]
Long.
for [MORE THAN A HOLD] seconds
a minute
[FAST]
Fast.
fast
[IF]
A condition.
if
except if you like
[NEXT]
Another part.
breathe out
rule long hold: HOLD then LONG; unless NOT before; unless NEXT between
rule fast: FAST; unless IF before; unless NOT before; only in breathing or sleep
rule same part: BREATH then FAST; in one part; except in breathing`,
	})
	for _, c := range []struct {
		text string
		at   Place
		want bool
	}{
		{"Hold your breath for ten seconds.", inSensory, true},                // a gap word, a form, a number above the hold
		{"Holding the air for twenty-five seconds.", inSensory, true},         // a form, a number in two words
		{"Hold the breath for seven seconds.", inSensory, false},              // not above the hold
		{"Hold the breath, then breathe out for a minute.", inSensory, false}, // another part between
		{"There is no need to hold the breath for a minute.", inSensory, false},
		{"Never, hold the breath for a minute.", inSensory, true},  // the negation is in another part
		{"Hold the lovely breath for a minute.", inSensory, false}, // "lovely" is no gap word
		{"Go fast.", inBreathing, true},
		{"Go fast.", inSensory, false},                                // only in breathing…
		{"Go fast.", Place{Phase: engine.Sensory, Sleep: true}, true}, // …or in a sleep session
		{"If it feels tight, go fast.", inBreathing, true},            // the condition is in another part
		{"If it goes fast, notice it.", inBreathing, false},
		{"If you like go fast.", inBreathing, true},  // a permission is not a condition
		{"You are fast asleep.", inBreathing, false}, // a figure of speech
		{"The breath is fast.", inSensory, true},
		{"The breath, fast.", inSensory, false}, // not in one part
		{"The breath is fast.", inBreathing, true},
	} {
		if got := s.rules.check(c.text, c.at).Flagged(); got != c.want {
			t.Errorf("%q in %s: flagged %v, want %v", c.text, placeName(c.at), got, c.want)
		}
	}
}

// TestSafetyRuleErrors: a mistake in the rules says where it is and what
// to write instead.
func TestSafetyRuleErrors(t *testing.T) {
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"common.txt": testCommon, "explicit.txt": "rule x: NOPE"}, "explicit.txt:1: rule \"x\" looks for [NOPE], which is not a list"},
		{map[string]string{"common.txt": testCommon + "[A]\nAbout.\nHello\n"}, "common.txt:14: \"Hello\": write words in lower case"},
		{map[string]string{"common.txt": testCommon + "rule x: NOT"}, "rules belong in a category's file"},
		{map[string]string{"common.txt": testCommon, "explicit.txt": "rule x: NOT; unless NOT sometimes"}, "a condition is one of"},
		{map[string]string{"common.txt": testCommon, "explicit.txt": "rule x: NOT; only in bed"}, "\"bed\" is not a place"},
		{map[string]string{"common.txt": testCommon + "[A]\nAbout.\nx [A]\n"}, "[A] holds itself"},
		{map[string]string{"common.txt": testCommon, "explicit.txt": "[NOT]\nAgain.\nno\n"}, "[NOT] is listed twice"},
		{map[string]string{"common.txt": testCommon + "stray\n", "explicit.txt": "hello\n"}, "explicit.txt:1: \"hello\" is neither in a [LIST] nor a rule"},
	} {
		fsys := fstest.MapFS{}
		for name, text := range c.files {
			fsys["r/"+name] = &fstest.MapFile{Data: []byte(text)}
		}
		_, err := prompts.LoadSafety(fsys, "r")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error saying %q", c.files, err, c.want)
		}
	}
	// A category the engine does not know.
	fsys := fstest.MapFS{"r/common.txt": {Data: []byte(testCommon)}, "r/rudeness.txt": {Data: []byte("rule x: NOT")}}
	sr, err := prompts.LoadSafety(fsys, "r")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(sr); err == nil || !strings.Contains(err.Error(), "rudeness.txt names no category") {
		t.Errorf("an unknown category: got %v", err)
	}
}

func TestIntentionScreening(t *testing.T) {
	s := Default()
	for _, ok := range []string{"", "sleep", "calm before a talk", "letting go of a hard week", "feel less anxious"} {
		if err := s.Intention(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, words := range []string{"I want to die", "thinking about suicide", "I don't want to wake up"} {
		if _, ok := s.Intention(words).(*crisis.Error); !ok {
			t.Errorf("%q was not met with help", words)
		}
	}
}
