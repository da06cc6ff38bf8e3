package llm

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// outlined is the guide with each phase's journey steps put in its
// requests, as the engine does from the built-in guide (engine.Outliner).
type outlined struct {
	*Guide
	steps map[engine.Phase]engine.Outline
}

func (o outlined) Stream(ctx context.Context, req engine.Request) (engine.Stream, error) {
	req.Outline = o.steps[req.Phase]
	return o.Guide.Stream(ctx, req)
}

// bodyScanJourney is the body scan as the built-in guide lays it out
// (prompts/guide/journeys/body-scan.yaml and the skeleton's steps).
func bodyScanJourney() map[engine.Phase]engine.Outline {
	o := func(steps ...string) engine.Outline {
		return engine.Outline{Journey: "Body scan", About: "Your attention travels slowly through the body, from the feet to the scalp, noticing each part without changing it.", Steps: steps}
	}
	return map[engine.Phase]engine.Outline{
		engine.Atmosphere: o("a comfortable position", "the eyes", "arriving", "the body's weight", "permission to rest", "a hint of the journey ahead"),
		engine.Breathing:  o("the first counted breaths", "where the breath arrives", "into the belly", "the counts fall away", "the breath at its own pace"),
		engine.Sensory:    o("contact with the surface", "the heels", "the back", "the hands", "the head", "clothing on the skin", "air on the skin", "warm and cool", "the body's weight", "the body as a whole"),
		engine.Relaxation: o("the feet", "the ankles", "the calves and knees", "the thighs", "the hips", "the belly", "the lower back", "the chest", "the hands and arms", "the shoulders", "the neck", "the jaw", "the face", "the scalp"),
		engine.Resolution: o("letting the scan go", "a fuller breath", "small movements", "the sounds of the room", "the surface beneath", "opening the eyes", "a warm close"),
	}
}

// TestPromptReview writes what the model is sent, for a person to read
// (acceptance 3 of issue 11): a 20-minute session through the real engine,
// this guide and the fake server, with a model that keeps to the format
// but writes at most two sentences a call, as models that write less
// than asked do. For the phase with the most calls, the instructions and
// the input of its first and tenth call. It runs only when
// LULL_PROMPT_REVIEW names the file to write.
func TestPromptReview(t *testing.T) {
	file := os.Getenv("LULL_PROMPT_REVIEW")
	if file == "" {
		t.Skip("LULL_PROMPT_REVIEW=<file> writes the prompt review")
	}
	srv := newServer(t)
	m := &model{most: 2, vivid: true}
	srv.SetText(m.write)
	g := newGuide(t, srv, func(c *Config) { c.Watchdog = 10 * time.Second })
	const intention = "calm before the talk I give on Thursday"
	session(t, outlined{Guide: g, steps: bodyScanJourney()}, engine.Options{Length: 20 * time.Minute, Intention: intention})

	byPhase := map[string][]int{}
	reqs := generations(srv)
	for i, r := range reqs {
		instr, _ := r.JSON["instructions"].(string)
		if p := phaseNamed.FindStringSubmatch(instr); p != nil {
			byPhase[strings.ToLower(p[1])] = append(byPhase[strings.ToLower(p[1])], i)
		}
	}
	busiest := ""
	var counts []string
	for _, p := range engine.Phases {
		name := p.String()
		counts = append(counts, fmt.Sprintf("%s %d", name, len(byPhase[name])))
		if len(byPhase[name]) > len(byPhase[busiest]) {
			busiest = name
		}
	}
	calls := byPhase[busiest]
	if len(calls) < 10 {
		t.Fatalf("the busiest phase, %s, had %d calls: fewer than ten (%s)", busiest, len(calls), strings.Join(counts, ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Prompt review: one 20-minute session\n\n")
	fmt.Fprintf(&b, "A 20-minute session with the intention %q, on the body-scan journey (its steps set by hand, as the engine sets them from the built-in guide), through the real engine, the LLM guide and the fake OpenAI server (chained, store: true). The fake model keeps to the format but writes at most two sentences a call.\n\n", intention)
	fmt.Fprintf(&b, "Calls per phase: %s. The busiest phase is %s; below are its first and tenth calls.\n", strings.Join(counts, ", "), busiest)
	for _, k := range []int{0, 9} {
		r := reqs[calls[k]]
		instr, _ := r.JSON["instructions"].(string)
		in := inputs(r)
		inChars := 0
		for _, s := range in {
			inChars += len(s)
		}
		fmt.Fprintf(&b, "\n## %s, call %d of %d\n\n### Instructions (%d characters)\n\n````text\n%s\n````\n\n### Input (%d characters)\n\n````text\n%s\n````\n",
			busiest, k+1, len(calls), len(instr), instr, inChars, strings.Join(in, "\n\n"))
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", file)
}
