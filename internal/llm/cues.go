package llm

import (
	"strings"
	"sync"
	"unicode"

	"github.com/lull-dev/lull/internal/engine"
)

// cues remembers the part of the breath each tagged sentence of a session
// was written for, so the engine can ask (Guide.Cue). It keeps the newest
// maxCues: the engine asks as a line is about to be spoken, a few lines
// after it was written.
type cues struct {
	mu     sync.Mutex
	order  []string
	stages map[string]engine.BreathStage
}

const maxCues = 64

// cueKey is a sentence reduced to its words, so what the engine's own
// cleaning changes (spaces, quotes, markup) still finds it.
func cueKey(text string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

func (c *cues) remember(text string, s engine.BreathStage) {
	k := cueKey(text)
	if k == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stages == nil {
		c.stages = map[string]engine.BreathStage{}
	}
	if _, ok := c.stages[k]; !ok {
		c.order = append(c.order, k)
	}
	c.stages[k] = s
	for len(c.order) > maxCues {
		delete(c.stages, c.order[0])
		c.order = c.order[1:]
	}
}

// minCuePart is the shortest piece of a remembered sentence that still
// finds it: a sentence the engine split in two.
const minCuePart = 12

func (c *cues) stage(text string) (engine.BreathStage, bool) {
	k := cueKey(text)
	if k == "" {
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.stages[k]; ok {
		return s, true
	}
	if len(k) < minCuePart {
		return 0, false
	}
	for i := len(c.order) - 1; i >= 0; i-- {
		if strings.Contains(c.order[i], k) {
			return c.stages[c.order[i]], true
		}
	}
	return 0, false
}

// Cue is the part of the breath a breathing line was tagged with by the
// model (engine.Cuer); ok is false for a line that came without a tag, which
// the engine then times by its first words.
func (g *Guide) Cue(text string) (engine.BreathStage, bool) { return g.cues.stage(text) }

var _ engine.Cuer = (*Guide)(nil)
