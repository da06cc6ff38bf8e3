package prompts_test

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

func llmPrompts(t *testing.T) *prompts.LLM {
	t.Helper()
	l, err := prompts.LoadLLM()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLLMLoadsOnce(t *testing.T) {
	a, errA := prompts.LoadLLM()
	b, errB := prompts.LoadLLM()
	if errA != nil || errB != nil || a != b {
		t.Fatalf("LoadLLM() = %p, %v then %p, %v: want the same material, no error", a, errA, b, errB)
	}
}

func TestLLMPhasesInOrder(t *testing.T) {
	l := llmPrompts(t)
	var got []string
	for _, p := range l.Phases {
		got = append(got, p.Name)
	}
	if want := prompts.PhaseNames[:]; !reflect.DeepEqual(got, want) {
		t.Fatalf("phases %v, want %v", got, want)
	}
	for _, name := range prompts.PhaseNames {
		if p, ok := l.Phase(name); !ok || p.Name != name {
			t.Errorf("Phase(%q) = %q, %v", name, p.Name, ok)
		}
	}
	if _, ok := l.Phase("meditation"); ok {
		t.Error(`Phase("meditation") found a phase`)
	}
}

// TestLLMFieldsWritten: every string of the material, and of every phase,
// has words in it.
func TestLLMFieldsWritten(t *testing.T) {
	l := llmPrompts(t)
	check := func(where string, v reflect.Value) {
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() == reflect.String && strings.TrimSpace(f.String()) == "" {
				t.Errorf("%s%s is empty", where, v.Type().Field(i).Name)
			}
		}
	}
	check("", reflect.ValueOf(*l))
	for _, p := range l.Phases {
		check(p.Name+".", reflect.ValueOf(p))
		if strings.Contains(p.Focus, "\n") {
			t.Errorf("%s: focus is more than one line", p.Name)
		}
		if strings.Contains(p.WindDown, "{") {
			t.Errorf("%s: wind_down holds an unfilled placeholder: %q", p.Name, p.WindDown)
		}
	}
}

// endingPhrases are what a phase before resolution must never say or hint
// at: the listener would feel the session ending before it does (seed 000,
// Pitfall 4). Matched as whole words, in any case.
var endingPhrases = []string{
	"end", "ends", "ended", "ending",
	"finish", "finishes", "finished", "finishing",
	"final", "finally", "last", "lastly",
	"conclude", "concludes", "concluding", "conclusion",
	"close", "closes", "closing",
	"goodbye", "good-bye", "farewell",
	"wake", "wakes", "waking", "awake", "awaken",
	"open your eyes", "open the eyes", "opening your eyes", "opening the eyes", "eyes open",
	"return to the room", "returning to the room", "come back to the room", "coming back to the room",
	"back to the room", "back into the room",
	"wrap up", "wrapping up",
}

var endingPhraseRes = func() []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, w := range endingPhrases {
		words := strings.Fields(regexp.QuoteMeta(w))
		out = append(out, regexp.MustCompile(`(?i)\b`+strings.Join(words, `\s+`)+`\b`))
	}
	return out
}()

func TestEndingWordsTable(t *testing.T) {
	for _, tc := range []struct {
		text string
		ends bool
	}{
		{"As this part comes to an END, rest.", true},
		{"When you are ready, open  your eyes.", true},
		{"Slowly coming back to the room.", true},
		{"The breath is closing in on itself.", true},
		{"Breathe gently, and let the shoulders lower.", false}, // "gently" holds "end" inside a word
		{"Let the calm last all evening.", true},
		{"The breath blends with the body, endlessly soft.", false},
	} {
		var hit bool
		for _, re := range endingPhraseRes {
			hit = hit || re.MatchString(tc.text)
		}
		if hit != tc.ends {
			t.Errorf("%q: ending words found = %v, want %v", tc.text, hit, tc.ends)
		}
	}
}

func TestWindDownLeadsOnwardWithoutEnding(t *testing.T) {
	l := llmPrompts(t)
	for i, p := range l.Phases {
		if p.Name == "resolution" {
			continue
		}
		next := l.Phases[i+1]
		if !strings.Contains(p.WindDown, next.Focus) {
			t.Errorf("%s: wind_down does not lead toward %s's focus %q", p.Name, next.Name, next.Focus)
		}
		// Everything the model reads in a wind-down call that is about
		// moving on: the hint with the next focus, and the user inputs.
		vars := map[string]string{"phase": p.Name}
		for _, text := range []string{p.WindDown, prompts.Fill(l.Enter, vars), prompts.Fill(l.Continue, vars),
			prompts.Fill(l.Length, vars), l.Step, l.Used, l.Note, l.Summary, l.Pause, l.Format} {
			for _, re := range endingPhraseRes {
				if w := re.FindString(text); w != "" {
					t.Errorf("%s: %q says %q, which sounds like the session is ending", p.Name, text, w)
				}
			}
		}
	}
	res, _ := l.Phase("resolution")
	for _, want := range []string{"open", "thank"} {
		if !strings.Contains(strings.ToLower(res.WindDown), want) {
			t.Errorf("resolution's wind_down does not mention %q: it is the session's close", want)
		}
	}
}

// TestSleepNeverWakes: in a sleep session resolution drifts toward sleep,
// and nothing the model reads there or just before asks it to wake the
// listener.
func TestSleepNeverWakes(t *testing.T) {
	l := llmPrompts(t)
	res, ok := l.PhaseFor("resolution", true)
	if !ok {
		t.Fatal("no sleep resolution")
	}
	if waking, _ := l.Phase("resolution"); res.Focus == waking.Focus || res.Guidance == waking.Guidance || res.WindDown == waking.WindDown {
		t.Error("a sleep session's resolution is the waking one")
	}
	relax, _ := l.PhaseFor("relaxation", true)
	if !strings.Contains(relax.WindDown, res.Focus) {
		t.Errorf("a sleep session's relaxation wind_down does not lead toward its resolution's focus %q", res.Focus)
	}
	for _, text := range []string{res.Focus, res.Tone, res.Pacing, res.Guidance, res.WindDown, relax.WindDown} {
		for _, re := range []*regexp.Regexp{
			regexp.MustCompile(`(?i)\b(open(ing)? (your|the) eyes|eyes open|wake|waking|awake|awaken|stand|stretch|return to the room|back to the room|goodbye|thank)\b`),
		} {
			if w := re.FindString(text); w != "" {
				t.Errorf("a sleep session reads %q in %q", w, text)
			}
		}
	}
	// What does not change stays the waking session's.
	for _, name := range []string{"atmosphere", "breathing", "sensory"} {
		a, _ := l.Phase(name)
		b, _ := l.PhaseFor(name, true)
		if a != b {
			t.Errorf("%s differs in a sleep session, and sleep.yaml does not give it", name)
		}
	}
}

func TestVocabularyTermsAreDistinct(t *testing.T) {
	l := llmPrompts(t)
	seen := map[string]string{}
	for _, list := range [][]prompts.Term{l.Body, l.Images} {
		for _, term := range list {
			for _, w := range term.Words {
				w = strings.ToLower(w)
				if other, ok := seen[w]; ok {
					t.Errorf("%q counts for both %s and %s", w, other, term.Name)
				}
				seen[w] = term.Name
				if w == "back" || w == "rest" || w == "light" {
					t.Errorf("%s: %q is too common a word to count as a mention", term.Name, w)
				}
			}
		}
	}
	if len(l.Body) < 15 || len(l.Images) < 15 {
		t.Errorf("%d body parts and %d images: too few to keep a long phase fresh", len(l.Body), len(l.Images))
	}
}

func TestResolutionGrounds(t *testing.T) {
	res, _ := llmPrompts(t).Phase("resolution")
	g := strings.ToLower(res.Guidance)
	for _, want := range []string{"fingers", "toes", "sounds", "surface", "eyes"} {
		if !strings.Contains(g, want) {
			t.Errorf("resolution's guidance does not mention %s", want)
		}
	}
}

func TestBreathingFollowsThePacer(t *testing.T) {
	l := llmPrompts(t)
	br, _ := l.Phase("breathing")
	g := strings.ToLower(br.Guidance)
	// The counts are the pacer's, whatever the settings say: the guidance
	// points at the BREATH section, which lull fills with them.
	for _, want := range []string{"breath section", "tag", "breathe out", "breathe comfortably"} {
		if !strings.Contains(g, want) {
			t.Errorf("breathing's guidance does not say %q", want)
		}
	}
	for _, four := range []string{"four", "two", "six"} {
		if regexp.MustCompile(`\b` + four + `\b`).MatchString(g + " " + strings.ToLower(br.Focus)) {
			t.Errorf("breathing's guidance or focus names the count %q: the pacer's rhythm may be another", four)
		}
	}
	for _, want := range []string{"{rhythm}", "{tags}", "[in] ", "[out] "} {
		if !strings.Contains(l.Breath, want) {
			t.Errorf("the breath section does not show %q", want)
		}
	}
	// The guidance tells the model which opening words land on which part
	// of the breath: its examples must land there in the engine too.
	var checked int
	for _, ex := range examples(br.Guidance) {
		s := strings.ToLower(ex)
		want := engine.StageInhale
		switch {
		case strings.HasPrefix(s, "breathe in"):
		case strings.HasPrefix(s, "breathe out"), strings.HasPrefix(s, "and breathe out"), strings.HasPrefix(s, "exhale"):
			want = engine.StageExhale
		default:
			continue
		}
		checked++
		if got := engine.CueStage(ex); got != want {
			t.Errorf("%q lands on %v, want %v", ex, got, want)
		}
	}
	if checked < 4 {
		t.Errorf("breathing's guidance shows %d cue examples, want at least 4", checked)
	}
}

var quoted = regexp.MustCompile(`"([^"]+)"`)

// examples are the "quoted" examples in a piece of guidance.
func examples(text string) []string {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestExamplesAreSpeakable: a model copies the shape of an example, so
// each one must be a sentence lull would say.
func TestExamplesAreSpeakable(t *testing.T) {
	screen := safety.Default()
	for _, p := range llmPrompts(t).Phases {
		phase, err := engine.ParsePhase(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		for _, field := range []string{p.Guidance, p.Avoid, p.WindDown} {
			for _, ex := range examples(field) {
				if v := screen.Sentence(ex, engine.Place{Phase: phase}); v.Flagged() {
					t.Errorf("%s: example %q flagged as %s (%s)", p.Name, ex, v.Category, v.Rule)
				}
				if strings.ContainsAny(ex, "0123456789[]()") {
					t.Errorf("%s: example %q holds digits or brackets", p.Name, ex)
				}
				if strings.HasSuffix(ex, ".") {
					if n := len(strings.Fields(ex)); n < 6 || n > 20 {
						t.Errorf("%s: example sentence %q has %d words, want 6–20", p.Name, ex, n)
					}
				}
			}
		}
	}
}

func TestMessagesHoldTheirPlaceholders(t *testing.T) {
	l := llmPrompts(t)
	for _, tc := range []struct{ name, text, placeholder string }{
		{"enter", l.Enter, "{phase}"},
		{"continue", l.Continue, "{phase}"},
		{"intention", l.Intention, "{intention}"},
		{"recap", l.Recap, "{recap}"},
		{"length", l.Length, "{sentences}"},
		{"length", l.Length, "{remaining}"},
		{"step", l.Step, "{where}"},
		{"used", l.Used, "{used}"},
		{"note", l.Note, "{note}"},
		{"summary", l.Summary, "{summary}"},
		{"breath", l.Breath, "{rhythm}"},
		{"pause", l.Pause, "{pause}"},
		{"journey", l.Journey, "{steps}"},
	} {
		if !strings.Contains(tc.text, tc.placeholder) {
			t.Errorf("%s = %q does not hold %s", tc.name, tc.text, tc.placeholder)
		}
	}
	if strings.Contains(l.Begin, "{") {
		t.Errorf("begin = %q holds a placeholder", l.Begin)
	}
}

func TestFill(t *testing.T) {
	for _, tc := range []struct {
		template string
		vars     map[string]string
		want     string
	}{
		{"Continue the {phase} phase.", map[string]string{"phase": "sensory"}, "Continue the sensory phase."},
		{"Write about {sentences} sentences, then stop.", map[string]string{"sentences": "8"}, "Write about 8 sentences, then stop."},
		{"{phase} and {phase} again", map[string]string{"phase": "relaxation"}, "relaxation and relaxation again"},
		{"Heard: {recap} Intention: {intention}", map[string]string{"recap": "Rest.", "intention": "sleep"}, "Heard: Rest. Intention: sleep"},
		// Unknown placeholders and braces stay as they are.
		{"{unknown} {phase} {", map[string]string{"phase": "breathing"}, "{unknown} breathing {"},
		{"No placeholders here.", map[string]string{"phase": "breathing"}, "No placeholders here."},
		{"{phase}", nil, "{phase}"},
		// A value is not filled in again: the listener's words stay theirs.
		{"Intention: {intention}. Heard: {recap}", map[string]string{"intention": "{recap}", "recap": "Rest."}, "Intention: {recap}. Heard: Rest."},
	} {
		if got := prompts.Fill(tc.template, tc.vars); got != tc.want {
			t.Errorf("Fill(%q, %v) = %q, want %q", tc.template, tc.vars, got, tc.want)
		}
	}
}

func TestSafetyPrompt(t *testing.T) {
	s := strings.ToLower(llmPrompts(t).Safety)
	for _, want := range []string{"breath holds", "medical", "sexual", "self-harm", "breathe comfortably", "skip", "support"} {
		if !strings.Contains(s, want) {
			t.Errorf("the safety prompt does not mention %q", want)
		}
	}
}

func TestPersonaWritesForTheEar(t *testing.T) {
	s := strings.ToLower(llmPrompts(t).Persona)
	for _, want := range []string{"spoken aloud", "eyes closed", "six to twenty words", "[pause]", "quotation marks", "numbers as words", "never repeat", "being an ai", "present tense"} {
		if !strings.Contains(s, want) {
			t.Errorf("the persona does not mention %q", want)
		}
	}
}

// TestAvoidKeepsToThePhase: each phase names, as a "Do NOT", what belongs
// elsewhere (seed 000, Pitfall 3).
func TestAvoidKeepsToThePhase(t *testing.T) {
	for _, p := range llmPrompts(t).Phases {
		for _, line := range strings.Split(p.Avoid, "\n") {
			if !strings.HasPrefix(line, "Do NOT ") {
				t.Errorf("%s: avoid line %q does not begin with Do NOT", p.Name, line)
			}
		}
	}
}
