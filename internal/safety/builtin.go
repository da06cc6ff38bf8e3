package safety

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// builtinRhythms are breathing patterns the built-in guide counts aloud:
// the default, 4-7-8, no hold, and halves with a rest.
var builtinRhythms = []engine.BreathPattern{
	engine.DefaultBreath,
	{Inhale: 4 * time.Second, Hold: 7 * time.Second, Exhale: 8 * time.Second},
	{Inhale: 5 * time.Second, Exhale: 7 * time.Second},
	{Inhale: 5500 * time.Millisecond, Exhale: 5500 * time.Millisecond, HoldOut: 2 * time.Second},
}

// sampleWords are short intentions the quote lines are said with.
var sampleWords = []string{"sleep", "calm before a talk", "a clear head", "rest after a long week"}

// BuiltinExamples is every line of the built-in material (prompts/guide)
// with each place it may be said, as safe guidance: a waking session's
// phases, and a sleep session's, composed the way the guide composes them
// (sleep.yaml and a journey's sleep parts replace the parts they give).
// The classifier learns from them, and must never drop one.
func BuiltinExamples() ([]Example, error) {
	m, err := prompts.BuiltinGuide()
	if err != nil {
		return nil, err
	}
	type spoken struct {
		text string
		at   Place
	}
	seen := map[spoken]bool{}
	var out []Example
	add := func(text string, at Place, st prompts.Step) {
		texts := []string{text}
		if at.Phase == engine.Breathing && strings.Contains(text, "{") {
			texts = texts[:0]
			for _, r := range builtinRhythms {
				if st.SaidWith(r.Hold > 0, r.HoldOut > 0) {
					texts = append(texts, fillCounts(text, r))
				}
			}
		}
		for _, tx := range texts {
			s := spoken{tx, at}
			if !seen[s] {
				seen[s] = true
				out = append(out, Example{At: at, Text: tx, Source: builtinSource})
			}
		}
	}
	say := func(steps []prompts.Step, at Place) {
		for _, st := range steps {
			for _, v := range st.Say {
				add(v, at, st)
			}
		}
	}
	part := prompts.Over
	for _, sleep := range []bool{false, true} {
		for _, j := range m.Journeys {
			if j.SleepOnly && !sleep {
				continue
			}
			for _, p := range engine.Phases {
				at := Place{Phase: p, Sleep: sleep}
				var so, jso *prompts.PhaseScript
				if sleep {
					so, jso = m.Sleep[p], j.Sleep[p]
				}
				base, jp := part(m.Skeleton[p], so), part(j.Phases[p], jso)
				for _, st := range base.Steps {
					if st.From == prompts.FromJourney {
						say(jp.Steps, at)
					} else if st.From == "" {
						say([]prompts.Step{st}, at)
					}
				}
				say(base.Rests, at)
				say(jp.Rests, at)
				// Every lead the material holds, the journey's and the
				// skeleton's: a journey without its own says the skeleton's.
				say(base.Lead, at)
				say(jp.Lead, at)
			}
		}
		for _, k := range append(slices.Clone(m.Kinds), m.General) {
			for _, p := range engine.Phases {
				at := Place{Phase: p, Sleep: sleep}
				lines := k.Lines[p.String()]
				if sleep && p == engine.Resolution && !k.Sleep {
					lines = k.ResolutionSleep
				}
				for _, l := range lines {
					add(l, at, prompts.Step{})
				}
				if sleep && p == engine.Resolution {
					continue
				}
				for _, q := range k.Quote[p.String()] {
					for _, w := range sampleWords {
						add(strings.Replace(q, prompts.Quote, w, 1), at, prompts.Step{})
					}
				}
			}
		}
	}
	return out, nil
}

// builtinSource is the Source of every line of the built-in material.
const builtinSource = "prompts/guide"

// fillCounts says a breathing line's counts for rhythm r, as the guide does.
func fillCounts(line string, r engine.BreathPattern) string {
	spell := func(d time.Duration) string {
		words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
		halves := int(math.Round(d.Seconds() * 2))
		s := words[halves/2]
		if halves%2 == 1 {
			s += " and a half"
		}
		return s
	}
	return strings.NewReplacer("{in}", spell(r.Inhale), "{hold}", spell(r.Hold), "{out}", spell(r.Exhale), "{rest}", spell(r.HoldOut)).Replace(line)
}

// WriteBuiltinSnapshot writes every line of the built-in material as a
// safe corpus (BuiltinExamples, in their order): the snapshot the
// classifier is trained from (see TrainingCorpus).
func WriteBuiltinSnapshot(w io.Writer) error {
	ex, err := BuiltinExamples()
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# Every line of the built-in material (prompts/guide) where it may be said, as the")
	fmt.Fprintln(bw, "# safety classifier last learned it: written by `go generate ./safety`. Do not edit.")
	for _, e := range ex {
		mode := "waking"
		if e.At.Sleep {
			mode = "sleep"
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\n", e.At.Phase, mode, e.Text)
	}
	return bw.Flush()
}
