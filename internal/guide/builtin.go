// Package guide holds the guides that write a session's words. The built-in
// guide speaks hand-written material from prompts/guide and needs no network.
package guide

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/lull-dev/lull/internal/safety"

	"github.com/lull-dev/lull/internal/engine"
	"github.com/lull-dev/lull/internal/prompts"
)

// Builtin is the guide lull uses with no API key. A session follows one
// journey, chosen by its intention and by what the listener heard lately;
// each phase is a script of steps, and each step says the variant heard
// least recently. It streams its words like an LLM would.
//
// It keeps no state between calls: everything a call says is derived from
// its Request and the guide's Memory, because the engine may discard
// sentences it read ahead and ask again, and a session may move between
// guides and processes.
type Builtin struct {
	m          *prompts.Guide
	safety     *safety.Screen
	ages       ages
	recent     phraseCounts   // a stock phrase is passed over when another will do
	journeyAge map[string]int // sessions since each journey was last taken

	mu    sync.Mutex
	cues  map[string]engine.BreathStage // breathing lines as said, by the part of the breath they belong to
	short map[string]bool               // lines followed by a short pause
	plans map[planKey]*phasePlan
}

var (
	_ engine.Guide       = (*Builtin)(nil)
	_ engine.Capacity    = (*Builtin)(nil)
	_ engine.Cuer        = (*Builtin)(nil)
	_ engine.BreathLiner = (*Builtin)(nil)
)

// NewBuiltin is a built-in guide speaking the given material, remembering
// what the listener heard in earlier sessions.
func NewBuiltin(m *prompts.Guide, mem Memory) *Builtin {
	b := &Builtin{m: m, safety: safety.Default(), ages: mem.ages(), recent: mem.recentPhrases(), cues: map[string]engine.BreathStage{}, short: map[string]bool{}, plans: map[planKey]*phasePlan{}}
	b.journeyAge = journeyAges(m, mem)
	return b
}

// DefaultBuiltin is the built-in guide with the embedded material.
func DefaultBuiltin(mem Memory) (*Builtin, error) {
	m, err := prompts.BuiltinGuide()
	if err != nil {
		return nil, err
	}
	return NewBuiltin(m, mem), nil
}

// journeyAges is how many sessions ago each journey was taken, read from
// the lines only it says (its sensory and relaxation phases); never when
// not in memory.
func journeyAges(m *prompts.Guide, mem Memory) map[string]int {
	owner := map[string]string{}
	for _, j := range m.Journeys {
		for _, s := range []prompts.Script{j.Phases, j.Sleep} {
			for _, p := range []engine.Phase{engine.Sensory, engine.Relaxation} {
				if ps := s[p]; ps != nil {
					for _, st := range ps.Steps {
						for _, v := range st.Say {
							owner[v] = j.Name
						}
					}
				}
			}
		}
	}
	out := map[string]int{}
	for _, j := range m.Journeys {
		out[j.Name] = never
	}
	for i := len(mem.Heard) - 1; i >= 0; i-- {
		for _, s := range mem.Heard[i] {
			if name, ok := owner[s]; ok {
				out[name] = i
			}
		}
	}
	return out
}

// Name is how the guide is recorded in a session.
func (b *Builtin) Name() string { return engine.GuideBuiltin }

// Journey names the journey the session of a request takes.
func (b *Builtin) Journey(req engine.Request) string { return b.session(req).journey.Name }

// Stream writes one call's sentences, separated by single spaces, in small
// pieces.
func (b *Builtin) Stream(ctx context.Context, req engine.Request) (engine.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sentences, err := b.Sentences(req)
	if err != nil {
		return nil, err
	}
	return newTextStream(sentences, pieceSeed(req)), nil
}

// Sentences is what one call says, whole: what Stream streams.
func (b *Builtin) Sentences(req engine.Request) ([]string, error) {
	if !req.Phase.Valid() {
		return nil, fmt.Errorf("builtin guide: unknown phase %v", req.Phase)
	}
	pp := b.plan(req)
	// said is every line heard or on its way, never said twice; here,
	// those heard in this phase, which alone say how far its path has come
	// (a line the journey says in two phases is not this one's step).
	said, here := map[string]bool{}, map[string]bool{}
	for _, e := range req.History {
		if e.Role == engine.RoleGuide {
			said[e.Text] = true
			if e.Phase == req.Phase {
				here[e.Text] = true
			}
		}
	}
	for _, s := range req.Pending { // the line playing: this phase's, or the last of the one before
		said[s], here[s] = true, true
	}
	// Two lines in a row never open alike: a line whose first word is its
	// forerunner's takes another of its step's variants.
	out := b.lines(req, pp, said, here)
	prev := lastSaid(req)
	for i, line := range out {
		out[i] = b.phrase(pp, line, prev, said, req.Seed)
		prev = out[i]
	}
	return out, nil
}

// lines are the steps a call says, each in its chosen words.
func (b *Builtin) lines(req engine.Request, pp *phasePlan, said, here map[string]bool) []string {
	pp = pp.forRoom(req.Budget.WindDownAt, here)
	var out []string
	if req.WindDown {
		// A muscle tensed is let go before anything else, whatever the
		// room: a phase cut short by its budget between the two left it
		// held into the next phase.
		n := max(1, req.Budget.Sentences-req.Spoken)
		if it, ok := pp.heldBy(lastSaid(req), said); ok {
			out = append(out, it.line)
			said[it.line], here[it.line] = true, true
			n--
		}
		lead := unsaidItems(pp.lead, said)
		if req.Phase != engine.Resolution && len(lead) > n {
			lead = lead[len(lead)-n:] // the last lead steps are the bridge
		}
		if req.Phase != engine.Resolution {
			// Before the lead: the step that hands the breath back, when
			// there is room for it, and before that the body's lines and
			// the rests not yet said that the phase has room for, so that
			// it says what its time was planned for (breathing spreads
			// them over its quiet breaths) instead of ending short after
			// its bridge.
			release := unsaidItems(pp.releasing(), said)
			release = release[:min(len(release), max(n-len(lead), 0))]
			// What the phase owes (the opening's intention, the journey's
			// path walked to its end, the intention's line the sensory
			// phase ends on) is kept room first: it takes the place of body
			// lines, then of the lines that lead on, the first first (a path
			// broken off is heard, while the next phase opens on its own
			// first step).
			var end []item
			if !pp.breathing {
				end = pp.owed(said)
			}
			free := n - len(lead) - len(release)
			for free < len(end) && len(lead) > 0 {
				lead, free = lead[1:], free+1
			}
			if free < len(end) && !pp.opening {
				end = slices.DeleteFunc(end, item.intention) // the path's end before it
			}
			if free < len(end) {
				end = nil
			}
			// What the body has not said yet comes first, in its order.
			if room := free - len(end); room > 0 {
				for _, it := range pp.next(req.Spoken+room, req.Spoken, said, here) {
					if slices.ContainsFunc(end, func(e item) bool { return e.key == it.key }) {
						continue // said in its place below
					}
					out = append(out, it.line)
					said[it.line], here[it.line] = true, true
				}
				// The room may end between a muscle tensed and its release:
				// neither is said (the engine says no more than the room).
				if k := len(out) - 1; k >= 0 {
					if _, ok := pp.heldBy(out[k], said); ok {
						delete(said, out[k])
						delete(here, out[k])
						out = out[:k]
					}
				}
			}
			// Each owed step goes among them where the script has it.
			for _, e := range end {
				k := pp.stepAt(e.line)
				at := slices.IndexFunc(out, func(line string) bool { return pp.stepAt(line) > k })
				if at < 0 {
					at = len(out)
				}
				out = slices.Insert(out, at, e.line)
				said[e.line], here[e.line] = true, true
			}
			for _, it := range unsaidItems(pp.rests, said) { // in their order: fresh first
				if pp.breathing || len(out)+len(release)+len(lead) >= n {
					// Breathing's rests are cues to a breath: crowded into its
					// last breaths they would word every one of them.
					break
				}
				out = append(out, it.line)
			}
			for _, it := range release {
				out = append(out, it.line)
			}
		}
		for _, it := range lead {
			out = append(out, it.line)
		}
		return out
	}
	for _, it := range pp.next(req.Budget.WindDownAt, req.Spoken, said, here) {
		out = append(out, it.line)
	}
	return out
}

// lastSaid is the line said last before a request's: the last one read
// ahead, else the last one heard.
func lastSaid(req engine.Request) string {
	if n := len(req.Pending); n > 0 {
		return req.Pending[n-1]
	}
	for i := len(req.History) - 1; i >= 0; i-- {
		if e := req.History[i]; e.Role == engine.RoleGuide {
			return e.Text
		}
	}
	return ""
}

// phrase is how line is said after prev: as it is, unless both open
// with the same word; then the variant of its step heard least recently
// that opens otherwise, names no part of the body the line does not and
// is not said in this session or the last, if there is one.
func (b *Builtin) phrase(pp *phasePlan, line, prev string, said map[string]bool, seed int64) string {
	first := openingWord(line)
	if first == "" || first != openingWord(prev) {
		return line
	}
	it, ok := pp.item(line)
	if !ok {
		return line
	}
	best, bestAge, bestHash := line, -1, uint64(0)
	for _, v := range it.variants {
		a, h := b.ages.age(v), hash(seed, it.key, "phrase", v)
		if said[v] || a == 0 || openingWord(v) == first || !partsWithin(v, line) {
			continue // a line heard in the last session is worse than an echoed word
		}
		if a > bestAge || (a == bestAge && h > bestHash) {
			best, bestAge, bestHash = v, a, h
		}
	}
	return best
}

// Capacity is how many sentences the phase can say without repeating a
// step: past it, the silences grow instead.
func (b *Builtin) Capacity(req engine.Request) int {
	if !req.Phase.Valid() {
		return 0
	}
	pp := b.plan(req)
	return len(pp.body(len(pp.steps)+len(pp.rests))) + len(pp.lead)
}

// Cue is the part of the breath a breathing line this guide wrote is
// spoken on.
func (b *Builtin) Cue(text string) (engine.BreathStage, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st, ok := b.cues[strings.TrimSpace(text)]
	return st, ok
}

var stages = map[string]engine.BreathStage{
	prompts.BreathIn:   engine.StageInhale,
	prompts.BreathHold: engine.StageHold,
	prompts.BreathOut:  engine.StageExhale,
	prompts.BreathRest: engine.StageHoldOut,
}

func (b *Builtin) tag(line, breath string) {
	st, ok := stages[breath]
	if !ok {
		return
	}
	b.mu.Lock()
	b.cues[line] = st
	b.mu.Unlock()
}

// BreathTags are every breathing line of the material as it is said with
// rhythm b, each with the part of the breath it belongs to.
func BreathTags(b engine.BreathPattern) map[string]engine.BreathStage {
	m, err := prompts.BuiltinGuide()
	if err != nil {
		return nil
	}
	out := map[string]engine.BreathStage{}
	for _, s := range m.Scripts() {
		ps := s[engine.Breathing]
		if ps == nil {
			continue
		}
		for _, list := range ps.Parts() {
			for _, st := range list {
				for _, v := range st.Say {
					out[sayCounts(v, b)] = stages[st.Breath]
				}
			}
		}
	}
	return out
}

// mark notes lines followed by a short pause.
func (b *Builtin) mark(lines []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, l := range lines {
		b.short[l] = true
	}
}

// ShortPause reports whether the silence after a line this guide wrote is
// to be brief: a muscle tensed, to be released in the next line.
func (b *Builtin) ShortPause(text string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.short[strings.TrimSpace(text)]
}

// LinesPerBreath: once the rhythm is taught, a worded breath carries one
// line, on the out-breath; readers heard an in-breath line and an
// out-breath line on every worded breath as clipped fragments in pairs.
func (b *Builtin) LinesPerBreath() int { return 1 }
