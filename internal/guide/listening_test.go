package guide

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// What a listener who knows human-written scripts hears wrong, counted
// over sessions heard at real clip lengths (see voiced_test.go).

// finding is one thing wrong in one session.
type finding struct {
	kind, what string
}

// Kinds of finding.
const (
	tenseLeft     = "a tensed muscle left unreleased"
	pathCut       = "a journey's path not walked to its end"
	returnOrder   = "the return out of order"
	wordyBreaths  = "words on more than one breath in three"
	cueOver       = "a cue running past its part of the breath"
	sameOpening   = "two lines in a row opening alike"
	saidTwice     = "a sentence said twice"
	missingChimes = "a phase change without a chime"
	bellUnder     = "a bell under words, on their heels, or over a sleeper"
	lateIntention = "the intention not heard in the first minute"
)

// listenFor lists what is wrong in a voiced session.
func listenFor(v voiced) []finding {
	var out []finding
	add := func(kind, format string, args ...any) {
		out = append(out, finding{kind, fmt.Sprintf(format, args...)})
	}
	heard := v.ear.heard
	itemOf := func(items []item, text string) int {
		return slices.IndexFunc(items, func(it item) bool { return slices.Contains(it.variants, text) })
	}
	plan := func(p engine.Phase) *phasePlan {
		req := v.req
		req.Phase = p
		var said []string
		for _, h := range heard {
			if h.phase == p {
				said = append(said, h.text)
			}
		}
		return walked(v.g.plan(req), said)
	}

	// Said twice; two openings alike.
	seen := map[string]bool{}
	for i, h := range heard {
		if seen[h.text] {
			add(saidTwice, "%q", h.text)
		}
		seen[h.text] = true
		if i > 0 && openingWord(h.text) == openingWord(heard[i-1].text) {
			add(sameOpening, "%q, then %q", heard[i-1].text, h.text)
		}
	}

	// A tensed muscle is released in the next line.
	for i, h := range heard {
		if !v.g.ShortPause(h.text) {
			continue
		}
		pp := plan(h.phase)
		k := itemOf(pp.steps, h.text)
		if k < 0 || k+1 >= len(pp.steps) {
			continue
		}
		if i+1 >= len(heard) || !slices.Contains(pp.steps[k+1].variants, heard[i+1].text) {
			next := "nothing"
			if i+1 < len(heard) {
				next = fmt.Sprintf("%q", heard[i+1].text)
			}
			add(tenseLeft, "%q, then %s", h.text, next)
		}
	}

	// Each journey phase walks its path from its first step to its last.
	for _, p := range []engine.Phase{engine.Sensory, engine.Relaxation} {
		pp := plan(p)
		var journey []item
		for _, it := range pp.steps {
			if it.journey && !it.optional {
				journey = append(journey, it)
			}
		}
		if len(journey) == 0 {
			continue
		}
		ends := []item{journey[0], journey[len(journey)-1]}
		if walksBrief(v, p, pp) && pathLines(v, p, pp) >= len(journey) {
			// The path in its fewest sweeps, each a stretch of it: a phase
			// with room for them all says them all, not a pause in the legs
			// and then the neck (a reader heard a scan jump from the hips).
			ends = journey
		}
		for _, it := range ends {
			if !slices.ContainsFunc(heard, func(h heardClip) bool { return h.phase == p && slices.Contains(it.variants, h.text) }) {
				add(pathCut, "%s never said its %s step", p, it.key)
			}
		}
	}

	// The return, in a waking session: the journey's goodbye, the breath,
	// small movements, the room and the surface, the eyes, one farewell.
	if !v.st.Sleep {
		pp := plan(engine.Resolution)
		last, lastKey := -1, ""
		for _, h := range heard {
			if h.phase != engine.Resolution {
				continue
			}
			key := ""
			if k := itemOf(pp.steps, h.text); k >= 0 {
				key = pp.steps[k].key
			} else if k := itemOf(pp.lead, h.text); k >= 0 {
				key = pp.lead[k].key
			}
			r := returnRank(key)
			if r < 0 {
				continue
			}
			if r < last {
				add(returnOrder, "%s (%q) after %s", key, h.text, lastKey)
			}
			last, lastKey = r, key
		}
	}

	// Breathing: each cue inside its part of the breath; after the taught
	// breaths, words on at most one breath in three (its close aside: the
	// step that hands the breath back and the lines that lead on to the
	// next phase, said one after the other).
	if e := v.ear; e.pacing {
		bp := plan(engine.Breathing)
		lead := slices.Concat(bp.lead, bp.releasing())
		period := e.pattern.Period()
		taught, worded, breaths := -1, map[int]bool{}, 0
		var end time.Duration
		for _, h := range heard {
			if h.phase != engine.Breathing {
				continue
			}
			end = h.end
			stage, ok := v.g.Cue(h.text)
			if !ok {
				continue
			}
			at := h.start - e.anchor + 50*time.Millisecond
			n := int(at / period)
			if itemOf(lead, h.text) < 0 {
				worded[n] = true
			}
			if hasCount(h.text) {
				taught = n
			}
			if e.pattern.At(at).Stage != stage {
				continue // begun elsewhere: the engine's to place
			}
			stageEnd := e.anchor + time.Duration(n)*period + e.pattern.Offset(stage) + e.pattern.Length(stage)
			if over := h.end - stageEnd; over > 100*time.Millisecond {
				add(cueOver, "%q (%v) runs %v past its part of the breath", h.text, stage, over.Round(10*time.Millisecond))
			}
		}
		breaths = int((end - e.anchor) / period)
		after, withWords := 0, 0
		for n := taught + 1; n <= breaths; n++ {
			after++
			if worded[n] {
				withWords++
			}
		}
		if after >= 3 && 3*withWords > after+2 {
			add(wordyBreaths, "words on %d of the %d breaths after the taught ones", withWords, after)
		}
	}

	// The listener's reason for coming is heard within the first minute.
	if v.st.Intention != "" {
		pp := plan(engine.Atmosphere)
		if k := slices.IndexFunc(pp.steps, item.intention); k >= 0 {
			if !slices.ContainsFunc(heard, func(h heardClip) bool {
				return h.start < time.Minute && slices.Contains(pp.steps[k].variants, h.text)
			}) {
				add(lateIntention, "%q", v.st.Intention)
			}
		}
	}

	// A chime at every phase change, but none once a sleep session thins
	// out (relaxation and resolution), where a bell would wake the
	// drifting listener.
	want := len(engine.Phases) - 1
	if v.st.Sleep {
		want = int(engine.Relaxation) - 1
	}
	if n := len(v.ear.chimes); n < want {
		add(missingChimes, "%d chimes", n)
	}
	if v.st.Sleep {
		if k := slices.IndexFunc(heard, func(h heardClip) bool { return h.phase >= engine.Relaxation }); k >= 0 {
			for _, c := range v.ear.chimes {
				if c >= heard[k].start {
					add(bellUnder, "a bell at %v while the listener drifts", c)
				}
			}
		}
	}
	// Each bell is struck in quiet: no word under it, the next at least a
	// second after it, and the last at least three seconds before it (a
	// rest line with a bell on its heels is heard as one interrupting the
	// other).
	for _, c := range v.ear.chimes {
		for _, h := range heard {
			if h.end > c && h.start < c+time.Second {
				add(bellUnder, "%q at %v under the bell at %v", h.text, h.start, c)
				break
			}
			if h.end <= c && h.end > c-3*time.Second {
				add(bellUnder, "the bell at %v on the heels of %q (ended %v)", c, h.text, h.end)
				break
			}
		}
	}
	return out
}

// walksBrief reports whether pp, the plan phase p walked in v, is the
// journey's brief.
func walksBrief(v voiced, p engine.Phase, pp *phasePlan) bool {
	req := v.req
	req.Phase = p
	brief := v.g.plan(req).brief
	return brief != nil && len(pp.steps) == len(brief.steps) && pp.steps[0].key == brief.steps[0].key
}

// pathLines counts the lines phase p said in v from its journey's path
// (its steps and the journey's rests), not the intention's line or the lead.
func pathLines(v voiced, p engine.Phase, pp *phasePlan) int {
	path := slices.DeleteFunc(append(slices.Clone(pp.steps), pp.rests...), item.intention)
	n := 0
	for _, h := range v.ear.heard {
		if h.phase == p && slices.ContainsFunc(path, func(it item) bool { return slices.Contains(it.variants, h.text) }) {
			n++
		}
	}
	return n
}

// returnRank is a resolution step's place in the return; -1 for what may
// come anywhere (rests, the intention's line, the first turn back).
func returnRank(key string) int {
	order := []string{"journey/", "fuller-breath", "small-movements", "bigger-movements", "room-sounds", "surface", "lead/eyes", "lead/farewell"}
	for i, o := range order {
		if strings.HasPrefix(key, o) {
			return i
		}
	}
	return -1
}

func hasCount(s string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if slices.Contains(countWords, w) {
			return true
		}
	}
	return false
}

// everyKind is an intention of each kind lull reads (sleep, nerves,
// worry, grief, pain, focus, rest), and one of none of them.
var everyKind = []string{"sleep", "calm before a talk", "I can't stop worrying about work", "grief after losing my father", "back ache", "clear head before work", "unwind after a long day", "gratitude"}

// journeySeeds is, for each journey, a seed whose session with no
// intention takes it (waking, or asleep for a journey only for sleep).
func journeySeeds(t *testing.T) map[string]hearing {
	t.Helper()
	m := loadMaterial(t)
	g := NewBuiltin(m, Memory{})
	out := map[string]hearing{}
	for seed := int64(1); len(out) < len(m.Journeys) && seed < 500; seed++ {
		for _, sleep := range []bool{false, true} {
			name := g.Journey(engine.Request{Seed: seed, Sleep: sleep, Breath: engine.DefaultBreath})
			if _, ok := out[name]; !ok {
				out[name] = hearing{seed: seed, sleep: sleep}
			}
		}
	}
	if len(out) < len(m.Journeys) {
		t.Fatalf("only %d of %d journeys taken by a seed", len(out), len(m.Journeys))
	}
	return out
}

// TestListeningFindsNothingWrong hears every journey at every length,
// waking and asleep, with and without an intention, with no voice, and
// each journey in espeak-ng or flite too (synthesis is what costs), and counts what a
// listener would find wrong: none of it may happen (the counts: go test -v).
func TestListeningFindsNothingWrong(t *testing.T) {
	lengths := []int{5, 10, 15, 20, 30, 45, 60}
	seeds := journeySeeds(t)
	var names []string
	for name := range seeds {
		names = append(names, name)
	}
	slices.Sort(names)
	var hs []hearing
	for vi, voice := range voices {
		for ji, name := range names {
			for k := range 2 {
				// A real voice hears every other journey, espeak-ng one half
				// and flite the other: every journey at real clip lengths,
				// at half the synthesis.
				if voice != "none" && (k == 1 || ji%2 != (vi-1)%2) {
					continue
				}
				h := seeds[name]
				h.voice = voice
				h.minutes = lengths[(ji*2+k+vi*3)%len(lengths)]
				if k == 1 || (voice != "none" && ji%2 == 1) {
					h.intention = everyKind[(ji+vi*3)%len(everyKind)]
					h.sleep = h.sleep || ProposesSleep(h.intention)
				}
				hs = append(hs, h)
			}
		}
	}
	m, kinds := loadMaterial(t), map[*prompts.Kind]bool{}
	for _, h := range hs {
		kinds[kindOf(m, h.intention)] = true
	}
	for _, k := range append(slices.Clone(m.Kinds), m.General) {
		if !kinds[k] {
			t.Errorf("no session heard has an intention of kind %s", k.Name)
		}
	}
	counts := map[string]int{}
	for _, v := range hearAll(t, hs) {
		for _, f := range listenFor(v) {
			counts[f.kind]++
			t.Errorf("%s: %s: %s", v.h, f.kind, f.what)
		}
	}
	t.Logf("%d sessions heard", len(hs))
	for _, k := range []string{tenseLeft, pathCut, returnOrder, wordyBreaths, cueOver, sameOpening, saidTwice, missingChimes, bellUnder, lateIntention} {
		t.Logf("%-45s %d", k, counts[k])
	}
}
