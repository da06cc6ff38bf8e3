package llm

import (
	"strconv"
	"strings"
	"time"

	"github.com/lull-dev/lull/internal/engine"
)

// breathOf is the rhythm a call's breathing follows.
func breathOf(req engine.Request) engine.BreathPattern {
	if req.Breath.Period() <= 0 {
		return engine.DefaultBreath
	}
	return req.Breath
}

// seconds says a duration as whole seconds, or halves.
func seconds(d time.Duration) string {
	s := strconv.FormatFloat(float64(d.Round(500*time.Millisecond))/float64(time.Second), 'f', -1, 64)
	if s == "1" {
		return "1 second"
	}
	return s + " seconds"
}

// spokenSeconds is a pause as the model is told it.
func spokenSeconds(d time.Duration) string {
	if d < time.Second {
		return "a moment"
	}
	return seconds(d)
}

// rhythm is the pacer's rhythm in words, for the breath section.
func rhythm(b engine.BreathPattern) string {
	parts := []string{"breathe in for " + seconds(b.Inhale)}
	if b.Hold > 0 {
		parts = append(parts, "a soft pause of "+seconds(b.Hold)+" at the top")
	}
	parts = append(parts, "breathe out for "+seconds(b.Exhale))
	if b.HoldOut > 0 {
		parts = append(parts, "a rest of "+seconds(b.HoldOut)+" before the next in-breath")
	}
	return strings.Join(parts, ", ")
}

// tagList is the tags a rhythm has, each with what it means: [hold] and
// [rest] only when the rhythm pauses there.
func tagList(b engine.BreathPattern) string {
	tags := []string{"[in] for a line spoken as the in-breath begins"}
	if b.Hold > 0 {
		tags = append(tags, "[hold] for a short line spoken in the pause at the top")
	}
	tags = append(tags, "[out] for a line spoken as the out-breath begins")
	if b.HoldOut > 0 {
		tags = append(tags, "[rest] for a short line spoken in the rest after the out-breath")
	}
	return strings.Join(tags, ", ")
}
