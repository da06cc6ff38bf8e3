package prompts_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"lull/engine"
	"lull/prompts"
)

// sampleIntentions are what listeners write; every intention line must read
// well and pass the safety check with each of them.
var sampleIntentions = []string{"sleep", "calm before a talk", "letting go of a hard week."}

// line is one sentence of the material with where it came from.
type line struct {
	phase, list, text string
}

func material(t *testing.T) *prompts.Material {
	t.Helper()
	m, err := prompts.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Phases) != len(prompts.PhaseNames) {
		t.Fatalf("got %d phases, want %d", len(m.Phases), len(prompts.PhaseNames))
	}
	return m
}

// allLines lists every sentence, intention lines as written.
func allLines(m *prompts.Material) []line {
	var out []line
	add := func(p *prompts.Phase, list string, texts []string) {
		for _, s := range texts {
			out = append(out, line{p.Name, list, s})
		}
	}
	for _, p := range m.Phases {
		add(p, "opening", p.Opening)
		add(p, "lines", p.Lines)
		add(p, "intention", p.Intention)
		add(p, "wind_down", p.WindDown)
		if p.Grounding != nil {
			for i, alts := range p.Grounding.Steps() {
				add(p, prompts.StepNames[i], alts)
			}
		}
	}
	return out
}

// spoken lists every sentence as it may be said: intention lines expanded
// with each sample intention, the way the guide expands them.
func spoken(m *prompts.Material) []line {
	var out []line
	for _, l := range allLines(m) {
		if l.list != "intention" {
			out = append(out, l)
			continue
		}
		for _, in := range sampleIntentions {
			in = strings.TrimSuffix(strings.TrimSpace(in), ".")
			out = append(out, line{l.phase, l.list, strings.ReplaceAll(l.text, prompts.Placeholder, in)})
		}
	}
	return out
}

func TestPhaseCounts(t *testing.T) {
	m := material(t)
	for _, p := range m.Phases {
		distinct := map[string]bool{}
		for _, l := range allLines(&prompts.Material{Phases: []*prompts.Phase{p}}) {
			distinct[l.text] = true
		}
		if len(distinct) < 60 {
			t.Errorf("%s: %d distinct sentences, want at least 60", p.Name, len(distinct))
		}
		if n := len(p.Opening); n < 4 {
			t.Errorf("%s: %d opening lines, want at least 4", p.Name, n)
		}
		if n := len(p.Intention); n < 6 || n > 10 {
			t.Errorf("%s: %d intention lines, want 6–10", p.Name, n)
		}
		if p.Name == "resolution" {
			if len(p.Lines) < 25 {
				t.Errorf("resolution: %d return lines, want at least 25", len(p.Lines))
			}
			for i, alts := range p.Grounding.Steps() {
				if len(alts) < 6 {
					t.Errorf("resolution: grounding %s has %d alternatives, want at least 6", prompts.StepNames[i], len(alts))
				}
			}
			continue
		}
		if len(p.Lines) < 60 {
			t.Errorf("%s: %d lines, want at least 60", p.Name, len(p.Lines))
		}
		if n := len(p.WindDown); n < 8 || n > 12 {
			t.Errorf("%s: %d wind_down lines, want 8–12", p.Name, n)
		}
	}
}

func TestNoDuplicates(t *testing.T) {
	seen := map[string]line{}
	for _, l := range allLines(material(t)) {
		key := strings.ToLower(l.text)
		if prev, ok := seen[key]; ok {
			t.Errorf("%q is in %s/%s and %s/%s", l.text, prev.phase, prev.list, l.phase, l.list)
		}
		seen[key] = l
	}
}

func TestEveryLinePassesSafety(t *testing.T) {
	safety := engine.DefaultSafety()
	for _, l := range spoken(material(t)) {
		if v := safety.Check(l.text); v.Flagged() {
			t.Errorf("%s/%s: %q flagged as %s (%s)", l.phase, l.list, l.text, v.Category, v.Rule)
		}
	}
}

var (
	endingWords = regexp.MustCompile(`(?i)\b(end|ends|ending|endless\w*|finish\w*|final\w*|goodbye|good-bye|farewell|wak(e|es|en|ens|ing)|awake\w*|session\w*)\b|come back to the room`)
	eyesOpen    = regexp.MustCompile(`(?i)\beyes?\s+(open|opening)\b|\bopen(ing)?\s+(your\s+)?eyes\b`)
	// unkind is what a relaxation guide never says, whatever the safety
	// rules happen to catch.
	unkind    = regexp.MustCompile(`(?i)\b(cure\w*|heal\w*|treat\w*|clinical\w*|medical\w*|therapy|die|dies|dying|dead|death|kill\w*|harm\w*|hurt\w*|pain\w*|sexy?|sensual\w*|naked|kiss\w*|caress\w*|lips|dr|mr|mrs|ms)\b`)
	badBreath = regexp.MustCompile(`(?i)as long as (you )?(can|possible)|\b(rapid|forceful|fast|quick|hard|sharp)\w*\s+(breaths?|breathing|inhales?|exhales?)|\bbreathe\s+(\w+\s+)?(hard|fast|quickly|rapidly)|\bpant`)
	// holdCount finds the count nearest after a hold.
	holdCount = regexp.MustCompile(`(?i)\bhold\w*\W+(?:\w+\W+){0,5}?(?:for|of|to)\s+(?:a\s+count\s+of\s+)?(\w+)`)
	// innerStop is a sentence break inside a line; an ellipsis followed by
	// a lowercase word flows on and is allowed.
	innerStop = regexp.MustCompile(`[.?!…]\s+\S`)
	flowing   = regexp.MustCompile(`\.\.\.\s+[a-z]`)
)

func TestNothingEndsBeforeResolution(t *testing.T) {
	for _, l := range spoken(material(t)) {
		if l.phase != "resolution" && endingWords.MatchString(l.text) {
			t.Errorf("%s/%s: %q sounds like the session is ending (Pitfall 4)", l.phase, l.list, l.text)
		}
		if l.list != "eyes_open" && eyesOpen.MatchString(l.text) {
			t.Errorf("%s/%s: %q opens the eyes outside resolution's eyes_open step", l.phase, l.list, l.text)
		}
		if l.list == "eyes_open" && !eyesOpen.MatchString(l.text) {
			t.Errorf("%s/%s: %q does not open the eyes", l.phase, l.list, l.text)
		}
	}
}

// TestWordsAreKind reads the material as written: the listener's own words
// in an intention are theirs, not ours.
func TestWordsAreKind(t *testing.T) {
	for _, l := range allLines(material(t)) {
		if w := unkind.FindString(l.text); w != "" {
			t.Errorf("%s/%s: %q says %q", l.phase, l.list, l.text, w)
		}
		if w := badBreath.FindString(l.text); w != "" {
			t.Errorf("%s/%s: %q asks for unsafe breathing (%q)", l.phase, l.list, l.text, w)
		}
		for _, m := range holdCount.FindAllStringSubmatch(l.text, -1) {
			if n, ok := counts[strings.ToLower(m[1])]; ok && n > 4 {
				t.Errorf("%s/%s: %q holds the breath for %s, longer than four", l.phase, l.list, l.text, m[1])
			}
		}
	}
}

var counts = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}

func TestOneSpokenSentencePerLine(t *testing.T) {
	for _, l := range spoken(material(t)) {
		where := fmt.Sprintf("%s/%s: %q", l.phase, l.list, l.text)
		if !strings.HasSuffix(l.text, ".") && !strings.HasSuffix(l.text, "?") {
			t.Errorf("%s does not end with . or ?", where)
		}
		if strings.ContainsAny(l.text, "!;{}\"") {
			t.Errorf("%s holds ! ; braces or straight quotes", where)
		}
		body := flowing.ReplaceAllString(l.text[:len(l.text)-1], "")
		if innerStop.MatchString(body) {
			t.Errorf("%s holds a sentence break", where)
		}
		if n := len(strings.Fields(l.text)); n < 6 || n > 22 {
			t.Errorf("%s has %d words, want 6–22", where, n)
		}
		// The engine's own splitter must hear exactly this one sentence.
		var sp engine.Splitter
		got := append(sp.Feed(l.text+" "), sp.Flush()...)
		if len(got) != 1 || got[0] != l.text {
			t.Errorf("%s splits into %q", where, got)
		}
	}
}

// TestVariedOpenings keeps a phase from sounding like a list: no first word
// opens more than a sixth of its lines.
func TestVariedOpenings(t *testing.T) {
	for _, p := range material(t).Phases {
		first := map[string]int{}
		for _, s := range p.Lines {
			first[strings.ToLower(strings.Trim(strings.Fields(s)[0], ",."))]++
		}
		for w, n := range first {
			if n*6 > len(p.Lines) {
				t.Errorf("%s: %d of %d lines open with %q", p.Name, n, len(p.Lines), w)
			}
		}
	}
}

func TestCrisisMessage(t *testing.T) {
	for _, want := range []string{"emergency", "988", "116 123", "findahelpline.com", "not the right thing"} {
		if !strings.Contains(prompts.Crisis, want) {
			t.Errorf("the crisis message does not mention %q", want)
		}
	}
}

func TestBuiltinIsParsedOnce(t *testing.T) {
	a, errA := prompts.Builtin()
	b, errB := prompts.Builtin()
	if errA != nil || errB != nil || a != b {
		t.Fatalf("Builtin() = %p, %v then %p, %v: want the same material", a, errA, b, errB)
	}
}
