package llm

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lull-dev/lull/internal/engine"
)

// stepAt is the journey step sentence i of a phase of sentences falls on:
// the phase's sentences are spread evenly over its steps.
func stepAt(i, sentences, steps int) int {
	if sentences <= 0 {
		return 0
	}
	return min(max(i, 0)*steps/sentences, steps-1)
}

// where says where a call stands on the phase's steps: the step its first
// sentence falls on, and the step its last may reach. "" when the session
// follows no journey.
func where(req engine.Request, n int) string {
	steps := req.Outline.Steps
	if len(steps) == 0 {
		return ""
	}
	total := max(req.Budget.Sentences, req.Spoken+n)
	at := stepAt(req.Spoken, total, len(steps))
	to := stepAt(req.Spoken+n-1, total, len(steps))
	s := fmt.Sprintf("step %d of %d, %s", at+1, len(steps), steps[at])
	if to > at {
		return s + fmt.Sprintf("; this reply may go as far as step %d, %s, and no further", to+1, steps[to])
	}
	return s + "; stay with it for this whole reply"
}

// stepList is the phase's steps, numbered, for the instructions.
func stepList(steps []string) string {
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = strconv.Itoa(i+1) + ". " + s
	}
	return strings.Join(parts, "; ")
}
